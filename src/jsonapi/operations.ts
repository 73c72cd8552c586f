import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { badRequest, conflict, notFound, unprocessable } from './errors.js';
import { compileFilter } from './filter.js';
import { anyOf, joinOf, linkable, loadIncludes, visible } from './loader.js';
import { selectionFor, valueKind, type Model, type Registry } from './model.js';
import { orderBy, type DocumentQuery, type ListQuery } from './query.js';
import type { Ctx, Row, ToManySpec, ToOneSpec, WriteInput } from './resource.js';
import { toResource, type Linkage } from './serialize.js';
import { hasNul, integerId, storableDate } from './values.js';

const COUNT = '__count';

/** A path id as the id column stores it, or a 404 for anything that cannot be an id. */
export function parseId(model: Model, raw: string): number | string {
  if (model.fields.get('id')!.kind !== 'integer') return raw;
  const id = integerId(raw);
  if (id === undefined) throw notFound();
  return id;
}

/** The condition naming one record by a path id: its numeric id, or its alternate key when it has one. */
function keyCondition(model: Model, raw: string): SQL {
  const alternate = model.spec.alternateKey;
  if (alternate && !/^\d+$/.test(raw)) {
    // No key holds a NUL (PostgreSQL text cannot), and comparing one would be a database error.
    if (hasNul(raw)) throw notFound();
    return eq(model.columns[alternate]!, raw);
  }
  return eq(model.id, parseId(model, raw));
}

/**
 * The live row a path names, or 404; also 404 for rows that do not exist for the caller (the policy's
 * `existsFor`). Other visibility rules are the policy's `read`. A write `lock`s the row until its
 * transaction ends, so checks made on it (a session's state move) still hold when it is written.
 */
export async function findRow(ctx: Ctx, model: Model, rawId: string, lock = false): Promise<Row> {
  const { policy } = model.spec;
  const query = ctx.db
    .select(selectionFor(ctx, model))
    .from(model.table)
    .where(and(keyCondition(model, rawId), model.live, policy.existsFor?.(ctx, model.columns)))
    .limit(1);
  const [row] = await (lock ? query.for('update', { of: model.table }) : query);
  if (!row) throw notFound();
  return row as Row;
}

/** Serialises rows plus whatever `include` asks for, loaded in batches. */
export async function renderRows(ctx: Ctx, registry: Registry, model: Model, rows: Row[], query: DocumentQuery) {
  const { included, linkageOf } = await loadIncludes(ctx, registry, model, rows, query.include, query.fields);
  const data = rows.map((row) => toResource(model, row, query.fields, linkageOf(row)));
  return { data, included: query.include.size > 0 ? included : undefined };
}

function pageLink(path: string, raw: Record<string, unknown>, number: number, size: number): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(raw)) {
    if (v !== undefined && k !== 'page[number]' && k !== 'page[size]') params.set(k, String(v));
  }
  params.set('page[size]', String(size));
  params.set('page[number]', String(number));
  return `${path}?${params.toString()}`;
}

/**
 * One page of `model` rows matching the filter and `base`, with the total count computed by a scalar
 * subquery of the same statement, so a list costs one SQL statement plus one per include.
 */
export async function pageRows(ctx: Ctx, registry: Registry, model: Model, query: ListQuery, base?: SQL) {
  const filter = query.filter === undefined ? undefined : compileFilter(registry, ctx, model, query.filter);
  const where = visible(ctx, model, base, filter) ?? sql`true`;
  const countOf = sql<number>`(select count(*) from ${model.table} where ${where})`.mapWith(Number);
  const rows = (await ctx.db
    .select({ ...selectionFor(ctx, model), [COUNT]: countOf })
    .from(model.table)
    .where(where)
    .orderBy(...orderBy(ctx, registry, model, query.sort))
    .limit(query.limit)
    .offset((query.number - 1) * query.limit)) as (Row & { [COUNT]: number })[];
  // Past the last page there is no row to carry the count: only then does it take a second statement.
  const count =
    rows[0]?.[COUNT] ??
    (query.number === 1
      ? 0
      : (await ctx.db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(model.table).where(where))[0]!.n);
  // Refused after reading at most the limit, the most a page may read anyway.
  if (query.size === 0 && count > query.limit)
    throw badRequest(
      `page[size]=0 returns every matching record, at most ${query.limit} (LIST_ALL_MAX), and ${count} match: ` +
        `narrow the filter, or read them in pages of at most ${query.limit}`,
      'page[size]',
    );
  return { rows, count };
}

