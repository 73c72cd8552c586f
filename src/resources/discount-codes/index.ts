import { Type } from '@sinclair/typebox';
import { eq } from 'drizzle-orm';
import {
  DISCOUNT_TYPES,
  DISCOUNT_USES,
  discountCodes,
  discountCodesTickets,
  events,
} from '../../../db/schema/index.js';
import { defineResource, type Ctx, type Row, type WriteInput } from '../../jsonapi/index.js';
import { choice, createdAt, deletedAt, flexibleBoolean, flexibleNumber, optionalUrl } from '../attributes.js';
import { after, checkLimits, codeAttribute, codeHooks, limitAttributes, marketerOf } from '../code-rules.js';
import { codeLookup } from '../code-lookup.js';
import { DISCOUNT, discountCodePolicy } from './policy.js';
import { checkEvents, checkTickets, checkValue, storedTickets } from './rules.js';
import { DISCOUNT_CODE_TABLES } from './usage.js';

/** Every rule of a code as the write leaves it (`current`: the stored code of an update). */
async function checkCode(ctx: Ctx, values: Record<string, unknown>, input: WriteInput, current?: Row) {
  checkLimits(values, current);
  checkValue(values, current);
  const usedFor = after(values, current, 'usedFor') ?? 'ticket';
  if (usedFor === 'event') return checkEvents(ctx, input, current?.id as number | undefined);
  const sent = input.relationships.tickets;
  const ids = Array.isArray(sent) ? sent : current ? await storedTickets(ctx, current.id as number) : [];
  const code = {
    eventId: after(values, current, 'eventId'),
    type: after(values, current, 'type'),
    value: after(values, current, 'value'),
  };
  await checkTickets(ctx, code, ids);
}

export const discountCodeResource = defineResource({
  type: 'discount-code',
  path: 'discount-codes',
  name: 'DiscountCode',
  tag: 'Discount Codes',
  description:
    'A discount code: used-for ticket, a code of an event that lowers the price of some of its (paid) tickets, ' +
    "written and listed by the event's organizers, coorganizers and administrators; used-for event, an " +
    "administrator's code that lowers the platform's fee of the events it names. Buyers read a ticket code by its " +
    'text (GET /v1/events/{id}/discount-codes/{code}) while it can be used; its marketer (its creator) sees it too; ' +
    'anyone else finds nothing (404). The list of all codes is for administrators. Rules (422): a percent between 0 ' +
    'and 100; min-quantity not above max-quantity, which is not above tickets-number; valid-till not before ' +
    "valid-from; a ticket code's tickets are paid tickets of its event, each priced at least the amount off. A code " +
    'is unique in its event among live codes whatever its case (409).',
  table: discountCodes,
  softDelete: 'deletedAt',
  attributes: {
    code: codeAttribute('discount code'),
    'discount-url': optionalUrl('discountUrl', 'a link to the event page that applies the code'),
    value: flexibleNumber({
      column: 'value',
      schema: Type.Number({
        minimum: 0,
        maximum: 9_999_999_999.99,
        description: 'the amount off each ticket, or the percent off (0 to 100)',
      }),
      required: true,
    }),
    type: { column: 'type', schema: choice(DISCOUNT_TYPES, 'amount or percent'), required: true },
    'is-active': flexibleBoolean('isActive', 'whether the code can be used (default true)'),
    ...limitAttributes('discount code'),
    'used-for': {
      column: 'usedFor',
      schema: choice(
        DISCOUNT_USES,
        'ticket (default): an event code for its tickets; event: an administrator code for events; never changes',
      ),
    },
    'created-at': createdAt,
    'deleted-at': deletedAt,
  },
  relationships: {
    event: {
      kind: 'toOne',
      type: 'event',
      column: 'eventId',
      immutable: true,
      description: 'the event of a ticket code (required for one; an event code has none); never changes',
    },
    tickets: {
      kind: 'toMany',
      type: 'ticket',
      through: { table: discountCodesTickets, from: 'discountCodeId', to: 'ticketId' },
      description: 'the tickets a ticket code lowers: paid tickets of its event',
    },
    marketer: marketerOf,
    events: {
      kind: 'toMany',
      type: 'event',
      foreignKey: 'discountCodeId',
      settable: true,
      description: 'the events an event code lowers the fee of (each holds one code at most); administrators only',
    },
  },
  policy: discountCodePolicy,
  hooks: {
    ...codeHooks(checkCode),
    // A deleted event code lowers no event's fee any more.
    async beforeDelete(ctx, row) {
      await ctx.db
        .update(events)
        .set({ discountCodeId: null })
        .where(eq(events.discountCodeId, row.id as number));
    },
  },
  lookups: [
    codeLookup({
      kind: DISCOUNT,
      tables: DISCOUNT_CODE_TABLES,
      path: 'discount-codes',
      name: 'DiscountCode',
      note: 'Event codes (used-for event) are never found here.',
    }),
  ],
  unique: {
    discount_codes_event_code_key: {
      pointer: '/data/attributes/code',
      detail: 'The event already has this discount code',
    },
  },
});
