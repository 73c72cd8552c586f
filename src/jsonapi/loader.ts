import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { selectionFor, type Model, type Registry } from './model.js';
import type { Fieldsets, IncludeTree } from './query.js';
import type { Ctx, RelationshipSpec, Row, ToManySpec } from './resource.js';
import { toResource, type Identifier, type Linkage, type ResourceObject } from './serialize.js';

const PARENT = '__parent';
const key = (type: string, id: unknown) => `${type}:${id}`;

/**
 * `column = ANY($1)` with the ids as one array parameter: the SQL text stays the same whatever the
 * number of ids, so one prepared statement serves every batch.
 */
export const anyOf = (column: PgColumn, ids: unknown[]): SQL => sql`${column} = any(${sql.param(ids)})`;

/** Rows of `model` the caller may see: live (not soft-deleted) and within the policy's scope. */
export function visible(ctx: Ctx, model: Model, ...extra: (SQL | undefined)[]): SQL | undefined {
  return and(model.live, model.spec.policy.scope(ctx, model.columns), ...extra);
}

/** Rows of `model` a write may link to and a relationship endpoint may name (see Policy.linkable). */
export function linkable(ctx: Ctx, model: Model, ...extra: (SQL | undefined)[]): SQL | undefined {
  const { policy } = model.spec;
  return and(model.live, (policy.linkable ?? policy.scope)(ctx, model.columns), ...extra);
}

/** The join table's columns by key, and the condition its fixed values (a role) add. */
export function joinOf(through: NonNullable<ToManySpec['through']>) {
  const cols = through.table as unknown as Record<string, PgColumn>;
  const fixed = Object.entries(through.where ?? {}).map(([k, v]) => eq(cols[k]!, v));
  return { cols, fixed: and(...fixed) };
}

/** The rows of `target` related to the record `id` through the to-many `rel` (a related list's base). */
export function relatedCondition(ctx: Ctx, target: Model, rel: ToManySpec, id: unknown): SQL {
  if (rel.foreignKey) return and(eq(target.columns[rel.foreignKey]!, id), rel.where?.(ctx, target.columns))!;
  const through = rel.through!;
  const { cols, fixed } = joinOf(through);
  return inArray(target.id, ctx.db.select({ id: cols[through.to]! }).from(through.table).where(and(eq(cols[through.from]!, id), fixed)));
}

/**
 * One query for the related rows of all `parents` through `rel`; each result row carries its parent
 * id. Rows are those the caller may see, or, for `linkage` only, those it may name.
 */
export async function fetchRelated(ctx: Ctx, registry: Registry, rel: RelationshipSpec, parents: Row[], linkage = false) {
  const target = registry.get(rel.type);
  const db = ctx.db;
  const allowed = (condition: SQL) => (linkage ? linkable : visible)(ctx, target, condition, rel.where?.(ctx, target.columns));
  if (rel.kind === 'toOne' && rel.column) {
    const ids = [...new Set(parents.map((p) => p[rel.column!]).filter((v) => v !== null && v !== undefined))];
    if (ids.length === 0) return [];
    const rows = await db.select(selectionFor(ctx, target)).from(target.table).where(allowed(anyOf(target.id, ids)));
    return rows as Row[];
  }
  const parentIds = [...new Set(parents.map((p) => p.id))];
  if (parentIds.length === 0) return [];
  if (rel.foreignKey) {
    const fk = target.columns[rel.foreignKey]!;
    const rows = await db
      .select({ ...selectionFor(ctx, target), [PARENT]: fk })
      .from(target.table)
      .where(allowed(anyOf(fk, parentIds)))
      .orderBy(target.id);
    return rows as unknown as Row[];
  }
  const through = (rel as ToManySpec).through!;
  const { cols, fixed } = joinOf(through);
  const rows = await db
    .select({ ...selectionFor(ctx, target), [PARENT]: cols[through.from]! })
    .from(target.table)
    .innerJoin(through.table, and(eq(cols[through.to]!, target.id), fixed))
    .where(allowed(anyOf(cols[through.from]!, parentIds)))
    .orderBy(target.id);
  return rows as unknown as Row[];
}

/** Linkage of each parent (by id) through `rel`, given the rows fetchRelated returned. */
export function linkageByParent(rel: RelationshipSpec, parents: Row[], related: Row[]): Map<unknown, Linkage> {
  const result = new Map<unknown, Linkage>();
  if (rel.kind === 'toOne' && rel.column) {
    const found = new Set(related.map((r) => String(r.id)));
    for (const p of parents) {
      const fk = p[rel.column];
      result.set(p.id, fk !== null && fk !== undefined && found.has(String(fk)) ? { type: rel.type, id: String(fk) } : null);
    }
    return result;
  }
  if (rel.kind === 'toOne') {
    for (const p of parents) result.set(p.id, null);
    for (const r of related) if (result.get(r[PARENT]) === null) result.set(r[PARENT], { type: rel.type, id: String(r.id) });
    return result;
  }
  for (const p of parents) result.set(p.id, []);
  for (const r of related) (result.get(r[PARENT]) as Identifier[] | undefined)?.push({ type: rel.type, id: String(r.id) });
  return result;
}

/**
 * Loads everything `include` asks for, one query per relationship path whatever the number of
 * rows, and returns the compound document's `included` plus the linkage of each primary row.
 */
export async function loadIncludes(
  ctx: Ctx,
  registry: Registry,
  model: Model,
  rows: Row[],
  tree: IncludeTree,
  fields: Fieldsets,
) {
  const linkage = new Map<string, Record<string, Linkage>>();
  const included = new Map<string, { model: Model; row: Row }>();
  const primary = new Set(rows.map((r) => key(model.type, r.id)));

  const walk = async (current: Model, parents: Row[], node: IncludeTree): Promise<void> => {
    for (const [name, child] of node) {
      const rel = current.relationships.get(name)!;
      const target = registry.get(rel.type);
      const related = await fetchRelated(ctx, registry, rel, parents);
      // A to-one relationship in a column carries its linkage in the row already (see selectionFor).
      if (rel.kind === 'toMany' || !rel.column) {
        for (const [parentId, link] of linkageByParent(rel, parents, related)) {
          const k = key(current.type, parentId);
          linkage.set(k, { ...linkage.get(k), [name]: link });
        }
      }
      const unique = new Map<string, Row>();
      for (const r of related) {
        const k = key(target.type, r.id);
        unique.set(k, r);
        if (!primary.has(k) && !included.has(k)) included.set(k, { model: target, row: r });
      }
      if (child.size > 0) await walk(target, [...unique.values()], child);
    }
  };
  if (tree.size > 0) await walk(model, rows, tree);

  const resources: ResourceObject[] = [...included.values()].map(({ model: m, row }) =>
    toResource(m, row, fields, linkage.get(key(m.type, row.id))),
  );
  return { included: resources, linkageOf: (row: Row) => linkage.get(key(model.type, row.id)) };
}
