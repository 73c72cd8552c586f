/**
 * The one write path of the engine: every create, update, delete and relationship change runs in a
 * transaction that checks (the policy, read-only members, related records), validates, writes, and
 * answers through the read compiler (read.ts), so a write's document is the one a read returns.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../plugins/db.js';
import { conflict, notFound, unprocessable } from '../../plugins/http-errors.js';
import { valueKind, type Model, type Registry } from './model.js';
import { lockRow, readLinkage, readRecord, sendNow, type RecordResult } from './read.js';
import { dropReadOnly, readOnlyLinkage } from './read-only.js';
import { anyOf, joinOf, linkable, parseId } from './records.js';
import type { Ctx, Row, ToManySpec, ToOneSpec, WriteInput } from './resource.js';
import { hasNul, linkageIds, storableDate, type Linkage } from './values.js';
import { recordActivity } from './activity.js';

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
    // The resource's hooks store it (see AttributeSpec.hooked).
    if (attr.hooked) continue;
    if (attr.write) Object.assign(values, await attr.write(value, wire));
    else if (typeof value === 'string' && valueKind(attr.schema) === 'date-time')
      values[attr.column!] = dateValue(wire, value);
    else values[attr.column!] = value;
  }
  return values;
}

/** The value a record has, or is about to have, for its to-one relationship `name`. */
function ownerValue(
  registry: Registry,
  model: Model,
  name: string,
  relationships: WriteInput['relationships'],
  current?: Row,
) {
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
      throw notFound(
        `Related ${target.type} "${wanted.find((id) => !have.has(String(parseId(target, id))))}" not found`,
      );
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
export function foreignKeyValues(
  registry: Registry,
  model: Model,
  relationships: WriteInput['relationships'],
  values: Record<string, unknown>,
) {
  for (const [name, ids] of Object.entries(relationships)) {
    const rel = model.relationships.get(name)!;
    if (rel.kind === 'toOne')
      values[rel.column!] = ids === null ? null : parseId(registry.get(rel.type), ids as string);
  }
}

/** Replaces the join rows of every to-many relationship named in `relationships`. */
export async function replaceToMany(
  ctx: Ctx,
  registry: Registry,
  model: Model,
  id: unknown,
  relationships: WriteInput['relationships'],
) {
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
    if (targetIds.length > 0)
      await ctx.db.delete(table).where(and(eq(cols[from]!, id), fixed, inArray(cols[to]!, targetIds)));
    return;
  }
  if (targetIds.length === 0) return;
  await ctx.db
    .insert(table)
    .values(targetIds.map((t) => ({ ...through.where, [from]: id, [to]: t })))
    .onConflictDoNothing();
}

