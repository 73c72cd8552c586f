/**
 * What discount codes and access codes share: their quantity and validity attributes, the rules on them (the
 * reference's schema validators, judged on the code as the write leaves it), the check that a code may be used now,
 * and the condition of the lookup by code.
 */
import { Type } from '@sinclair/typebox';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import {
  DateTime,
  INT4_MAX,
  JsonApiError,
  Nullable,
  unprocessable,
  type AttributeSpec,
  type Columns,
  type Ctx,
  type Hooks,
  type Row,
  type ToOneSpec,
  type WriteInput,
} from '../jsonapi/index.js';
import { flexibleNumber } from './attributes.js';

/** Codes travel in URLs (`/e/{event}?code=...`, `/v1/events/{id}/discount-codes/{code}`): the front end's alphabet. */
export const codeAttribute = (what: string): AttributeSpec => ({
  column: 'code',
  schema: Type.String({
    minLength: 1,
    maxLength: 100,
    pattern: '^[A-Za-z0-9_-]+$',
    description: `the ${what} buyers enter: letters, digits, _ and -; unique in its event whatever the case`,
  }),
  required: true,
});

const count = (column: string, description: string) =>
  flexibleNumber({ column, schema: Nullable(Type.Integer({ minimum: 0, maximum: INT4_MAX, description })) });

/** The members of a code that limit its use. */
export const limitAttributes = (what: string): Record<string, AttributeSpec> => ({
  'tickets-number': count('ticketsNumber', `how many tickets the ${what} may be used for in all; null: no limit`),
  'min-quantity': count('minQuantity', `fewest tickets of an order the ${what} applies to (default 1)`),
  'max-quantity': count(
    'maxQuantity',
    `most tickets of an order the ${what} applies to (default 100); not below min-quantity, not above tickets-number`,
  ),
  'valid-from': {
    column: 'validFrom',
    schema: Nullable(DateTime({ description: `when the ${what} starts to work; null: from its creation` })),
  },
  'valid-till': {
    column: 'validTill',
    schema: Nullable(
      DateTime({ description: `when the ${what} stops working, not before valid-from; null: when the event ends` }),
    ),
  },
});

/** Who made a code: its creator, set by the server (a create may name the caller). */
export const marketerOf: ToOneSpec = {
  kind: 'toOne',
  type: 'user',
  column: 'marketerId',
  readOnly: true,
  callerOnCreate: true,
  description: 'who made the code: the caller who creates it (a create may name the caller)',
};

type CheckCode = (ctx: Ctx, values: Record<string, unknown>, input: WriteInput, current?: Row) => Promise<void>;

/** A code's write hooks: the creator is its marketer, and every create and update is judged by `check`. */
export const codeHooks = (check: CheckCode): Pick<Hooks, 'beforeCreate' | 'beforeUpdate'> => ({
  async beforeCreate(ctx, values, input) {
    values.marketerId = ctx.caller!.id;
    await check(ctx, values, input);
  },
  beforeUpdate: (ctx, row, values, input) => check(ctx, values, input, row),
});

/** A column's value as the write would leave the record: the written one, else the stored one. */
export const after = (values: Record<string, unknown>, current: Row | undefined, key: string) =>
  key in values ? values[key] : current?.[key];

const num = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'string' && v !== '' ? Number(v) : undefined);

/** The reference's quantity and date rules (schema/discount_codes.py, access_codes.py), on the code as written. */
export function checkLimits(values: Record<string, unknown>, current?: Row) {
  const get = (key: string) => after(values, current, key);
  const min = num(get('minQuantity'));
  const max = num(get('maxQuantity'));
  const total = num(get('ticketsNumber'));
  if (min !== undefined && max !== undefined && min > max)
    throw unprocessable('min-quantity cannot be more than max-quantity', '/data/attributes/min-quantity');
  if (total !== undefined && max !== undefined && total < max)
    throw unprocessable('tickets-number should not be below max-quantity', '/data/attributes/tickets-number');
  const from = get('validFrom');
  const till = get('validTill');
  if (from instanceof Date && till instanceof Date && till < from)
    throw unprocessable('valid-till should be after valid-from', '/data/attributes/valid-till');
}

/** What a checkout needs to know of a code's record to judge it. */
export interface CodeState {
  isActive: boolean;
  validFrom: Date | null;
  validTill: Date | null;
  /** The event's end: when a code without valid-till stops working. */
  eventEndsAt: Date | null;
  ticketsNumber: number | null;
  used: number;
}

/** Where a refusal points: the lookup's path parameter, or a member of the request the code came in. */
export type CodeSource = { parameter: string } | { pointer: string };

/**
 * Refuses a code that cannot be used now, as the reference's validate_discount_code does (422): inactive, not yet
 * or no longer valid (valid-till, else the event's end), or used for as many tickets as tickets-number allows.
 */
export function requireUsable(what: string, code: CodeState, source: CodeSource, now = new Date()) {
  const refuse = (detail: string) => new JsonApiError(422, 'Validation error', detail, source);
  if (!code.isActive) throw refuse(`The ${what} is not active`);
  if (code.validFrom && now < code.validFrom) throw refuse(`The ${what} is not valid yet`);
  const till = code.validTill ?? code.eventEndsAt;
  if (till && now > till) throw refuse(`The ${what} has expired`);
  if (code.ticketsNumber !== null && code.used >= code.ticketsNumber) throw refuse(`The ${what} is used up`);
}

/**
 * Codes a request presented by their text on a lookup route (`/v1/events/{id}/discount-codes/{code}`), by kind: what
 * lets a buyer read that one code (and an access code's hidden tickets) in that request.
 */
const presented = new WeakMap<FastifyRequest, Map<string, { eventId: number; code: string }>>();

export function present(request: FastifyRequest, kind: string, eventId: number, code: string) {
  const known = presented.get(request) ?? new Map();
  known.set(kind, { eventId, code });
  presented.set(request, known);
}

/** The condition naming the code of `kind` the request presented (on columns `t` of its table), if any. */
export function presentedCode(ctx: Pick<Ctx, 'request'>, kind: string, t: Columns): SQL | undefined {
  const named = ctx.request && presented.get(ctx.request)?.get(kind);
  if (!named) return undefined;
  return and(eq(t.eventId!, named.eventId), sql`lower(${t.code!}) = lower(${named.code})`);
}

/** The text of the code of `kind` a request presented. */
export const presentedText = (request: FastifyRequest, kind: string) => presented.get(request)?.get(kind);
