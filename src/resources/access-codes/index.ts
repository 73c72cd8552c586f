import { accessCodes, accessCodesTickets } from '../../../db/schema/index.js';
import { defineResource, type Ctx, type Row, type WriteInput } from '../../jsonapi/index.js';
import { createdAt, deletedAt, eventOf, flexibleBoolean, optionalUrl } from '../attributes.js';
import { codeLookup } from '../code-lookup.js';
import { after, checkLimits, codeAttribute, codeHooks, limitAttributes, marketerOf } from '../code-rules.js';
import { ACCESS, accessCodePolicy, checkAccessTickets } from './policy.js';
import { ACCESS_CODE_TABLES } from './usage.js';

/** The rules of a code as the write leaves it (`current`: the stored code of an update). */
async function checkCode(ctx: Ctx, values: Record<string, unknown>, input: WriteInput, current?: Row) {
  checkLimits(values, current);
  const sent = input.relationships.tickets;
  if (Array.isArray(sent)) await checkAccessTickets(ctx, after(values, current, 'eventId'), sent);
}

export const accessCodeResource = defineResource({
  type: 'access-code',
  path: 'access-codes',
  name: 'AccessCode',
  tag: 'Access Codes',
  description:
    "An access code: shows some of an event's hidden tickets to buyers who know it. Written and listed by the " +
    "event's organizers, coorganizers and administrators; its marketer (its creator) sees it too. Buyers read a " +
    'code by its text (GET /v1/events/{id}/access-codes/{code}) while it can be used, and with it the hidden tickets ' +
    'it shows; anyone else finds nothing (404). Rules (422): min-quantity not above max-quantity, which is not above ' +
    'tickets-number; valid-till not before valid-from; its tickets are hidden tickets of its event. A code is unique ' +
    'in its event among live codes whatever its case (409).',
  table: accessCodes,
  softDelete: 'deletedAt',
  attributes: {
    code: codeAttribute('access code'),
    'access-url': optionalUrl('accessUrl', 'a link to the event page that applies the code'),
    'is-active': flexibleBoolean('isActive', 'whether the code can be used (default true)'),
    ...limitAttributes('access code'),
    'created-at': createdAt,
    'deleted-at': deletedAt,
  },
  relationships: {
    event: eventOf,
    tickets: {
      kind: 'toMany',
      type: 'ticket',
      through: { table: accessCodesTickets, from: 'accessCodeId', to: 'ticketId' },
      description: 'the hidden tickets of its event the code shows',
    },
    marketer: marketerOf,
  },
  policy: accessCodePolicy,
  hooks: codeHooks(checkCode),
  lookups: [
    codeLookup({
      kind: ACCESS,
      tables: ACCESS_CODE_TABLES,
      path: 'access-codes',
      name: 'AccessCode',
      defaultInclude: 'tickets',
      note: 'The hidden tickets the code shows are included unless the request names another include, and are readable in that request.',
    }),
  ],
  unique: {
    access_codes_event_code_key: { pointer: '/data/attributes/code', detail: 'The event already has this access code' },
  },
});
