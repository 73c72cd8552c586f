import { isDeepStrictEqual } from 'node:util';
import { unprocessable } from '../../plugins/http-errors.js';
import { valueKind, type Model, type Registry } from './model.js';
import type { IncludeTree } from './query.js';
import { parseId } from './records.js';
import { isWritable } from './resource-schemas.js';
import type { AttributeSpec, Ctx, Row, WriteInput } from './resource.js';
import { linkageIds, type Linkage } from './values.js';

/** A sent attribute equals the one read; date-times compare as instants, whatever their spelling. */
function sameValue(attr: AttributeSpec, sent: unknown, read: unknown): boolean {
  if (sent === null || read === null) return sent === read;
  if (valueKind(attr.schema) === 'date-time')
    return typeof sent === 'string' && new Date(sent).getTime() === new Date(read as string).getTime();
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

/** A record as a read returns it to this caller: its row and its resource object (JSON text). */
interface ReadRecord {
  row: Row;
  data?: string;
}

/** A resource object as the documents carry it. */
interface ResourceObject {
  attributes: Record<string, unknown>;
  relationships: Record<string, { data?: Linkage }>;
}

/** Whether a write's input sends read-only members; if so, the include tree that loads the linkage to compare them with. */
export function readOnlyLinkage(model: Model, input: WriteInput): IncludeTree | undefined {
  const attributes = Object.keys(input.attributes).some((wire) => model.spec.attributes[wire]!.readOnly);
  const relationships = Object.keys(input.relationships).filter((name) => !isWritable(model.relationships.get(name)!));
  if (!attributes && relationships.length === 0) return undefined;
  // A to-one relationship in a column carries its linkage whatever is included.
  const loaded = relationships.filter((name) => !model.links.some((l) => l.name === name));
  return new Map(loaded.map((name) => [name, new Map()]));
}

/**
 * Takes the read-only members out of a write's input. Clients send back what they read (ember-data
 * sends every attribute it loaded on every save, and null for unset ones): a read-only member is
 * ignored when it equals what the caller reads of `row` (the document a GET answers, dates as
 * instants), or, on create (no `row`), when it is null, an empty list or the attribute's default; any other
 * value is refused.
 */
export async function dropReadOnly(
  ctx: Ctx,
  registry: Registry,
  model: Model,
  input: WriteInput,
  current?: ReadRecord,
) {
  const record = current?.data === undefined ? undefined : (JSON.parse(current.data) as ResourceObject);
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
    const unchanged =
      sameValue(attr, value, record?.attributes[wire] ?? null) ||
      (!record && attr.schema.default !== undefined && sameValue(attr, value, attr.schema.default));
    if (!unchanged) throw refuse(wire, `/data/attributes/${wire}`, 'null');
    delete input.attributes[wire];
  }
  for (const [name, ids] of Object.entries(input.relationships)) {
    const rel = model.relationships.get(name)!;
    if (isWritable(rel)) continue;
    const linkage = record ? record.relationships[name]!.data! : rel.kind === 'toOne' ? null : [];
    const target = registry.get(rel.type);
    const sent = idSet(target, ids);
    if (rel.kind === 'toMany' && rel.emptyIgnored && sent.length === 0) {
      delete input.relationships[name];
      continue;
    }
    const namesCaller =
      !record &&
      rel.kind === 'toOne' &&
      !!rel.callerOnCreate &&
      !!ctx.caller &&
      isDeepStrictEqual(sent, [String(ctx.caller.id)]);
    if (!isDeepStrictEqual(sent, idSet(target, linkageIds(linkage))) && !namesCaller)
      throw refuse(name, `/data/relationships/${name}`, rel.kind === 'toOne' ? 'null' : 'an empty list');
    delete input.relationships[name];
  }
}
