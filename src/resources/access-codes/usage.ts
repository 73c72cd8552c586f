/** Access codes as an order uses them (see code-usage.ts). */
import { getTableColumns } from 'drizzle-orm';
import { attendees, accessCodes, accessCodesTickets, orders } from '../../../db/schema/index.js';
import type { Db } from '../../../plugins/db.js';
import { codeFor, type CodeTables, type CodeUse } from '../code-usage.js';
import type { CodeSource } from '../code-rules.js';

export type AccessCode = typeof accessCodes.$inferSelect;

export const ACCESS_CODE_TABLES: CodeTables = {
  what: 'access code',
  table: accessCodes,
  columns: getTableColumns(accessCodes),
  join: { table: accessCodesTickets, code: accessCodesTickets.accessCodeId, ticket: accessCodesTickets.ticketId },
  applied: attendees.isAccessCodeApplied,
  orderCode: orders.accessCodeId,
};

/**
 * The event's access code named by id (a number) or by its text (a string, whatever its case), usable now:
 * with the live (hidden) tickets it shows and the uses it has left. 404 when the event has no such live code; 422 (at
 * `source`, the path's `code` parameter by default) when it is inactive, not yet valid, expired or used up. Pass the
 * order's transaction as `db`, and `lock: true` to hold the code's row until it ends, so that concurrent checkouts
 * count its uses one after the other.
 */
export const accessCodeFor = (
  db: Db,
  eventId: number,
  named: string | number,
  options: { lock?: boolean; source?: CodeSource; now?: Date } = {},
): Promise<CodeUse<AccessCode>> => codeFor<AccessCode>(ACCESS_CODE_TABLES, db, eventId, named, options);
