import { Type, type TObject, type TProperties, type TSchema } from '@sinclair/typebox';
import { and, asc, desc, sql, type SQL } from 'drizzle-orm';
import { badRequest } from '../../plugins/http-errors.js';
import { relatedSource } from './filter.js';
import type { Field, Model, Registry } from './model.js';
import { byMemberName, memberName } from './names.js';
import type { Ctx, ToOneSpec } from './resource.js';

export const DEFAULT_PAGE_SIZE = 20;
const MAX_SORT_KEYS = 5;
const MAX_INCLUDE_PATHS = 20;
const MAX_INCLUDE_DEPTH = 3;

/** Relationship name -> what to include below it. */
export type IncludeTree = Map<string, IncludeTree>;
/** Resource type -> the attribute and relationship names to return. */
export type Fieldsets = Map<string, Set<string>>;

export interface DocumentQuery {
  include: IncludeTree;
  fields: Fieldsets;
}

/** One sort key: an attribute of the listed resource, or of the record a to-one relationship (`via`) names. */
export interface SortKey {
  field: Field;
  descending: boolean;
  via?: ToOneSpec;
  /** A private attribute of the listed resource: its value sorts only the rows whose private members the caller sees. */
  hidden?: boolean;
}

export interface ListQuery extends DocumentQuery {
  /** `page[size]` as asked; 0 asks for every matching record in one page. */
  size: number;
  number: number;
  /** Rows one page reads: the page size, or for `page[size]=0` the most records it may return (LIST_ALL_MAX). */
  limit: number;
  sort: SortKey[];
  /** The raw filter parameter, compiled against the request's context by the caller. */
  filter?: string;
}

export type RawQuery = Record<string, string | number | undefined>;

/**
 * Parameters the Open Event front end adds to its reads (its cache service, public pages, builds
 * without caching, and ember-data's `reload` option that its speaker-invite page passes in a query:
 * app/routes/public/speaker-invite/view-session.js:15): accepted on every GET of the engine and ignored.
 */
const COMPATIBILITY = Type.Optional(
  Type.String({ maxLength: 100, description: 'accepted for the Open Event front end; no effect' }),
);
export const compatibilityParameters: TProperties = {
  cache: COMPATIBILITY,
  public: COMPATIBILITY,
  nocache: COMPATIBILITY,
  reload: COMPATIBILITY,
};

/**
 * `get_trashed=true`: soft-deleted records are read too (with `deleted-at` set), for administrators only;
 * others are refused (401, 403) rather than answered without them, which would look like the records they
 * asked for. The reference took it from anyone (a hole, ../shared/reference/open-event-server.md).
 */
export const trashedParameter: TProperties = {
  get_trashed: Type.Optional(
    Type.Union([Type.Literal('true'), Type.Literal('false')], {
      description:
        'true: deleted records (of resources with soft deletion) are read too, in the record, its includes, ' +
        'filters and linkage; administrators only (401 without a login, 403 for others). false: no effect',
    }),
  ),
};

/** The querystring of a relationship (linkage) route: the compatibility parameters and `get_trashed`. */
export const linkageQuerySchema = () =>
  Type.Object({ ...compatibilityParameters, ...trashedParameter }, { additionalProperties: false });

/** The querystring of a single-document route: include and sparse fieldsets. */
export function documentQuerySchema(registry: Registry): TObject {
  const props: Record<string, TSchema> = {
    ...compatibilityParameters,
    ...trashedParameter,
    include: Type.Optional(
      Type.String({ maxLength: 1000, description: 'comma-separated relationship paths, dotted for nesting' }),
    ),
  };
  for (const type of registry.models.keys()) {
    props[`fields[${type}]`] = Type.Optional(
      Type.String({
        maxLength: 1000,
        description: `comma-separated ${type} fields to return (dasherized or snake_case)`,
      }),
    );
  }
  return Type.Object(props, { additionalProperties: false });
}

/** `page[size]` and `page[number]` as a list takes them (`note`: added to their descriptions). */
function pageParameters(listAllMax: number, note = ''): TProperties {
  return {
    'page[size]': Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: listAllMax,
        description:
          `records per page (default ${DEFAULT_PAGE_SIZE}); 0: every matching record in one page, ` +
          `refused (400) when more than ${listAllMax} match${note}`,
      }),
    ),
    'page[number]': Type.Optional(
      Type.Integer({ minimum: 1, maximum: 10_000_000, description: `1-based page number${note}` }),
    ),
  };
}

/** `sort` and `filter` as a list takes them (`note`: added to their descriptions). */
function sortFilterParameters(note = ''): TProperties {
  return {
    sort: Type.Optional(
      Type.String({
        maxLength: 500,
        description:
          'comma-separated attribute names, or a to-one relationship and an attribute of its record ' +
          `(\`event.starts-at\`); a leading "-" sorts descending${note}`,
      }),
    ),
    filter: Type.Optional(
      Type.String({
        maxLength: 10_000,
        description:
          'JSON array of {"name","op","val"} conditions (AND), nestable with {"and"|"or":[...]} and {"not":{...}}; ' +
          'ops: eq ne lt le gt ge like ilike in notin is_ isnot has any; a to-one relationship takes eq and ne ' +
          `with null or an id${note}`,
      }),
    ),
  };
}

