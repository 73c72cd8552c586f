/**
 * A code (discount or access) as a checkout uses it: found by id or by its text in an event, judged usable now, with
 * the live tickets it applies to and how many uses it has left. Reads through the handle it is given, so an order's
 * transaction can lock the code's row (`lock`) and count its uses again under the lock.
 */
import { and, asc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { attendees, events, orders, tickets } from '../../db/schema/index.js';
import type { Db } from '../../plugins/db.js';
import { notFound } from '../jsonapi/index.js';
import { requireUsable, type CodeSource } from './code-rules.js';

/** Order statuses whose holders use a code: every order that is not cancelled or expired. */
export const USING_STATUSES = ['initializing', 'pending', 'placed', 'completed'] as const;

export interface CodeTables {
  /** What the code is called in refusals ("discount code"). */
  what: string;
  table: PgTable;
  columns: Record<string, PgColumn>;
  /** The join table to tickets: its columns naming the code and the ticket. */
  join: { table: PgTable; code: PgColumn; ticket: PgColumn };
  /** The attendee flag that says the holder used such a code, and the order column naming it. */
  applied: PgColumn;
  orderCode: PgColumn;
  /** Only codes meeting this condition are found (discount codes: those for tickets). */
  where?: SQL;
}

export interface CodeUse<R> {
  code: R;
  /** The live tickets the code applies to, by id. */
  ticketIds: number[];
  /** Ticket holders who used it: live holders flagged as using it, of live orders in USING_STATUSES naming it. */
  used: number;
  /** How many more tickets it may be used for; null: no limit. */
  remaining: number | null;
}

/** The code named by id or text (case-insensitive) in the event, usable now, or a 404 / 422 at `source`. */
export async function codeFor<R extends Record<string, unknown>>(
  kind: CodeTables,
  db: Db,
  eventId: number,
  named: string | number,
  options: { lock?: boolean; source?: CodeSource; now?: Date } = {},
): Promise<CodeUse<R>> {
  const c = kind.columns;
  const id = typeof named === 'number' ? named : undefined;
  if (typeof named === 'string' && named.includes('\0')) throw notFound(`The ${kind.what} does not exist`);
  const naming = id !== undefined ? eq(c.id!, id) : sql`lower(${c.code!}) = lower(${named})`;
  const query = db
    .select({ code: c as Record<string, PgColumn>, eventEndsAt: events.endsAt })
    .from(kind.table)
    .innerJoin(events, eq(events.id, c.eventId!))
    .where(and(naming, eq(c.eventId!, eventId), isNull(c.deletedAt!), isNull(events.deletedAt), kind.where))
    .limit(1);
  const [found] = await (options.lock ? query.for('update', { of: kind.table }) : query);
  if (!found) throw notFound(`The ${kind.what} does not exist`);
  const code = found.code as R & { id: number; ticketsNumber: number | null };
  const [[usage], links] = await Promise.all([
    db
      .select({ used: sql<number>`count(*)::int` })
      .from(attendees)
      .innerJoin(orders, eq(orders.id, attendees.orderId))
      .where(
        and(
          eq(kind.orderCode, code.id),
          eq(kind.applied, true),
          isNull(attendees.deletedAt),
          isNull(orders.deletedAt),
          sql`${orders.status} in (${sql.raw(USING_STATUSES.map((s) => `'${s}'`).join(', '))})`,
        ),
      ),
    db
      .select({ id: tickets.id })
      .from(kind.join.table)
      .innerJoin(tickets, eq(tickets.id, kind.join.ticket))
      .where(and(eq(kind.join.code, code.id), isNull(tickets.deletedAt)))
      .orderBy(asc(tickets.id)),
  ]);
  const used = usage?.used ?? 0;
  requireUsable(
    kind.what,
    {
      isActive: code.isActive as boolean,
      validFrom: code.validFrom as Date | null,
      validTill: code.validTill as Date | null,
      eventEndsAt: found.eventEndsAt,
      ticketsNumber: code.ticketsNumber,
      used,
    },
    options.source ?? { parameter: 'code' },
    options.now,
  );
  return {
    code,
    ticketIds: links.map((l) => l.id),
    used,
    remaining: code.ticketsNumber === null ? null : code.ticketsNumber - used,
  };
}
