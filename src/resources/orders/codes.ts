/**
 * The codes a checkout names (`discount-code`, `access-code`: the id the front end sends, or the code's text), as
 * the order computation uses them: found and judged usable by the codes' own rules (code-usage.ts), a code the event
 * does not have being a 422 of the checkout's body like any other unusable one.
 */
import { accessCodeFor as accessCodeUse } from '../access-codes/usage.js';
import { discountCodeFor as discountCodeUse } from '../discount-codes/usage.js';
import { JsonApiError, unprocessable } from '../../jsonapi/index.js';
import type { AppliedDiscount } from './amounts.js';

/** An id (digits, as the front end sends `discountCode.id`) or a code's text. */
const naming = (name: string) => (/^[0-9]{1,10}$/.test(name) ? Number(name) : name);

/** Runs a lookup, turning "no such code" into the checkout's 422 at `pointer`. */
async function found<T>(what: string, name: string, pointer: string, lookup: () => Promise<T>): Promise<T> {
  try {
    return await lookup();
  } catch (err) {
    if (err instanceof JsonApiError && err.status === 404)
      throw unprocessable(`The event has no ${what} ${name}`, pointer);
    throw err;
  }
}

/** The event's usable discount code for some of `ticketIds`, with the units it may still lower. */
export async function discountCodeFor(
  db: Parameters<typeof discountCodeUse>[0],
  eventId: number,
  name: string,
  ticketIds: number[],
  lock: boolean,
): Promise<AppliedDiscount> {
  const pointer = '/discount-code';
  const use = await found('discount code', name, pointer, () =>
    discountCodeUse(db, eventId, naming(name), { lock, source: { pointer } }),
  );
  const applies = new Set(use.ticketIds.filter((id) => ticketIds.includes(id)));
  if (applies.size === 0)
    throw unprocessable(`The discount code ${use.code.code} applies to none of these tickets`, pointer);
  const { code } = use;
  return {
    id: code.id,
    code: code.code,
    type: code.type as AppliedDiscount['type'],
    value: code.value,
    ticketIds: applies,
    remaining: use.remaining,
    minQuantity: code.minQuantity ?? 1,
    maxQuantity: code.maxQuantity !== null && code.maxQuantity >= 0 ? code.maxQuantity : null,
    marketerId: code.marketerId,
  };
}

export interface AppliedAccess {
  id: number;
  code: string;
  ticketIds: ReadonlySet<number>;
  /** Tickets the code may still open (null: no limit). */
  remaining: number | null;
}

/** The event's usable access code, with the tickets it opens and how many more. */
export async function accessCodeFor(
  db: Parameters<typeof accessCodeUse>[0],
  eventId: number,
  name: string,
  lock: boolean,
): Promise<AppliedAccess> {
  const pointer = '/access-code';
  const use = await found('access code', name, pointer, () =>
    accessCodeUse(db, eventId, naming(name), { lock, source: { pointer } }),
  );
  return { id: use.code.id, code: use.code.code, ticketIds: new Set(use.ticketIds), remaining: use.remaining };
}