/**
 * `page[...]`, `sort` and `filter` where one record answers (`what`): checked as a list checks them, and
 * without effect, as the reference's detail routes ignored them.
 */
export function ignoredListParameters(listAllMax: number, what: string): TProperties {
  const note = `; accepted as lists take it, no effect on ${what}`;
  return { ...pageParameters(listAllMax, note), ...sortFilterParameters(note) };
}

/**
 * The querystring of a to-one related route (`/v1/events/{id}/speakers-call`): a single document's, and
 * the page, sort and filter parameters, accepted as a list takes them and without effect on the one record.
 * The front end reads some to-one relationships with its list query (`event.query('speakersCall',
 * {'page[size]': 0})`, app/routes/events/view/index.js; the reference's blueprint reads an event's copyright
 * and tax with `sort` and `filter=[]`), which the reference's detail routes ignored.
 */
export function toOneQuerySchema(registry: Registry, listAllMax: number): TObject {
  return Type.Object(
    {
      ...ignoredListParameters(listAllMax, 'the one related record'),
      ...documentQuerySchema(registry).properties,
    },
    { additionalProperties: false },
  );
}

/** The querystring of a list route: pagination, sort, filter, include, sparse fieldsets. */
export function listQuerySchema(registry: Registry, listAllMax: number): TObject {
  return Type.Object(
    {
      ...pageParameters(listAllMax),
      ...sortFilterParameters(),
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
    if (names.length > MAX_INCLUDE_DEPTH)
      throw badRequest(`Include paths are at most ${MAX_INCLUDE_DEPTH} deep`, 'include');
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
    const names = String(value)
      .split(',')
      .filter((n) => n !== '')
      .map((name) => {
        const member = memberName(model.members, name);
        if (!member) throw badRequest(`${type} has no field "${name}"`, key);
        return member;
      });
    fields.set(type, new Set(names));
  }
  return fields;
}

/** The sort key `name`: an attribute, or `relationship.attribute` through a to-one relationship. */
function sortField(registry: Registry, model: Model, name: string): Omit<SortKey, 'descending'> {
  const [first, attribute, ...rest] = name.split('.');
  const own = byMemberName(model.fields, first!);
  if (attribute === undefined && own) return { field: own };
  const hidden = attribute === undefined ? byMemberName(model.privateFields, first!) : undefined;
  if (hidden) return { field: hidden, hidden: true };
  const rel = byMemberName(model.relationships, first!);
  if (rel?.kind !== 'toOne' || attribute === undefined || rest.length > 0)
    throw badRequest(
      `Unknown sort key "${name}" for ${model.type}: an attribute, or a to-one relationship and one of its attributes`,
      'sort',
    );
  const target = registry.get(rel.type);
  const field = byMemberName(target.fields, attribute);
  if (!field) throw badRequest(`Unknown sort key "${name}": ${target.type} has no attribute "${attribute}"`, 'sort');
  return { field, via: rel };
}

function parseSort(registry: Registry, model: Model, raw: string | undefined): SortKey[] {
  const keys = raw === undefined ? [] : raw.split(',');
  if (keys.length > MAX_SORT_KEYS) throw badRequest(`At most ${MAX_SORT_KEYS} sort keys`, 'sort');
  return keys.map((key) => {
    const descending = key.startsWith('-');
    return { ...sortField(registry, model, descending ? key.slice(1) : key), descending };
  });
}

/**
 * ORDER BY of a list. A key through a relationship sorts by the related record the caller sees (none:
 * as null). A unique tiebreaker keeps pages stable when sort keys repeat values.
 */
export function orderBy(ctx: Ctx, registry: Registry, model: Model, keys: SortKey[]): SQL[] {
  const order = keys.map(({ field, descending, via, hidden }, i) => {
    let value: SQL | Field['column'] = field.column;
    // Null for the rows whose private members the caller does not see: their order reveals nothing of the value.
    if (hidden)
      value = sql`(case when coalesce((${model.spec.policy.seesPrivate!(ctx, model.columns)}), false) then ${field.column} end)`;
    if (via) {
      const { table, tc, conditions } = relatedSource(ctx, registry, model.columns, via, `s${i + 1}`);
      const column = tc[field.key]!;
      value = sql`(${ctx.db
        .select({ value: column })
        .from(table)
        .where(and(...conditions))
        .orderBy(tc.id!)
        .limit(1)})`;
    }
    return descending ? desc(value) : asc(value);
  });
  order.push(keys.at(-1)?.descending ? desc(model.id) : asc(model.id));
  return order;
}

export function parseDocumentQuery(registry: Registry, model: Model, query: RawQuery): DocumentQuery {
  return {
    include: parseInclude(registry, model, query.include as string | undefined),
    fields: parseFields(registry, query),
  };
}

/** A list's query; `page[size]=0` is one page of at most `listAllMax` records (page[number] is ignored). */
export function parseListQuery(registry: Registry, model: Model, query: RawQuery, listAllMax: number): ListQuery {
  const size = (query['page[size]'] as number | undefined) ?? DEFAULT_PAGE_SIZE;
  return {
    ...parseDocumentQuery(registry, model, query),
    size,
    number: size === 0 ? 1 : ((query['page[number]'] as number | undefined) ?? 1),
    limit: size === 0 ? listAllMax : size,
    sort: parseSort(registry, model, query.sort as string | undefined),
    filter: query.filter as string | undefined,
  };
}
