import { Type } from '@sinclair/typebox';
import { panelPermissions, rolesPanels } from '../../../db/schema/index.js';
import { defineResource } from '../../jsonapi/index.js';
import { flexibleBoolean } from '../attributes.js';
import { staffOnly } from '../staff-written.js';

/**
 * A section of the admin console and whether the custom system roles linked to it open it (the reference's
 * panel_permissions.py): `sales` opens /v1/admin/sales/*, `admin` the admin statistics, `users` reading the users (src/auth/panels.ts).
 */
export const panelPermissionResource = defineResource({
  type: 'panel-permission',
  path: 'panel-permissions',
  name: 'PanelPermission',
  tag: 'Panel permissions',
  description:
    'A panel of the admin console (sales, admin, events, sessions, users, permissions, messages, reports, settings, ' +
    'content) and whether its custom system roles open it: the holders of a linked role use the panel while ' +
    'can-access holds (the sales panel: /v1/admin/sales/*; the admin panel: /v1/admin/statistics/*; the users panel: reading /v1/users and its records). Administrators ' +
    'only (401 without a login, 403 for anyone else), as the reference.',
  table: panelPermissions,
  attributes: {
    'panel-name': {
      column: 'panelName',
      schema: Type.String({ minLength: 1, maxLength: 64, description: 'the panel, unique' }),
      required: true,
    },
    'can-access': flexibleBoolean('canAccess', 'whether the linked roles open the panel', true),
  },
  relationships: {
    'custom-system-roles': {
      kind: 'toMany',
      type: 'custom-system-role',
      through: { table: rolesPanels, from: 'panelPermissionId', to: 'roleId' },
      description: 'the custom system roles that open the panel',
    },
  },
  policy: staffOnly,
  unique: {
    panel_permissions_panel_name_unique: {
      pointer: '/data/attributes/panel-name',
      detail: 'A panel with this name exists',
    },
  },
});