/** A list document: one page of rows (see pageRows), what `include` asks for, links and meta.count. */
export async function listRows(
  ctx: Ctx,
  registry: Registry,
  model: Model,
  query: ListQuery,
  path: string,
  raw: Record<string, unknown>,
  base?: SQL,
) {
  const { rows, count } = await pageRows(ctx, registry, model, query, base);
  const last = Math.max(1, Math.ceil(count / query.limit));
  const { data, included } = await renderRows(ctx, registry, model, rows, query);
  return {
    data,
    ...(included ? { included } : {}),
    links: {
      self: pageLink(path, raw, query.number, query.size),
      first: pageLink(path, raw, 1, query.size),
      last: pageLink(path, raw, last, query.size),
      prev: query.number > 1 ? pageLink(path, raw, Math.min(query.number - 1, last), query.size) : null,
      next: query.number < last ? pageLink(path, raw, query.number + 1, query.size) : null,
    },
    meta: { count },
  };
}

/** A written date-time as the Date a timestamp column takes; dates PostgreSQL cannot store are refused. */
function dateValue(wire: string, value: string): Date {
  const date = storableDate(value);
  if (!date) throw unprocessable('Not a date-time between the years 1 and 9999', `/data/attributes/${wire}`);
  return date;
}

/** Column values for written attributes, through each attribute's `write` when it has one. */
export async function attributeValues(model: Model, attributes: Record<string, unknown>) {
  const values: Record<string, unknown> = {};
  for (const [wire, value] of Object.entries(attributes)) {
    if (hasNul(value)) throw unprocessable('Text must not contain NUL characters', `/data/attributes/${wire}`);
    const attr = model.spec.attributes[wire]!;
    if (attr.write) Object.assign(values, await attr.write(value));
    else if (typeof value === 'string' && valueKind(attr.schema) === 'date-time') values[attr.column!] = dateValue(wire, value);
    else values[attr.column!] = value;
  }
  return values;
}

/** Identifiers of a request's relationship member, as the write input records them. */
export function linkageIds(data: Linkage): string | null | string[] {
  if (data === null) return null;
  return Array.isArray(data) ? data.map((d) => d.id) : data.id;
}

/** The value a record has, or is about to have, for its to-one relationship `name`. */
function ownerValue(registry: Registry, model: Model, name: string, relationships: WriteInput['relationships'], current?: Row) {
  const rel = model.relationships.get(name)!;
  const named = relationships[name];
  if (typeof named === 'string') return parseId(registry.get(rel.type), named);
  return named === null ? null : current?.[(rel as ToOneSpec).column!];
}

/**
 * Refuses links to records that do not exist or that the caller may not name (404, as JSON:API
 * asks), and links to records of another owner where the relationship is `within` one (422).
 */
export async function checkRelated(
  ctx: Ctx,
  registry: Registry,
  model: Model,
  relationships: WriteInput['relationships'],
  current?: Row,
) {
  for (const [name, ids] of Object.entries(relationships)) {
    if (ids === null) continue;
    const rel = model.relationships.get(name)!;
    const target = registry.get(rel.type);
    const wanted = Array.isArray(ids) ? ids : [ids];
    if (wanted.length === 0) continue;
    // "1" and "01" name the same record: compare parsed ids.
    const parsed = [
      ...new Set(
        wanted.map((id) => {
          try {
            return parseId(target, id);
          } catch {
            throw notFound(`Related ${target.type} "${id}" not found`);
          }
        }),
      ),
    ];
    const ownerColumn = rel.within ? (target.relationships.get(rel.within) as ToOneSpec).column! : undefined;
    const found = (await ctx.db
      .select({ id: target.id, ...(ownerColumn ? { owner: target.columns[ownerColumn]! } : {}) })
      .from(target.table)
      .where(linkable(ctx, target, anyOf(target.id, parsed)))) as { id: unknown; owner?: unknown }[];
    if (found.length !== parsed.length) {
      const have = new Set(found.map((f) => String(f.id)));
      throw notFound(`Related ${target.type} "${wanted.find((id) => !have.has(String(parseId(target, id))))}" not found`);
    }
    if (rel.within) {
      const owner = ownerValue(registry, model, rel.within, relationships, current);
      const stranger = found.find((f) => f.owner !== owner);
      if (stranger)
        throw unprocessable(
          `${target.type} ${stranger.id} belongs to another ${rel.within} than this ${model.type}`,
          `/data/relationships/${name}`,
        );
    }
  }
}