/** changeLinks for a settable one-to-many: the targets' foreign key is the link. */
async function changeForeignKeys(
  registry: Registry,
  ctx: Ctx,
  rel: ToManySpec,
  id: unknown,
  ids: string[],
  mode: 'add' | 'remove' | 'replace',
) {
  const target = registry.get(rel.type);
  const fk = target.columns[rel.foreignKey!]!;
  const targetIds = [...new Set(ids.map((i) => parseId(target, i)))];
  const table = target.table;
  if (mode === 'remove') {
    if (targetIds.length > 0)
      await ctx.db
        .update(table)
        .set({ [rel.foreignKey!]: null })
        .where(and(eq(fk, id), inArray(target.id, targetIds)));
    return;
  }
  if (mode === 'replace') {
    const others = targetIds.length > 0 ? sql`not (${anyOf(target.id, targetIds)})` : undefined;
    await ctx.db
      .update(table)
      .set({ [rel.foreignKey!]: null })
      .where(and(eq(fk, id), others));
  }
  if (targetIds.length > 0)
    await ctx.db
      .update(table)
      .set({ [rel.foreignKey!]: id })
      .where(anyOf(target.id, targetIds));
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

/** What the write path needs of the routes: the pool, the registry and the request's context. */
export interface Writer {
  registry: Registry;
  db: Db;
  ctx(request: FastifyRequest, db?: Db): Ctx;
}

/**
 * What a transaction's body answers when its last statement is still in flight (sent with `sendNow`
 * or a read's `execute`, which send at the call): the commit goes out right behind it, in the same
 * round trip, and the row locks are held one round trip less. Should the statement fail, the
 * transaction has failed with it and the commit rolls back; its error is the write's.
 */
class LastStatement<T> {
  constructor(readonly answer: Promise<T>) {}
}

const ignore = () => {};

/**
 * Runs `body` in one transaction of the request; constraint violations become client errors. The
 * read cache's fence (see ReadCache.transactionFence) rides on the transaction, sent just before
 * the commit, so the answer waits for no round trip of its own.
 */
async function transaction<T>(
  w: Writer,
  model: Model,
  request: FastifyRequest,
  body: (ctx: Ctx, tx: Db) => Promise<T | LastStatement<T>>,
  deleting = false,
): Promise<T> {
  const fence = request.server.readCache?.transactionFence(request);
  let committed = false;
  try {
    const { answer, fenced } = await w.db.transaction(async (tx) => {
      const out = await body(w.ctx(request, tx), tx as unknown as Db);
      const answer = out instanceof LastStatement ? out.answer : Promise.resolve(out);
      const fenced = fence && sendNow(tx as unknown as Db, sql`select pg_notify(${fence.channel}, ${fence.token})`);
      // Awaited once the transaction ends (an object, not a promise, so the commit does not wait).
      answer.catch(ignore);
      fenced?.catch(ignore);
      return { answer, fenced };
    });
    const value = await answer;
    await fenced;
    committed = true;
    return value;
  } catch (err) {
    return rethrowDbError(model, deleting)(err);
  } finally {
    fence?.ended(committed);
  }
}

/** Whether a write replaces to-many links (statements after its own). */
const replacesToMany = (input: WriteInput) => Object.values(input.relationships).some(Array.isArray);

const NOTHING_INCLUDED = { include: new Map(), fields: new Map() };

/**
 * Inserts a record: the policy's create check, read-only members, related records, hooks, join rows;
 * answers with the new record as a read returns it (the insert and its document are one statement).
 * `prepare` turns the request into the write input inside the transaction (it may read and refuse).
 */
export function createRecord(
  w: Writer,
  model: Model,
  request: FastifyRequest,
  prepare: (ctx: Ctx) => WriteInput | Promise<WriteInput>,
): Promise<RecordResult> {
  const { registry } = w;
  const { spec } = model;
  return transaction(w, model, request, async (ctx, tx) => {
    const input = await prepare(ctx);
    await dropReadOnly(ctx, registry, model, input);
    await spec.policy.create(ctx, input);
    await checkRelated(ctx, registry, model, input.relationships);
    const values = await attributeValues(model, input.attributes);
    foreignKeyValues(registry, model, input.relationships, values);
    await spec.hooks?.beforeCreate?.(ctx, values, input);
    const answer = readRecord(ctx, registry, model, NOTHING_INCLUDED, {
      write: tx.insert(model.table).values(values).getSQL(),
    }).then((r) => r!);
    if (!replacesToMany(input) && !spec.hooks?.afterCreate && !spec.activity?.created) return new LastStatement(answer);
    const created = await answer;
    await replaceToMany(ctx, registry, model, created.row.id, input.relationships);
    await spec.hooks?.afterCreate?.(ctx, created.row, input);
    // The activity log's lines go out at the call, the commit right behind them.
    const logged = spec.activity?.created
      ? recordActivity(tx, ctx.caller, await spec.activity.created(ctx, { ...values, id: created.row.id }, input))
      : undefined;
    // What the hooks stored is read by the record's computed members: its answer is read after them.
    if (!Object.keys(input.attributes).some((wire) => spec.attributes[wire]!.hooked))
      return logged ? new LastStatement(logged.then(() => created)) : created;
    await logged;
    return new LastStatement(
      readRecord(ctx, registry, model, NOTHING_INCLUDED, { id: created.row.id }).then((r) => r!),
    );
  });
}

/**
 * The record a write names (404 as a read), locked until the transaction ends. Where the input
 * carries read-only members, with the document the caller reads of it, to compare them with.
 */
async function lockedRecord(ctx: Ctx, registry: Registry, model: Model, rawId: string, input: WriteInput) {
  const row = await lockRow(ctx, registry, model, rawId);
  const include = readOnlyLinkage(model, input);
  if (!include) return { row };
  // Read after the lock is held: a statement that waited for the lock would compare with related
  // records as they were before the wait.
  return (await readRecord(ctx, registry, model, { include, fields: new Map() }, { id: row.id }))!;
}

/** Changes the attributes and relationships a document names; answers with the record as a read returns it. */
export function updateRecord(
  w: Writer,
  model: Model,
  request: FastifyRequest,
  rawId: string,
  documentId: string | undefined,
  input: WriteInput,
): Promise<RecordResult> {
  const { registry } = w;
  const { spec } = model;
  return transaction(w, model, request, async (ctx, tx) => {
    const current = await lockedRecord(ctx, registry, model, rawId, input);
    const { row } = current;
    if (documentId !== String(row.id) && documentId !== rawId)
      throw conflict('The id in the document does not match the URL', '/data/id');
    await dropReadOnly(ctx, registry, model, input, current);
    await spec.policy.update({ ...ctx, unwritten: true }, row, input);
    guardImmutable(registry, model, row, input.relationships);
    await checkRelated(ctx, registry, model, input.relationships, row);
    const values = await attributeValues(model, input.attributes);
    foreignKeyValues(registry, model, input.relationships, values);
    await spec.hooks?.beforeUpdate?.(ctx, row, values, input);
    if (spec.activity?.updated)
      await recordActivity(tx, ctx.caller, await spec.activity.updated(ctx, row, values, input));
    const write =
      Object.keys(values).length > 0
        ? tx.update(model.table).set(values).where(eq(model.id, row.id)).getSQL()
        : undefined;
    // The answer's row: its id is all the route reads.
    const answer = readRecord(
      ctx,
      registry,
      model,
      NOTHING_INCLUDED,
      write ? { write, idOnly: true } : { id: row.id },
    ).then((r) => r!);
    if (!replacesToMany(input)) return new LastStatement(answer);
    const updated = await answer;
    await replaceToMany(ctx, registry, model, row.id, input.relationships);
    return updated;
  });
}

/** Deletes (or soft-deletes) the record a path names, after the policy and the hook. */
export function deleteRecord(w: Writer, model: Model, request: FastifyRequest, rawId: string): Promise<void> {
  const { spec } = model;
  return transaction(
    w,
    model,
    request,
    async (ctx, tx) => {
      const row = await lockRow(ctx, w.registry, model, rawId);
      await spec.policy.delete({ ...ctx, unwritten: true }, row);
      await spec.hooks?.beforeDelete?.(ctx, row);
      if (spec.activity?.deleted) await recordActivity(tx, ctx.caller, await spec.activity.deleted(ctx, row));
      const write = spec.softDelete
        ? tx
            .update(model.table)
            .set({ [spec.softDelete]: new Date() })
            .where(eq(model.id, row.id))
        : tx.delete(model.table).where(eq(model.id, row.id));
      return new LastStatement(sendNow(tx, write.getSQL()).then(ignore));
    },
    true,
  );
}

/** Sets a to-one relationship, or adds, removes or replaces to-many links; answers with the linkage after the change. */
export function changeRelationship(
  w: Writer,
  model: Model,
  request: FastifyRequest,
  rawId: string,
  name: string,
  data: Linkage,
  mode: 'replace' | 'add' | 'remove',
): Promise<{ id: unknown; linkage: string }> {
  const { registry } = w;
  const rel = model.relationships.get(name)!;
  return transaction(w, model, request, async (ctx, tx) => {
    const row = await lockRow(ctx, registry, model, rawId);
    const relationships = { [name]: linkageIds(data) };
    await model.spec.policy.update(ctx, row, { attributes: {}, relationships, change: mode });
    guardImmutable(registry, model, row, relationships);
    if (mode !== 'remove') await checkRelated(ctx, registry, model, relationships, row);
    if (rel.kind === 'toOne') {
      const values: Record<string, unknown> = {};
      foreignKeyValues(registry, model, relationships, values);
      await tx.update(model.table).set(values).where(eq(model.id, row.id));
    } else {
      await changeLinks(ctx, registry, model, name, row.id, relationships[name] as string[], mode);
    }
    return new LastStatement(
      readLinkage(ctx, registry, model, rel, { id: row.id }).then(({ data }) => ({ id: row.id, linkage: data })),
    );
  });
}
