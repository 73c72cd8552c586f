import { isDeepStrictEqual } from 'node:util';
import { unprocessable } from './errors.js';
import { fetchRelated, linkageByParent } from './loader.js';
import { valueKind, type Model, type Registry } from './model.js';
import { linkageIds, parseId } from './operations.js';
import { isWritable } from './resource-schemas.js';
import type { AttributeSpec, Ctx, RelationshipSpec, Row, WriteInput } from './resource.js';
import { toResource, type Linkage, type ResourceObject } from './serialize.js';

/** A sent attribute equals the one read; date-times compare as instants, whatever their spelling. */
function sameValue(attr: AttributeSpec, sent: unknown, read: unknown): boolean {
  if (sent === null || read === null) return sent === read;
  if (valueKind(attr.schema) === 'date-time') return typeof sent === 'string' && new Date(sent).getTime() === new Date(read as string).getTime();
  return isDeepStrictEqual(sent, read);
}

/** The set of records some linkage names, as comparable keys ("1" and "01" name the same record). */
function idSet(target: Model, ids: string | null | string[]): string[] {
  const key = (id: string) => {
    try {
      return String(parseId(target, id));
    } catch {
      return `not an id: ${id}`;
    }
  };
  return [...new Set((ids === null ? [] : [ids].flat()).map(key))].sort();
}

interface ReadRecord {
  row: Row;
  /** The record as the API serialises it for this caller (private attributes only where it may see them). */
  read: ResourceObject;
}

/** The linkage of `name` the caller reads: in the document (to-one foreign keys), else as an include loads it. */
async function readLinkage(ctx: Ctx, registry: Registry, name: string, rel: RelationshipSpec, { row, read }: ReadRecord): Promise<Linkage> {
  const shown = read.relationships[name]!.data;
  if (shown !== undefined) return shown;
  return linkageByParent(rel, [row], await fetchRelated(ctx, registry, rel, [row])).get(row.id)!;
}

/**
 * Takes the read-only members out of a write's input. Clients send back what they read (ember-data
 * sends every attribute it loaded on every save, and null for unset ones): a read-only member is
 * ignored when it equals what the caller reads of `row` (the document a GET answers, dates as
 * instants), or, on create (no `row`), when it is null, an empty list or the attribute's default; any other
 * value is refused.
 */
export async function dropReadOnly(ctx: Ctx, registry: Registry, model: Model, input: WriteInput, row?: Row) {
  const record: ReadRecord | undefined = row && { row, read: JSON.parse(JSON.stringify(toResource(model, row, new Map()))) };
  const refuse = (name: string, pointer: string, empty: string) =>
    unprocessable(
      record
        ? `${name} is read-only: leave it out or send it back unchanged`
        : `${name} is read-only (the server sets it): leave it out or send ${empty}`,
      pointer,
    );
  for (const [wire, value] of Object.entries(input.attributes)) {
    const attr = model.spec.attributes[wire]!;
    if (!attr.readOnly) continue;
    // On create, the value the new record will hold (its declared default) counts as unchanged too.
    const unchanged = sameValue(attr, value, record?.read.attributes[wire] ?? null) || (!record && attr.schema.default !== undefined && sameValue(attr, value, attr.schema.default));
    if (!unchanged) throw refuse(wire, `/data/attributes/${wire}`, 'null');
    delete input.attributes[wire];
  }
  for (const [name, ids] of Object.entries(input.relationships)) {
    const rel = model.relationships.get(name)!;
    if (isWritable(rel)) continue;
    const linkage = record ? await readLinkage(ctx, registry, name, rel, record) : rel.kind === 'toOne' ? null : [];
    const target = registry.get(rel.type);
    const sent = idSet(target, ids);
    const namesCaller = !record && rel.kind === 'toOne' && !!rel.callerOnCreate && !!ctx.caller && isDeepStrictEqual(sent, [String(ctx.caller.id)]);
    if (!isDeepStrictEqual(sent, idSet(target, linkageIds(linkage))) && !namesCaller)
      throw refuse(name, `/data/relationships/${name}`, rel.kind === 'toOne' ? 'null' : 'an empty list');
    delete input.relationships[name];
  }
}