/** Refuses changing an immutable to-one relationship; naming its current value again is harmless. */
export function guardImmutable(registry: Registry, model: Model, row: Row, relationships: WriteInput['relationships']) {
  for (const name of Object.keys(relationships)) {
    const rel = model.relationships.get(name)!;
    if (rel.kind !== 'toOne' || !rel.immutable) continue;
    if (ownerValue(registry, model, name, relationships) !== row[rel.column!])
      throw unprocessable(`The ${name} of a ${model.type} cannot be changed`, `/data/relationships/${name}`);
  }
}

/** Puts the to-one foreign keys named in `relationships` into the column values. */
export function foreignKeyValues(registry: Registry, model: Model, relationships: WriteInput['relationships'], values: Record<string, unknown>) {
  for (const [name, ids] of Object.entries(relationships)) {
    const rel = model.relationships.get(name)!;
    if (rel.kind === 'toOne') values[rel.column!] = ids === null ? null : parseId(registry.get(rel.type), ids as string);
  }
}

/** Replaces the join rows of every to-many relationship named in `relationships`. */
export async function replaceToMany(ctx: Ctx, registry: Registry, model: Model, id: unknown, relationships: WriteInput['relationships']) {
  for (const [name, ids] of Object.entries(relationships)) {
    if (Array.isArray(ids)) await changeLinks(ctx, registry, model, name, id, ids, 'replace');
  }
}

/** Adds (`add`), removes (`remove`) or replaces (`replace`) the join rows of a to-many relationship. */
export async function changeLinks(
  ctx: Ctx,
  registry: Registry,
  model: Model,
  name: string,
  id: unknown,
  ids: string[],
  mode: 'add' | 'remove' | 'replace',
) {
  const rel = model.relationships.get(name)!;
  if ((rel as ToManySpec).foreignKey) return changeForeignKeys(registry, ctx, rel as ToManySpec, id, ids, mode);
  const through = (rel as ToManySpec).through!;
  const { from, to } = through;
  // Only writable relationships are written: they join through a table, never a view.
  const table = through.table as PgTable;
  const { cols, fixed } = joinOf(through);
  const target = registry.get(rel.type);
  const targetIds = [...new Set(ids.map((i) => parseId(target, i)))];
  if (mode === 'replace') await ctx.db.delete(table).where(and(eq(cols[from]!, id), fixed));
  if (mode === 'remove') {
    if (targetIds.length > 0) await ctx.db.delete(table).where(and(eq(cols[from]!, id), fixed, inArray(cols[to]!, targetIds)));
    return;
  }
  if (targetIds.length === 0) return;
  await ctx.db
    .insert(table)
    .values(targetIds.map((t) => ({ ...through.where, [from]: id, [to]: t })))
    .onConflictDoNothing();
}

/** changeLinks for a settable one-to-many: the targets' foreign key is the link. */
async function changeForeignKeys(registry: Registry, ctx: Ctx, rel: ToManySpec, id: unknown, ids: string[], mode: 'add' | 'remove' | 'replace') {
  const target = registry.get(rel.type);
  const fk = target.columns[rel.foreignKey!]!;
  const targetIds = [...new Set(ids.map((i) => parseId(target, i)))];
  const table = target.table;
  if (mode === 'remove') {
    if (targetIds.length > 0) await ctx.db.update(table).set({ [rel.foreignKey!]: null }).where(and(eq(fk, id), inArray(target.id, targetIds)));
    return;
  }
  if (mode === 'replace') {
    const others = targetIds.length > 0 ? sql`not (${anyOf(target.id, targetIds)})` : undefined;
    await ctx.db.update(table).set({ [rel.foreignKey!]: null }).where(and(eq(fk, id), others));
  }
  if (targetIds.length > 0) await ctx.db.update(table).set({ [rel.foreignKey!]: id }).where(anyOf(target.id, targetIds));
}

/**
 * A `.catch` handler turning constraint violations into client errors: a declared unique index
 * answers 409 pointing at its member; deleting a record others still reference answers 409; a
 * check constraint the declarations did not catch first answers 422.
 */
export const rethrowDbError =
  (model: Model, deleting = false) =>
  (err: unknown): never => {
    const pg = ((err as { cause?: unknown }).cause ?? err) as { code?: string; constraint_name?: string };
    if (deleting && pg.code === '23503') throw conflict(`The ${model.type} is still referenced by other records`);
    if (pg.code === '23505') {
      const known = pg.constraint_name ? model.spec.unique?.[pg.constraint_name] : undefined;
      throw known ? conflict(known.detail, known.pointer) : conflict('A record with these values already exists');
    }
    if (pg.code === '23514') throw unprocessable('The values break a rule of the record');
    if (pg.code === '23503') throw unprocessable('A related record does not exist or is still referenced');
    throw err;
  };
