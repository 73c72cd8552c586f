/** What the statistics of events, tickets and sales share: figures of orders counted by status, in SQL. */
import { Type, type TSchema } from '@sinclair/typebox';
import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { ORDER_STATUSES } from '../../../db/schema/index.js';
import { requirePanel, seesPanel } from '../../auth/panels.js';
import { isStaff, requireStaff } from '../../auth/caller.js';
import { constant, forbidden, Text, type AttributeSpec, type Columns, type Policy } from '../../jsonapi/index.js';

/**
 * The members of a figure by order status: `total`, then one per status. `draft` is a status of the
 * reference's that orders here never take (they start `initializing`): it stays for its clients, and counts 0.
 */
export const FIGURE_KEYS = ['total', 'draft', ...ORDER_STATUSES] as const;

/** The schema of a figure by order status; `more`: further members (name -> description). */
export function figureSchema(what: string, more: Record<string, string> = {}): TSchema {
  const member = (key: string) =>
    Type.Number({ minimum: 0, description: key === 'total' ? `${what}, all statuses` : `${what}, status ${key}` });
  return Type.Object(
    {
      ...Object.fromEntries(FIGURE_KEYS.map((key) => [key, member(key)])),
      ...Object.fromEntries(Object.entries(more).map(([key, description]) => [key, Type.Number({ description })])),
    },
    { additionalProperties: false, description: `${what} by order status` },
  );
}

/**
 * The `json_build_object` arguments of a figure: `aggregate(condition)` over the rows of the query it stands in,
 * for all of them (`total`) and for those whose order `status` is each status.
 */
export function figureMembers(status: PgColumn, aggregate: (only: SQL) => SQL): SQL {
  return sql.join(
    FIGURE_KEYS.map(
      (key) => sql`${constant(key)}, ${aggregate(key === 'total' ? sql`true` : sql`${status} = ${constant(key)}`)}`,
    ),
    sql`, `,
  );
}

/** Aggregates of figures: how many rows, and a sum (0 over no rows). */
export const countOf = (only: SQL) => sql`count(*) filter (where ${only})`;
export const sumOf = (value: SQL | PgColumn) => (only: SQL) => sql`coalesce(sum(${value}) filter (where ${only}), 0)`;

const computed = () => {
  throw forbidden('Computed from other records: nobody writes these');
};

/**
 * The policy of computed records: `scope` decides who sees which; `check` (read and list) whom the routes of
 * their own admit. Nobody writes them (no write route exists).
 */
export function computedPolicy(
  scope: Policy['scope'],
  check: (ctx: Parameters<Policy['list']>[0]) => void = () => {},
): Policy {
  return { scope, list: check, read: check, create: computed, update: computed, delete: computed };
}

/**
 * Administrators read the reports (the `rows` of its table a report lists), and with `panel` those the admin panel is
 * open to (src/auth/panels.ts); everyone else is refused (401, 403).
 */
export const reportPolicy = (rows?: (t: Columns) => SQL, panel?: string) =>
  panel
    ? computedPolicy((ctx, t) => (seesPanel(ctx.caller, panel) ? rows?.(t) : sql`false`), requirePanel(panel))
    : computedPolicy((ctx, t) => (isStaff(ctx.caller) ? rows?.(t) : sql`false`), requireStaff);

/** The event's identifier, beside the figures of a record whose id is the event's. */
export const eventIdentifier: AttributeSpec = {
  column: 'identifier',
  schema: Text(16, { description: "the event's identifier" }),
  readOnly: true,
};
