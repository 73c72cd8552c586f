import { Type } from '@sinclair/typebox';
import { services } from '../../../db/schema/index.js';
import { defineResource, forbidden } from '../../jsonapi/index.js';
import { requireStaff } from '../../auth/caller.js';

const fixed = () => {
  throw forbidden('The services are a fixed list');
};

/** The kinds of event records the event role permissions are about: a fixed list. */
export const serviceResource = defineResource({
  type: 'service',
  path: 'services',
  name: 'Service',
  tag: 'Event role permissions',
  description:
    'The kinds of event records whose writes the event role permissions decide: track, session, speaker, sponsor, ' +
    "microlocation. Everyone reads them; nobody creates or deletes one (403), and an administrator's update may only " +
    'send the name unchanged (the permissions are looked up by it).',
  table: services,
  attributes: {
    name: {
      column: 'name',
      schema: Type.String({ maxLength: 64, description: 'the service' }),
      readOnly: true,
    },
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
