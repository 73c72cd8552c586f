/** Discount codes as an order uses them (see code-usage.ts). */
import { getTableColumns, sql } from 'drizzle-orm';
import { attendees, discountCodes, discountCodesTickets, orders } from '../../../db/schema/index.js';
import type { Db } from '../../../plugins/db.js';
import { codeFor, type CodeTables, type CodeUse } from '../code-usage.js';
import type { CodeSource } from '../code-rules.js';

export type DiscountCode = typeof discountCodes.$inferSelect;

export const DISCOUNT_CODE_TABLES: CodeTables = {
  what: 'discount code',
  table: discountCodes,
  columns: getTableColumns(discountCodes),
  join: {
    table: discountCodesTickets,
    code: discountCodesTickets.discountCodeId,
    ticket: discountCodesTickets.ticketId,
  },
  applied: attendees.isDiscountApplied,
  orderCode: orders.discountCodeId,
  where: sql`${discountCodes.usedFor} = 'ticket'`,
};

/**
 * The event's ticket discount code named by id (a number) or by its text (a string, whatever its case), usable now:
 * with the live tickets it lowers and the uses it has left. 404 when the event has no such live code; 422 (at
 * `source`, the path's `code` parameter by default) when it is inactive, not yet valid, expired or used up. Pass the
 * order's transaction as `db`, and `lock: true` to hold the code's row until it ends, so that concurrent checkouts
 * count its uses one after the other.
 */
export const discountCodeFor = (
  db: Db,
  eventId: number,
  named: string | number,
  options: { lock?: boolean; source?: CodeSource; now?: Date } = {},
): Promise<CodeUse<DiscountCode>> => codeFor<DiscountCode>(DISCOUNT_CODE_TABLES, db, eventId, named, options);
