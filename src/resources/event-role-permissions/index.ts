import { eventRolePermissions } from '../../../db/schema/index.js';
import { defineResource, forbidden } from '../../jsonapi/index.js';
import { requireStaff } from '../../auth/caller.js';
import { flexibleBoolean } from '../attributes.js';

const fixed = () => {
  throw forbidden('Every event role has one permission per service: change it instead');
};

const right = (column: string, what: string) =>
  flexibleBoolean(column, `whether the role ${what} the service's records of its events`);

/**
 * What an event role may do with a service (the reference's events_role_permission.py): the writes of tracks,
 * sessions, speakers, sponsors and microlocations follow it (src/resources/events/service-rights.ts).
 */
export const eventRolePermissionResource = defineResource({
  type: 'event-role-permissions',
  // The reference's type is the plural (ember-data's model is event-role-permission: it sends and reads both).
  typeAliases: ['event-role-permission'],
  path: 'event-role-permissions',
  name: 'EventRolePermission',
  tag: 'Event role permissions',
  description:
    'What an event role (owner, organizer, coorganizer, track_organizer, moderator, registrar) may do with the records ' +
    'of a service in the events where it is held: creating, updating and deleting tracks, sessions, speakers, ' +
    'sponsors and microlocations follow these rights at once (a caller holding several roles may do what any ' +
    'grants; administrators everything). can-read is kept for the admin page: the records are read where their event ' +
    'is visible. Everyone reads them; administrators change them; one exists per role and service (creating or ' +
    'deleting one is 403).',
  table: eventRolePermissions,
  attributes: {
    'can-create': right('canCreate', 'creates'),
    'can-read': right('canRead', 'reads'),
    'can-update': right('canUpdate', 'updates'),
    'can-delete': right('canDelete', 'deletes'),
  },
  relationships: {
    role: { kind: 'toOne', type: 'role', column: 'roleId', readOnly: true, description: 'the event role' },
    service: { kind: 'toOne', type: 'service', column: 'serviceId', readOnly: true, description: 'the service' },
  },
  policy: {
    scope: () => undefined,
    list() {},
    read() {},
    create: fixed,
    update: (ctx) => requireStaff(ctx),
    delete: fixed,
  },
});
