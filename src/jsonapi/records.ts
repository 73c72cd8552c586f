/** Conditions that name records and decide which ones a caller may see or name: shared by reads and writes. */
import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { notFound } from '../../plugins/http-errors.js';
import type { Model } from './model.js';
import type { Columns, Ctx, Row, ToManySpec } from './resource.js';
import { hasNul, integerId, isUuid } from './values.js';

/**
 * `column = ANY($1)` with the ids as one array parameter: the SQL text stays the same whatever the
 * number of ids, so one prepared statement serves every batch.
 */
export const anyOf = (column: PgColumn, ids: unknown[]): SQL => sql`${column} = any(${sql.param(ids)})`;

/**
 * A fixed value of a rule (a state, a status) written into the statement's text instead of sent as a
 * parameter. A read's statement is prepared once and then runs the plan PostgreSQL keeps for it: that
 * plan is made without the parameters' values, so a parameter where a constant stands makes its
 * estimates blind (`state = $2` could match any share of the rows) and PostgreSQL goes on planning
 * every execution anew. Never for values from a request.
 */
export function constant(value: string): SQL {
  if (!/^[A-Za-z0-9_ .-]+$/.test(value)) throw new Error(`constant(): "${value}" is not a fixed word of a rule`);
  return sql.raw(`'${value}'`);
}

/**
 * The condition making rows of a soft-deleting `model` (its columns `t`, under any alias) live: none
 * when the read asks for deleted records too (`Ctx.trashed`, administrators only).
 */
export function liveIn(ctx: Ctx, model: Model, t: Columns = model.columns): SQL | undefined {
  const { softDelete } = model.spec;
  if (!softDelete || ctx.trashed) return undefined;
  return t === model.columns ? model.live : isNull(t[softDelete]!);
}

/** Rows of `model` the caller may see: live (not soft-deleted) and within the policy's scope. */
export function visible(ctx: Ctx, model: Model, ...extra: (SQL | undefined)[]): SQL | undefined {
  return and(liveIn(ctx, model), model.spec.policy.scope(ctx, model.columns), ...extra);
}

/** Rows of `model` a write may link to and a relationship endpoint may name (see Policy.linkable). */
export function linkable(ctx: Ctx, model: Model, ...extra: (SQL | undefined)[]): SQL | undefined {
  const { policy } = model.spec;
  return and(liveIn(ctx, model), (policy.linkable ?? policy.scope)(ctx, model.columns), ...extra);
}

/** The join table's columns by key, and the condition its fixed values (a role) add. */
export function joinOf(through: NonNullable<ToManySpec['through']>) {
  const cols = through.table as unknown as Record<string, PgColumn>;
  const fixed = Object.entries(through.where ?? {}).map(([k, v]) => eq(cols[k]!, v));
  return { cols, fixed: and(...fixed) };
}

/** A path id as the id column stores it, or a 404 for anything that cannot be an id. */
export function parseId(model: Model, raw: string): number | string {
  const { kind } = model.fields.get('id')!;
  if (kind === 'uuid' && !isUuid(raw)) throw notFound();
  if (kind !== 'integer') return raw;
  const id = integerId(raw);
  if (id === undefined) throw notFound();
  return id;
}

/** The condition naming one record by a path id: its numeric id, or its alternate key when it has one. */
export function keyCondition(model: Model, raw: string): SQL {
  const alternate = model.spec.alternateKey;
  if (alternate && !/^\d+$/.test(raw)) {
    // No key holds a NUL (PostgreSQL text cannot), and comparing one would be a database error.
    if (hasNul(raw)) throw notFound();
    return eq(model.columns[alternate]!, raw);
  }
  return eq(model.id, parseId(model, raw));
}

/**
 * The row a path names by `rawId`, as it exists for the caller: live, and within the policy's
 * `existsFor` (rows that do not exist for the caller answer 404 like rows that do not exist).
 */
export const namedRow = (ctx: Ctx, model: Model, rawId: string): SQL | undefined =>
  and(keyCondition(model, rawId), liveIn(ctx, model), model.spec.policy.existsFor?.(ctx, model.columns));

/**
 * The live row a path names, or 404; also 404 for rows that do not exist for the caller (the policy's
 * `existsFor`). Other visibility rules are the policy's `read`. A write locks it instead (`lockRow`).
 */
export async function findRow(ctx: Ctx, model: Model, rawId: string): Promise<Row> {
  const [row] = await ctx.db
    .select(model.selection)
    .from(model.table)
    .where(namedRow(ctx, model, rawId))
    .limit(1);
  if (!row) throw notFound();
  return row as Row;
}
