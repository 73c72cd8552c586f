import { Type, type TObject, type TSchema } from '@sinclair/typebox';
import { asc, desc, type SQL } from 'drizzle-orm';
import { badRequest } from './errors.js';
import type { Model, Registry } from './model.js';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;
const MAX_SORT_KEYS = 5;
const MAX_INCLUDE_PATHS = 10;
const MAX_INCLUDE_DEPTH = 3;

/** Relationship name -> what to include below it. */
export type IncludeTree = Map<string, IncludeTree>;
/** Resource type -> the attribute and relationship names to return. */
export type Fieldsets = Map<string, Set<string>>;

export interface DocumentQuery {
  include: IncludeTree;
  fields: Fieldsets;
}

export interface ListQuery extends DocumentQuery {
  size: number;
  number: number;
  orderBy: SQL[];
  /** The raw filter parameter, compiled against the request's context by the caller. */
  filter?: string;
}

export type RawQuery = Record<string, string | number | undefined>;

/** The querystring of a single-document route: include and sparse fieldsets. */
export function documentQuerySchema(registry: Registry): TObject {
  const props: Record<string, TSchema> = {
    include: Type.Optional(
      Type.String({ maxLength: 500, description: 'comma-separated relationship paths, dotted for nesting' }),
    ),
  };
  for (const type of registry.models.keys()) {
    props[`fields[${type}]`] = Type.Optional(
      Type.String({ maxLength: 1000, description: `comma-separated ${type} fields to return` }),
    );
  }
  return Type.Object(props, { additionalProperties: false });
}

/** The querystring of a list route: pagination, sort, filter, include, sparse fieldsets. */
export function listQuerySchema(registry: Registry): TObject {
  return Type.Object(
    {
      'page[size]': Type.Optional(
        Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, description: `records per page (default ${DEFAULT_PAGE_SIZE})` }),
      ),
      'page[number]': Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000_000, description: '1-based page number' })),
      sort: Type.Optional(
        Type.String({ maxLength: 500, description: 'comma-separated attribute names; a leading "-" sorts descending' }),
      ),
      filter: Type.Optional(
        Type.String({
          maxLength: 10_000,
          description:
            'JSON array of {"name","op","val"} conditions (AND), nestable with {"and"|"or":[...]} and {"not":{...}}; ' +
            'ops: eq ne lt le gt ge like ilike in notin is_ isnot has any',
        }),
      ),
      ...documentQuerySchema(registry).properties,
    },
    { additionalProperties: false },
  );
}

function parseInclude(registry: Registry, model: Model, raw: string | undefined): IncludeTree {
  const tree: IncludeTree = new Map();
  if (raw === undefined) return tree;
  const paths = raw.split(',');
  if (paths.length > MAX_INCLUDE_PATHS) throw badRequest(`At most ${MAX_INCLUDE_PATHS} include paths`, 'include');
  for (const path of paths) {
    const names = path.split('.');
    if (names.length > MAX_INCLUDE_DEPTH) throw badRequest(`Include paths are at most ${MAX_INCLUDE_DEPTH} deep`, 'include');
    let node = tree;
    let current = model;
    for (const name of names) {
      const rel = current.relationships.get(name);
      if (!rel) throw badRequest(`${current.type} has no relationship "${name}" (in "${path}")`, 'include');
      if (!node.has(name)) node.set(name, new Map());
      node = node.get(name)!;
      current = registry.get(rel.type);
    }
  }
  return tree;
}

function parseFields(registry: Registry, query: RawQuery): Fieldsets {
  const fields: Fieldsets = new Map();
  for (const [key, value] of Object.entries(query)) {
    const type = /^fields\[(.+)\]$/.exec(key)?.[1];
    if (!type || value === undefined) continue;
    const model = registry.get(type);
    const names = new Set(String(value).split(',').filter((n) => n !== ''));
    for (const name of names) {
      if (!model.readable.some(([wire]) => wire === name) && !model.relationships.has(name))
        throw badRequest(`${type} has no field "${name}"`, key);
    }
    fields.set(type, names);
  }
  return fields;
}

function parseSort(model: Model, raw: string | undefined): SQL[] {
  const keys = raw === undefined ? [] : raw.split(',');
  if (keys.length > MAX_SORT_KEYS) throw badRequest(`At most ${MAX_SORT_KEYS} sort keys`, 'sort');
  const order = keys.map((key) => {
    const descending = key.startsWith('-');
    const name = descending ? key.slice(1) : key;
    const field = model.fields.get(name);
    if (!field) throw badRequest(`Unknown sort key "${name}" for ${model.type}`, 'sort');
    return descending ? desc(field.column) : asc(field.column);
  });
  // A unique tiebreaker keeps pages stable when sort keys repeat values.
  const last = keys.at(-1);
  order.push(last?.startsWith('-') ? desc(model.id) : asc(model.id));
  return order;
}

export function parseDocumentQuery(registry: Registry, model: Model, query: RawQuery): DocumentQuery {
  return {
    include: parseInclude(registry, model, query.include as string | undefined),
    fields: parseFields(registry, query),
  };
}

export function parseListQuery(registry: Registry, model: Model, query: RawQuery): ListQuery {
  return {
    ...parseDocumentQuery(registry, model, query),
    size: (query['page[size]'] as number | undefined) ?? DEFAULT_PAGE_SIZE,
    number: (query['page[number]'] as number | undefined) ?? 1,
    orderBy: parseSort(model, query.sort as string | undefined),
    filter: query.filter as string | undefined,
  };
}
