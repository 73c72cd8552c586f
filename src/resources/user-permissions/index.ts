import { userPermissions } from '../../../db/schema/index.js';
import { defineResource } from '../../jsonapi/index.js';
import { deletedAt, flexibleBoolean, optionalText, requiredText } from '../attributes.js';
import { staffWritten } from '../staff-written.js';

/**
 * What accounts without a verified address may do (the reference's user_permission.py): `create_event` and
 * `publish_event` decide event creation and publication (src/resources/events/user-permissions.ts).
 */
export const userPermissionResource = defineResource({
  type: 'user-permission',
  path: 'user-permissions',
  name: 'UserPermission',
  tag: 'User permissions',
  description:
    'What users who have not verified their address may do: with create_event unverified-user false, an unverified ' +
    'account creating an event gets 403; with publish_event false, publishing one (creating it published or ' +
    'moving it to published) gets 403. Verified accounts always may. Everyone reads them; administrators write them.',
  table: userPermissions,
  softDelete: 'deletedAt',
  attributes: {
    name: requiredText('name', 255, 'the action, unique (create_event, publish_event)'),
    description: optionalText('description', 10_000),
    'unverified-user': flexibleBoolean('unverifiedUser', 'whether unverified accounts may do it', false),
    'anonymous-user': flexibleBoolean('anonymousUser', 'whether callers without a login may do it', false),
    'deleted-at': deletedAt,
  },
  policy: staffWritten,
  unique: {
    user_permissions_live_name_idx: {
      pointer: '/data/attributes/name',
      detail: 'A user permission with this name exists',
    },
  },
});
