import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Model, Registry } from './model.js';
import type { Fieldsets, IncludeTree } from './query.js';
import type { Ctx, RelationshipSpec, Row } from './resource.js';
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

/** One query for the related rows of all `parents` through `rel`; each result row carries its parent id. */
export async function fetchRelated(ctx: Ctx, registry: Registry, rel: RelationshipSpec, parents: Row[]) {
  const target = registry.get(rel.type);
  const db = ctx.db;
  if (rel.kind === 'toOne') {
    const ids = [...new Set(parents.map((p) => p[rel.column]).filter((v) => v !== null && v !== undefined))];
    if (ids.length === 0) return [];
    const rows = await db.select(target.selection).from(target.table).where(visible(ctx, target, anyOf(target.id, ids)));
    return rows as Row[];
  }
  const parentIds = [...new Set(parents.map((p) => p.id))];
  if (parentIds.length === 0) return [];
  if (rel.foreignKey) {
    const fk = target.columns[rel.foreignKey]!;
    const rows = await db
      .select({ ...target.selection, [PARENT]: fk })
      .from(target.table)
      .where(visible(ctx, target, anyOf(fk, parentIds)))
      .orderBy(target.id);
    return rows as unknown as Row[];
  }
  const { table, from, to } = rel.through!;
  const join = table as unknown as Record<string, Model['id']>;
  const rows = await db
    .select({ ...target.selection, [PARENT]: join[from]! })
    .from(target.table)
    .innerJoin(table, eq(join[to]!, target.id))
    .where(visible(ctx, target, anyOf(join[from]!, parentIds)))
    .orderBy(target.id);
  return rows as unknown as Row[];
}

/** Linkage of each parent (by id) through `rel`, given the rows fetchRelated returned. */
export function linkageByParent(rel: RelationshipSpec, parents: Row[], related: Row[]): Map<unknown, Linkage> {
  const result = new Map<unknown, Linkage>();
  if (rel.kind === 'toOne') {
    const found = new Set(related.map((r) => String(r.id)));
    for (const p of parents) {
      const fk = p[rel.column];
      result.set(p.id, fk !== null && fk !== undefined && found.has(String(fk)) ? { type: rel.type, id: String(fk) } : null);
    }
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
      for (const [parentId, link] of linkageByParent(rel, parents, related)) {
        const k = key(current.type, parentId);
        linkage.set(k, { ...linkage.get(k), [name]: link });
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
