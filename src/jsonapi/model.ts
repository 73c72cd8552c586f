import type { TSchema } from '@sinclair/typebox';
import { getTableColumns, isNull, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { AttributeSpec, RelationshipSpec, ResourceSpec } from './resource.js';

export type ValueKind = 'integer' | 'number' | 'boolean' | 'string' | 'uuid' | 'date-time' | 'other';

/** A readable attribute (or `id`) as the query language sees it. */
export interface Field {
  /** Column key in the table. */
  key: string;
  column: PgColumn;
  kind: ValueKind;
}

/** A resource declaration resolved against its table, computed once at start-up. */
export interface Model {
  spec: ResourceSpec;
  type: string;
  table: PgTable;
  columns: Record<string, PgColumn>;
  id: PgColumn;
  /** Columns every read selects: id, readable attributes, to-one foreign keys. Never write-only data. */
  selection: Record<string, PgColumn>;
  /** [wire name, row key] of every attribute a response may carry. */
  readable: [string, string][];
  /** Attributes usable in filter and sort, plus `id`. */
  fields: Map<string, Field>;
  /** Names `fields[type]` may list: `id`, every readable attribute and every relationship. */
  members: Set<string>;
  /** Wire names of attributes only some callers see (the policy's `seesPrivate`). */
  private: Set<string>;
  /**
   * The private attributes a filter may name: such a condition only ever holds for records whose
   * private members the caller sees (a speaker's own email), so no query probes the others; a sort by one orders
   * only those records.
   */
  privateFields: Map<string, Field>;
  /** Row key -> expression of each computed attribute (`select`). */
  computed: [string, NonNullable<AttributeSpec['select']>][];
  /** To-one relationships stored in a column of this table; their targets are resolved by the Registry. */
  links: { name: string; column: PgColumn; target?: Model }[];
  relationships: Map<string, RelationshipSpec>;
  /** `deleted_at IS NULL` for soft-deleting resources. */
  live?: SQL;
}

/** The kind of value a schema holds, looking through `T | null` (either spelling). */
export function valueKind(schema: TSchema): ValueKind {
  const branches: TSchema[] = schema.anyOf ?? [schema];
  const main = branches.find((s) => s.type !== 'null') ?? schema;
  const types: unknown[] = Array.isArray(main.type) ? main.type : [main.type];
  const type = types.find((t) => t !== 'null');
  if (type === 'integer' || type === 'number' || type === 'boolean') return type;
  if (type === 'string') return main.format === 'date-time' || main.format === 'uuid' ? main.format : 'string';
  return 'other';
}

function column(spec: ResourceSpec, columns: Record<string, PgColumn>, key: string): PgColumn {
  const col = columns[key];
  if (!col) throw new Error(`resource ${spec.type}: table has no column "${key}"`);
  return col;
}

export function buildModel(spec: ResourceSpec): Model {
  const columns = getTableColumns(spec.table) as Record<string, PgColumn>;
  const id = column(spec, columns, 'id');
  const selection: Record<string, PgColumn> = { id };
  const readable: [string, string][] = [];
  const fields = new Map<string, Field>([
    [
      'id',
      {
        key: 'id',
        column: id,
        kind: id.dataType === 'number' ? 'integer' : id.columnType === 'PgUUID' ? 'uuid' : 'string',
      },
    ],
  ]);
  const hidden = new Set<string>();
  const privateFields = new Map<string, Field>();
  const computed: Model['computed'] = [];
  for (const [wire, attr] of Object.entries(spec.attributes)) {
    if (attr.select) {
      if (!(attr.readOnly || attr.hooked) || attr.column)
        throw new Error(`resource ${spec.type}: computed ${wire} must be read-only or hooked, without a column`);
      computed.push([`${COMPUTED}${wire}`, attr.select]);
      readable.push([wire, `${COMPUTED}${wire}`]);
      continue;
    }
    if (attr.writeOnly || !attr.column) continue;
    const col = column(spec, columns, attr.column);
    selection[attr.column] = col;
    readable.push([wire, attr.column]);
    const kind = valueKind(attr.schema);
    if (attr.private) hidden.add(wire);
    if (kind !== 'other') (attr.private ? privateFields : fields).set(wire, { key: attr.column, column: col, kind });
  }
  if (hidden.size > 0 && !spec.policy.seesPrivate)
    throw new Error(`resource ${spec.type}: private attributes need seesPrivate`);
  const relationships = new Map(Object.entries(spec.relationships ?? {}));
  const links: Model['links'] = [];
  for (const [name, rel] of relationships) {
    if (rel.kind === 'toOne' && !!rel.column === !!rel.foreignKey)
      throw new Error(`resource ${spec.type}: to-one ${name} needs exactly one of column and foreignKey`);
    if (rel.kind !== 'toOne' || !rel.column) continue;
    selection[rel.column] = column(spec, columns, rel.column);
    links.push({ name, column: selection[rel.column]! });
  }
  if (spec.alternateKey) column(spec, columns, spec.alternateKey);
  const members = new Set(['id', ...readable.map(([wire]) => wire), ...relationships.keys()]);
  const live = spec.softDelete ? isNull(column(spec, columns, spec.softDelete)) : undefined;
  return {
    spec,
    type: spec.type,
    table: spec.table,
    columns,
    id,
    selection,
    readable,
    fields,
    members,
    private: hidden,
    privateFields,
    computed,
    links,
    relationships,
    live,
  };
}

/** Prefix of the row key of a computed attribute. */
export const COMPUTED = '__computed_';

/** All models of the app, by type; relationships are resolved through it. */
export class Registry {
  readonly models = new Map<string, Model>();

  constructor(specs: ResourceSpec[]) {
    for (const spec of specs) this.models.set(spec.type, buildModel(spec));
    for (const model of this.models.values()) {
      for (const [name, rel] of model.relationships) {
        const target = this.models.get(rel.type);
        if (!target) throw new Error(`resource ${model.type}: relationship ${name} targets unknown type ${rel.type}`);
        const link = model.links.find((l) => l.name === name);
        if (link) link.target = target;
        if (rel.foreignKey) column(target.spec, target.columns, rel.foreignKey);
        // `within` names a relationship both ends have; `inverse` one of the target's.
        const named = [
          ...(rel.within
            ? [
                [model, rel.within],
                [target, rel.within],
              ]
            : []),
          ...(rel.kind === 'toMany' && rel.inverse ? [[target, rel.inverse]] : []),
        ] as [Model, string][];
        for (const [end, other] of named) {
          if (!end.relationships.has(other))
            throw new Error(
              `resource ${model.type}: relationship ${name} names ${other}, which ${end.type} does not have`,
            );
        }
      }
    }
  }

  get(type: string): Model {
    const model = this.models.get(type);
    if (!model) throw new Error(`unknown resource type ${type}`);
    return model;
  }
}
