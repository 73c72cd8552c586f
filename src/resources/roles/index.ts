import { Type } from '@sinclair/typebox';
import { roles } from '../../../db/schema/index.js';
import { defineResource, forbidden } from '../../jsonapi/index.js';

const fixed = () => {
  throw forbidden('The event roles are a fixed list');
};

/** The event roles: a fixed list, read by everyone (the front end's role pickers), written by no one. */
export const roleResource = defineResource({
  type: 'role',
  path: 'roles',
  name: 'Role',
  tag: 'Roles',
  description:
    'The event roles, a fixed list whose ids are their names: owner, organizer, coorganizer, track_organizer, registrar, ' +
    'moderator. Readable by everyone; nobody creates, changes or deletes one (403).',
  table: roles,
  attributes: {
    name: {
      column: 'id',
      schema: Type.String({ maxLength: 32, description: 'the role, also its id' }),
      readOnly: true,
    },
    'title-name': {
      column: 'titleName',
      schema: Type.String({ maxLength: 64, description: 'the name people read' }),
      readOnly: true,
    },
  },
  relationships: {
    'role-invites': {
      kind: 'toMany',
      type: 'role-invite',
      foreignKey: 'role',
      readOnly: true,
      description: 'invitations to this role in the events the caller organizes or coorganizes',
    },
  },
  policy: {
    scope: () => undefined,
    list() {},
    read() {},
    create: fixed,
    update: fixed,
    delete: fixed,
  },
});
