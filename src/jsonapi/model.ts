import type { TSchema } from '@sinclair/typebox';
import { getTableColumns, isNull, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { RelationshipSpec, ResourceSpec } from './resource.js';

export type ValueKind = 'integer' | 'number' | 'boolean' | 'string' | 'date-time' | 'other';

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
  if (type === 'string') return main.format === 'date-time' ? 'date-time' : 'string';
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
  const fields = new Map<string, Field>([['id', { key: 'id', column: id, kind: id.dataType === 'number' ? 'integer' : 'string' }]]);
  for (const [wire, attr] of Object.entries(spec.attributes)) {
    if (attr.writeOnly || !attr.column) continue;
    const col = column(spec, columns, attr.column);
    selection[attr.column] = col;
    readable.push([wire, attr.column]);
    const kind = valueKind(attr.schema);
    if (kind !== 'other') fields.set(wire, { key: attr.column, column: col, kind });
  }
  const relationships = new Map(Object.entries(spec.relationships ?? {}));
  for (const rel of relationships.values()) {
    if (rel.kind === 'toOne') selection[rel.column] = column(spec, columns, rel.column);
  }
  const live = spec.softDelete ? isNull(column(spec, columns, spec.softDelete)) : undefined;
  return { spec, type: spec.type, table: spec.table, columns, id, selection, readable, fields, relationships, live };
}

/** All models of the app, by type; relationships are resolved through it. */
export class Registry {
  readonly models = new Map<string, Model>();

  constructor(specs: ResourceSpec[]) {
    for (const spec of specs) this.models.set(spec.type, buildModel(spec));
    for (const model of this.models.values()) {
      for (const [name, rel] of model.relationships) {
        const target = this.models.get(rel.type);
        if (!target) throw new Error(`resource ${model.type}: relationship ${name} targets unknown type ${rel.type}`);
        if (rel.kind === 'toMany' && rel.foreignKey) column(target.spec, target.columns, rel.foreignKey);
      }
    }
  }

  get(type: string): Model {
    const model = this.models.get(type);
    if (!model) throw new Error(`unknown resource type ${type}`);
    return model;
  }
}
