import { customSysRoles, rolesPanels } from '../../../db/schema/index.js';
import { FLAG_ROLES } from '../../auth/panels.js';
import { defineResource, forbidden, type Row } from '../../jsonapi/index.js';
import { requiredText } from '../attributes.js';
import { staffWritten } from '../staff-written.js';

/** The seeded roles the users' flags hold by name: renaming or deleting one would take its panels from their holders. */
function keepFlagRole(row: Row) {
  const name = String(row.name);
  if (Object.values(FLAG_ROLES).includes(name as never))
    throw forbidden(`"${name}" is held through a user flag (is-sales-admin, is-marketer): it keeps its name and stays`);
}

/**
 * A system role an administrator defines (the reference's custom_system_roles.py): the admin panels it opens. Who
 * holds one sees those panels' pages and routes (src/auth/panels.ts).
 */
export const customSystemRoleResource = defineResource({
  type: 'custom-system-role',
  path: 'custom-system-roles',
  name: 'CustomSystemRole',
  tag: 'Custom system roles',
  description:
    'A system role that opens admin panels to those who hold it (the seeded "Sales Admin" and "Marketer" are held through ' +
    "a user's is-sales-admin and is-marketer flags). Everyone reads the roles; administrators create, rename and delete " +
    'them and choose their panels.',
  table: customSysRoles,
  attributes: {
    name: requiredText('name', 255, 'the role, unique'),
  },
  relationships: {
    'panel-permissions': {
      kind: 'toMany',
      type: 'panel-permission',
      through: { table: rolesPanels, from: 'roleId', to: 'panelPermissionId' },
      description: 'the panels the role opens (administrators read and set them)',
    },
  },
  policy: staffWritten,
  hooks: {
    beforeUpdate(_ctx, row, values) {
      if (values.name !== undefined && values.name !== row.name) keepFlagRole(row);
    },
    beforeDelete: (_ctx, row) => keepFlagRole(row),
  },
  unique: {
    custom_sys_roles_name_unique: { pointer: '/data/attributes/name', detail: 'A system role with this name exists' },
  },
});
