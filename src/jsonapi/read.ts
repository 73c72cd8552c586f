/**
 * The read compiler: each JSON:API read is one SQL statement that returns the finished document
 * members (`data`, `included`, the count of a list, linkage) as JSON text built by PostgreSQL, so
 * Node relays text instead of building documents row by row. Visibility (the policies' scopes),
 * private attributes (`seesPrivate`), computed attributes, to-one linkage, `include` at any depth and
 * sparse fieldsets all compile into that statement. Rules the policies keep in JavaScript (`read`,
 * relationship guards) run on the primary row the same statement returns.
 */
import { and, eq, fillPlaceholders, getTableName, is, sql, type SQL } from 'drizzle-orm';
import { alias, getViewConfig, PgTable, PgView, type PgColumn } from 'drizzle-orm/pg-core';
import * as schema from '../../db/schema/index.js';
import type { Db } from '../../plugins/db.js';
import { callerKey, eventScoped } from '../../plugins/read-cache.js';
import { notFound } from '../../plugins/http-errors.js';
import { columnsOf, visibleIn } from './filter.js';
import type { Model, Registry } from './model.js';
import { orderBy, type DocumentQuery, type Fieldsets, type IncludeTree, type ListQuery } from './query.js';
import { joinOf, liveIn, namedRow, visible } from './records.js';
import type { Columns, Ctx, RelationshipSpec, Row, ToManySpec } from './resource.js';

export const API_PREFIX = '/v1';

/** The path of a record's self link under /v1, `{id}` standing for its id (see ResourceSpec.self). */
const selfPath = (model: Model) => model.spec.self ?? `${model.spec.path}/{id}`;

export const selfLink = (model: Model, id: unknown) => `${API_PREFIX}/${selfPath(model).replace('{id}', String(id))}`;

/** Identifier names of the statement's common table expressions and row aliases. */
const ident = (name: string) => sql.identifier(name);
/** A text literal (names from declarations, never request data). */
const literal = (text: string) => sql.raw(`'${text.replace(/'/g, "''")}'`);

/** SQL text expressions and literal strings concatenated into one text value (NULL pieces count as ''). */
type Piece = SQL | string;

/** Merges adjacent literals; `concat` takes at most 100 arguments, so longer lists nest. */
function concat(pieces: Piece[]): SQL {
  const merged: Piece[] = [];
  for (const p of pieces) {
    if (typeof p === 'string' && typeof merged.at(-1) === 'string') merged[merged.length - 1] += p;
    else merged.push(p);
  }
  const args = merged.map((p) => (typeof p === 'string' ? literal(p) : p));
  if (args.length === 1 && typeof merged[0] === 'string') return args[0]!;
  const chunks: SQL[] = [];
  for (let i = 0; i < args.length; i += 90) chunks.push(sql`concat(${sql.join(args.slice(i, i + 90), sql`, `)})`);
  return chunks.length === 1 ? chunks[0]! : concat(chunks);
}

const isIntegerId = (model: Model) => model.fields.get('id')!.kind === 'integer';

/** The JSON string of a record's id (integer ids need no escaping). */
const idJson = (model: Model, id: SQL | PgColumn): Piece[] =>
  isIntegerId(model) ? ['"', sql`${id}`, '"'] : [sql`to_json(${id}::text)::text`];

/** A resource identifier object's JSON text. */
const identifierJson = (model: Model, id: SQL | PgColumn): Piece[] => [
  `{"type":${JSON.stringify(model.type)},"id":`,
  ...idJson(model, id),
  '}',
];

/** The join table of a to-many relationship under a statement-local name (drizzle names an aliased view by its alias alone). */
function joinSource(through: NonNullable<ToManySpec['through']>, name: string) {
  const join = alias(through.table, name) as unknown as Record<string, PgColumn>;
  const source = sql`${through.table} as ${ident(name)}`;
  const fixed = Object.entries(through.where ?? {}).map(([k, v]) => eq(join[k]!, v));
  return { join, source, fixed: and(...fixed) };
}

/**
 * Linkage JSON of the row `t` of `model` through `rel` to the records the caller may see
 * (`linkage`: may name), read by a subquery: `null`/an identifier for to-one, an array for to-many.
 */
function linkageJson(st: Statement, t: Columns, rel: RelationshipSpec, names = false): Piece[] {
  const { ctx } = st;
  const target = st.registry.get(rel.type);
  const { table, tc, name } = st.alias(target);
  const allowed = names
    ? [liveIn(ctx, target, tc), (target.spec.policy.linkable ?? target.spec.policy.scope)(ctx, tc)]
    : visibleIn(ctx, target, tc);
  const conditions = and(...allowed, rel.where?.(ctx, tc));
  const identifier = concat(identifierJson(target, tc.id!));
  if (rel.kind === 'toOne') {
    const link = rel.column ? eq(tc.id!, t[rel.column]!) : eq(tc[rel.foreignKey!]!, t.id!);
    return [
      sql`coalesce((select ${identifier} from ${table} where ${and(link, conditions)} order by ${tc.id!} limit 1), 'null')`,
    ];
  }
  if (rel.foreignKey) {
    return [
      '[',
      sql`(select string_agg(${identifier}, ',' order by ${tc.id!}) from ${table} where ${and(eq(tc[rel.foreignKey]!, t.id!), conditions)})`,
      ']',
    ];
  }
  const { join, source, fixed } = joinSource(rel.through!, `${name}j`);
  return [
    '[',
    sql`(select string_agg(${identifier}, ',' order by ${tc.id!}) from ${table} join ${source} on ${and(eq(join[rel.through!.to]!, tc.id!), fixed)} where ${and(eq(join[rel.through!.from]!, t.id!), conditions)})`,
    ']',
  ];
}

/**
 * The to-one linkage a row carries whatever is included: the linked record if it is live and the
 * caller may name it. A link to the statement's anchor of the target type (the parent of a related
 * read, the record a path names: most rows of an event's lists link to that event) checks the
 * anchor's row once per statement instead of looking the record up for every row.
 */
function toOneColumnLinkage(st: Statement, link: Model['links'][number]): Piece[] {
  const target = link.target!;
  const policy = target.spec.policy;
  const allowed = and(liveIn(st.ctx, target), (policy.linkable ?? policy.scope)(st.ctx, target.columns));
  let id = allowed
    ? sql`(select ${target.id} from ${target.table} where ${target.id} = ${link.column} and ${allowed})`
    : sql`${link.column}`;
  const anchor = st.anchors.get(target);
  if (anchor && allowed) {
    const anchored = sql`(select ${target.id} from ${Statement.from(anchor, target)} where ${allowed})`;
    id = sql`case when ${link.column} = (select ${ident(target.id.name)} from ${ident(anchor)}) then ${anchored} else ${id} end`;
  }
  const json = isIntegerId(target) ? sql`'"' || ${id} || '"'` : sql`to_json(${id}::text)::text`;
  return [sql`coalesce(${literal(`{"type":${JSON.stringify(target.type)},"id":`)} || ${json} || '}', 'null')`];
}

/** What a read renders: the sparse fieldsets, and per type the relationships whose linkage is loaded (included). */
interface Rendering {
  fields: Fieldsets;
  loaded: Map<string, Set<string>>;
}

/** A quoted identifier in SQL text. */
const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The select-list item of a column as the documents carry it (timestamps as Date#toISOString writes them), named `wire`. */
function columnItem(column: PgColumn, wire: string): string {
  const ref = `${quoted(tableName(column.table as PgTable))}.${quoted(column.name)}`;
  const value =
    column.columnType === 'PgTimestamp'
      ? `to_char(${ref}${(column as unknown as { withTimezone: boolean }).withTimezone ? " at time zone 'UTC'" : ''}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
      : ref;
  return `${value} as ${quoted(wire)}`;
}

/** The JSON object's text of columns of the row in scope, by wire name: one `row_to_json` (for routes of their own SQL). */
export function jsonObject(members: [wire: string, column: PgColumn][]): SQL {
  if (members.length === 0) return sql`'{}'`;
  return sql`(select row_to_json(a)::text from (select ${sql.raw(members.map(([wire, column]) => columnItem(column, wire)).join(', '))}) a)`;
}

/** Per type and fieldset: the attribute select lists (public, and with the private ones) and the computed attributes. */
const attributeLists = new Map<string, { open: string; all: string; computed: [string, string][] }>();

function attributeListsOf(model: Model, only: Set<string> | undefined) {
  const key = `${model.type}|${only ? [...only].sort().join(',') : '*'}`;
  let lists = attributeLists.get(key);
  if (!lists) {
    const open: string[] = [];
    const all: string[] = [];
    const computed: [string, string][] = [];
    const isComputed = new Set(model.computed.map(([k]) => k));
    for (const [wire, key] of model.readable) {
      if (only && !only.has(wire)) continue;
      if (isComputed.has(key)) {
        computed.push([wire, key]);
        continue;
      }
      const item = columnItem(model.columns[key]!, wire);
      all.push(item);
      if (!model.private.has(wire)) open.push(item);
    }
    lists = { open: open.join(', '), all: all.join(', '), computed };
    attributeLists.set(key, lists);
  }
  return lists;
}

/** The `attributes` object's JSON text of the row in scope: one `row_to_json` of its select list. */
function attributesJson(ctx: Ctx, model: Model, only: Set<string> | undefined): SQL {
  const { open, all, computed } = attributeListsOf(model, only);
  const select = new Map(model.computed);
  const extra = computed.map(([wire, key]) => sql`${select.get(key)!(model.columns)} as ${ident(wire)}`);
  const object = (list: string) => {
    const items = [...(list === '' ? [] : [sql.raw(list)]), ...extra];
    return items.length === 0
      ? sql`'{}'`
      : sql`(select row_to_json(a)::text from (select ${sql.join(items, sql`, `)}) a)`;
  };
  if (open === all) return object(open);
  // Private attributes only where the policy's `seesPrivate` holds for this caller and row.
  return sql`case when (${model.spec.policy.seesPrivate!(ctx, model.columns)}) then ${object(all)} else ${object(open)} end`;
}

/** A name as `format()` template text: JSON-quoted, `%` doubled. */
const name = (text: string) => JSON.stringify(text).replace(/%/g, '%%');

/** The id of the row in scope, as `format()` inserts it into JSON strings (escaped for text ids). */
function idArgument(model: Model): SQL {
  const ref = sql.raw(`${quoted(tableName(model.table))}.${quoted(model.id.name)}`);
  return isIntegerId(model)
    ? ref
    : sql`substr(to_json(${ref}::text)::text, 2, length(to_json(${ref}::text)::text) - 2)`;
}

/**
 * The JSON text of the resource object of the row of `model` in scope under its table's name: its
 * attributes (private ones only where `seesPrivate` holds for the caller), relationship links,
 * to-one linkage, the linkage of included relationships, and its self link; one `format()` call.
 */
function resourceJson(st: Statement, model: Model, rendering: Rendering): SQL {
  const { ctx } = st;
  const only = rendering.fields.get(model.type);
  const wanted = (name: string) => !only || only.has(name);
  const args: SQL[] = [idArgument(model), attributesJson(ctx, model, only)];
  const path = `${API_PREFIX}/${selfPath(model)}`.replace(/%/g, '%%').replace('{id}', '%1$s');
  const members: string[] = [];
  const loaded = rendering.loaded.get(model.type);
  for (const [relationship, rel] of model.relationships) {
    if (!wanted(relationship)) continue;
    const relName = name(relationship);
    const link = model.links.find((l) => l.name === relationship);
    const data = link
      ? toOneColumnLinkage(st, link)
      : loaded?.has(relationship)
        ? linkageJson(st, model.columns, rel)
        : undefined;
    const segment = relName.slice(1, -1);
    if (data) args.push(concat(data));
    members.push(
      `${relName}:{"links":{"self":"${path}/relationships/${segment}","related":"${path}/${segment}"}${data ? `,"data":%${args.length}$s` : ''}}`,
    );
  }
  const text = `{"type":${name(model.type)},"id":"%1$s","attributes":%2$s,"relationships":{${members.join(',')}},"links":{"self":"${path}"}}`;
  return sql`format(${literal(text)}, ${sql.join(args, sql`, `)})`;
}

/**
 * The condition making rows of `target` those related through `rel` to the rows of the table
 * expression `parent` (of `model`). A `single` parent (a path's record) is compared as a scalar, so the
 * planner can walk an index in the page's order and stop at the page's end.
 */
function relatedTo(ctx: Ctx, model: Model, rel: RelationshipSpec, target: Model, parent: string, single = false): SQL {
  const of = (column: string) => sql`(select ${ident(column)} from ${ident(parent)})`;
  const match = (left: SQL | PgColumn, column: string) =>
    single ? sql`${left} = ${of(column)}` : sql`${left} in ${of(column)}`;
  const only = rel.where?.(ctx, target.columns);
  if (rel.kind === 'toOne' && rel.column) return and(match(target.id, model.columns[rel.column]!.name), only)!;
  if (rel.foreignKey) return and(match(target.columns[rel.foreignKey]!, model.id.name), only)!;
  const through = (rel as ToManySpec).through!;
  const { cols, fixed } = joinOf(through);
  return and(
    sql`${target.id} in (select ${cols[through.to]!} from ${through.table} where ${and(match(cols[through.from]!, model.id.name), fixed)})`,
    only,
  )!;
}

/** The table expressions of a statement, in order, and the row sets of each type its `include` reads. */
class Statement {
  readonly ctes: SQL[] = [];
  /** Per type, the table expression holding the one record of it the statement reads by its id (see toOneColumnLinkage). */
  readonly anchors = new Map<Model, string>();
  /**
   * Tables the statement reads the rows of one event of, where it names them `references` times
   * (see `compile`).
   */
  readonly eventScopes: { table: string; eventId: number; references: number }[] = [];
  private count = 0;
  /** Aliases are numbered per statement, so a query shape always has the same text (one prepared statement). */
  private aliases = 0;

  constructor(
    readonly ctx: Ctx,
    readonly registry: Registry,
  ) {}

  /** Adds `select <model's table>.* ... ` as a named table expression and returns its name. */
  add(body: SQL): string {
    const name = `p${this.count++}`;
    this.ctes.push(sql`${ident(name)} as (${body})`);
    return name;
  }

  /** A fresh alias of `model`'s table and its columns, for subqueries nested in a row's expressions. */
  alias(model: Model) {
    const name = `x${++this.aliases}`;
    // In SQL templates drizzle renders an alias by its name alone: the FROM item names the table too.
    return { table: sql`${model.table} as ${ident(name)}`, tc: columnsOf(model, alias(model.table, name)), name };
  }

  /** The rows of `model` of `source`, under the table's own name (so the model's column expressions apply). */
  static from(source: string, model: Model) {
    return sql`${ident(source)} as ${ident(tableName(model.table))}`;
  }

  /** JSON text of `included`: the records of every include path, each once, none that is primary. */
  included(model: Model, primary: string, tree: IncludeTree, rendering: Rendering): SQL {
    const byType = new Map<Model, { order: number; source: string }[]>();
    let order = 0;
    const walk = (current: Model, parent: string, node: IncludeTree) => {
      for (const [name, child] of node) {
        const rel = current.relationships.get(name)!;
        const target = this.registry.get(rel.type);
        const body = sql`select ${target.table}.* from ${target.table} where ${visible(this.ctx, target, relatedTo(this.ctx, current, rel, target, parent))}`;
        const source = this.add(body);
        byType.set(target, [...(byType.get(target) ?? []), { order: order++, source }]);
        walk(target, source, child);
      }
    };
    walk(model, primary, tree);
    const parts = [...byType].map(([target, sources]) => {
      const union = sql.join(
        sources.map(({ order: o, source }) => sql`select ${sql.raw(String(o))} as "__pi", * from ${ident(source)}`),
        sql` union all `,
      );
      const idName = ident(target.id.name);
      // A path's rows are distinct; a type several paths reach keeps each record at its first path.
      const deduplicated =
        sources.length === 1
          ? sql`(${union})`
          : sql`(select distinct on (${idName}) * from (${union}) u order by ${idName}, "__pi")`;
      const notPrimary =
        target === model ? sql` where ${target.id} not in (select ${idName} from ${ident(primary)})` : sql``;
      const number = isIntegerId(target)
        ? sql`${target.id}::bigint, null::text`
        : sql`null::bigint, ${target.id}::text`;
      return sql`select "__pi", ${number}, ${resourceJson(this, target, rendering)} from ${deduplicated} as ${ident(tableName(target.table))}${notPrimary}`;
    });
    if (parts.length === 0) return sql`'[]'`;
    return sql`(select concat('[', string_agg(doc, ',' order by pi, nid, sid), ']') from (${sql.join(parts, sql` union all `)}) as i(pi, nid, sid, doc))`;
  }

  /**
   * The statement `with <ctes> <select>` as text and parameters, with the tables it names: a table of
   * `eventScopes` as its rows of that event alone (`eventScoped`) when the text names the table
   * exactly as many times as declared, so no other part of the statement (a filter, a policy, an
   * include) reads its rows of other events.
   */
  compile(select: SQL): Compiled {
    const statement = this.ctes.length > 0 ? sql`with ${sql.join(this.ctes, sql`, `)} ${select}` : select;
    const { sql: text, params } = (this.ctx.db as unknown as DbInternals).dialect.sqlToQuery(statement);
    const code = withoutLiterals(text);
    const tables = tablesOf(code);
    for (const { table, eventId, references } of this.eventScopes) {
      if (tableReferences(code, table) !== references) continue;
      tables.delete(table);
      tables.add(eventScoped(table, eventId));
    }
    return { text, params, tables };
  }
}

interface DbInternals {
  dialect: { sqlToQuery(sql: SQL): { sql: string; params: unknown[] } };
  session: {
    client: { unsafe(query: string, params: never[]): Pending<unknown[]> & { values(): Pending<unknown[][]> } };
  };
}

/** A postgres.js query: `execute()` queues it on its connection now, before any later statement. */
type Pending<T> = Promise<T> & { execute(): Promise<T> };

/**
 * Sends `query` on `db` now (drizzle's own execution queues it some ticks later): a transaction's
 * statements go out in the order of the calls, and one sent just before the commit goes out with it.
 */
export function sendNow(db: Db, query: SQL): Promise<unknown[]> {
  const { dialect, session } = db as unknown as DbInternals;
  const { sql: text, params } = dialect.sqlToQuery(query);
  return session.client.unsafe(text, params as never[]).execute();
}

/**
 * A query a request runs every time, rendered once (what varies as `sql.placeholder(name)`) and run
 * with `values`: drizzle renders a query anew on each execution, which costs more Node time than
 * PostgreSQL takes to answer a small one. Rows are arrays of the selection's raw values, in order.
 */
export function renderedOnce(build: (db: Db) => { toSQL(): { sql: string; params: unknown[] } }) {
  let rendered: { sql: string; params: unknown[] } | undefined;
  return (db: Db, values: Record<string, unknown>): Promise<unknown[][]> => {
    rendered ??= build(db).toSQL();
    return (db as unknown as DbInternals).session.client
      .unsafe(rendered.sql, fillPlaceholders(rendered.params, values) as never[])
      .values();
  };
}

/** A read's statement: its text, parameters and the tables and views it names. */
interface Compiled {
  text: string;
  params: unknown[];
  tables: Set<string>;
}

/**
 * Compiled statements of GET reads, per registry (an app's resources), most recently used last. A
 * GET route of the engine makes one read, and its statement is a function of the route, the URL
 * (path ids, query) and the caller's id, rights and address (`callerKey`): never of the data, so
 * it is kept across changes, and a read after a change skips compiling (a tenth of a millisecond to
 * a millisecond of Node's time per read, more than the database's for small documents).
 */
const compiledReads = new WeakMap<Registry, { entries: Map<string, Compiled & { size: number }>; chars: number }>();
/**
 * Characters kept per registry at most (statement texts, their keys and parameters: a few hundred
 * statements of the largest reads), and entries at most (URLs are the client's to vary).
 */
const MAX_COMPILED_CHARS = 16 * 1024 * 1024;
const MAX_COMPILED_ENTRIES = 5_000;

/** Where a write's own statement goes in the statement of its answer (see `execute`). */
const WRITTEN = '__oe_written__';

/**
 * Runs the statement `build` makes (on a fresh `Statement`), compiled once per caller and URL for
 * GET reads (see compiledReads), and tells the read cache which tables it reads. `site` names the
 * read (its kind and types), so a route that read twice would never run the other read's statement.
 * A write's answer (`write`: its insert or update, which `build` places as `WRITTEN`) is compiled
 * once per caller, method and URL too: the write's own statement is rendered alone each time, its
 * parameters numbered after the answer's. With `key`, the statement is one of the caller and `key`
 * (what else `build` reads) whatever the request.
 */
async function execute(
  ctx: Ctx,
  registry: Registry,
  site: string,
  build: (statement: Statement) => SQL,
  options: { write?: SQL; key?: string } = {},
): Promise<Record<string, unknown>[]> {
  const { request } = ctx;
  const { write } = options;
  const db = ctx.db as unknown as DbInternals;
  const reusable =
    request !== undefined &&
    (write !== undefined || options.key !== undefined || request.method === 'GET' || request.method === 'HEAD');
  const cache = reusable ? (compiledReads.get(registry) ?? { entries: new Map(), chars: 0 }) : undefined;
  const named = options.key ?? `${write ? `${request!.method} ` : ''}${request?.url}`;
  const key = reusable ? `${site} ${callerKey(ctx.caller)} ${named}` : '';
  let compiled = cache?.entries.get(key);
  if (compiled) {
    cache!.entries.delete(key);
    cache!.entries.set(key, compiled);
  } else {
    const statement = new Statement(ctx, registry);
    const fresh = statement.compile(build(statement));
    compiled = { ...fresh, size: fresh.text.length + key.length + JSON.stringify(fresh.params).length };
    if (cache) {
      compiledReads.set(registry, cache);
      cache.entries.set(key, compiled);
      cache.chars += compiled.size;
      for (const [old, { size }] of cache.entries) {
        if (cache.chars <= MAX_COMPILED_CHARS && cache.entries.size <= MAX_COMPILED_ENTRIES) break;
        cache.entries.delete(old);
        cache.chars -= size;
      }
    }
  }
  if (write) {
    const own = db.dialect.sqlToQuery(write);
    const offset = compiled.params.length;
    // `$n` outside the write's string literals are its parameters.
    const text = own.sql.replace(/'(?:[^']|'')*'|\$(\d+)/g, (match, n?: string) =>
      n ? `$${Number(n) + offset}` : match,
    );
    return (await db.session.client
      .unsafe(
        compiled.text.replace(WRITTEN, () => text),
        [...compiled.params, ...own.params] as never[],
      )
      .execute()) as Record<string, unknown>[];
  }
  if (request?.method === 'GET') request.server.readCache?.depends(request, compiled.tables);
  return (await db.session.client.unsafe(compiled.text, compiled.params as never[]).execute()) as Record<
    string,
    unknown
  >[];
}

const tableName = (table: PgTable) => (table as unknown as Record<symbol, string>)[Symbol.for('drizzle:Name')]!;

/** Every table and view name of the schema, quoted as statements name them. */
const knownTables = (() => {
  const names = Object.values(schema).flatMap((v) =>
    is(v, PgTable) ? [getTableName(v)] : is(v, PgView) ? [getViewConfig(v).name] : [],
  );
  const list = [...new Set(names)].sort((a, b) => b.length - a.length);
  return new RegExp(`"(${list.join('|')})"`, 'g');
})();

/** A statement's text without what its string literals hold (the documents' JSON templates name no table they read). */
const withoutLiterals = (text: string) => text.replace(/'(?:[^']|'')*'/g, "''");

/** The tables and views a statement's text (`withoutLiterals`) names. */
function tablesOf(code: string): Set<string> {
  return new Set(Array.from(code.matchAll(knownTables), (m) => m[1]!));
}

/**
 * How many times a statement's text (`withoutLiterals`) names `table` as a relation to read: every
 * quoted occurrence but a column's qualifier (`"t"."c"`, `"t".*`) and an alias's name (`as "t"`).
 * Counting more than it reads only ever scopes less.
 */
const tableReferences = (code: string, table: string) =>
  code.match(new RegExp(`(?<!\\bas )"${table}"(?!\\.)`, 'g'))?.length ?? 0;

/** What a read renders for `query`: its fieldsets and, per type, the relationships an include path loads below it. */
function renderingOf(registry: Registry, model: Model, query: DocumentQuery): Rendering {
  const loaded = new Map<string, Set<string>>();
  const walk = (current: Model, node: IncludeTree) => {
    for (const [name, child] of node) {
      loaded.set(current.type, new Set([...(loaded.get(current.type) ?? []), name]));
      walk(registry.get(current.relationships.get(name)!.type), child);
    }
  };
  walk(model, query.include);
  return { fields: query.fields, loaded };
}

/** A record's columns as drizzle maps them: all of them, or its id alone. */
type Selection = Record<string, PgColumn>;

/**
 * What a GET read returns of a record to the rules that run in JavaScript: its whole row when the
 * policy's `read` takes the row (is declared with its second parameter) or the relationship has a
 * guard, else its id alone (the self link).
 */
function rowFor(model: Model, rel?: RelationshipSpec): Selection {
  return model.spec.policy.read.length >= 2 || rel?.guard ? model.selection : idOnly(model);
}

const idOnly = (model: Model): Selection => ({ id: model.id });

/** The selection of a record's row (policies' `read` and guards look at it). */
function rowColumns(selection: Selection, prefix = ''): SQL {
  return sql.join(
    Object.entries(selection).map(([key, column]) => sql`${column} as ${ident(prefix + key)}`),
    sql`, `,
  );
}

function mapRow(selection: Selection, raw: Record<string, unknown>, prefix = ''): Row {
  const row: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(selection)) {
    const value = raw[prefix + key];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return 'id' in selection && Object.keys(selection).length === 1 ? idRow(row as Row) : (row as Row);
}

/**
 * A row of which only the id was read: reading any other member throws, so a rule that reads the
 * row without declaring it (see Policy.read) fails the request instead of seeing `undefined`.
 */
const idRow = (row: Row): Row =>
  new Proxy(row, {
    get(target, key, receiver) {
      if (typeof key === 'string' && !(key in target) && key !== 'then' && key !== 'toJSON')
        throw new Error(
          `only the id of this row was read, not "${key}": declare the row parameter of the policy's read`,
        );
      return Reflect.get(target, key, receiver) as unknown;
    },
  });

/** Prefix of the parent's columns where a statement also returns a record's. */
const PARENT = '__parent.';

/** A parent record named by a path, for related reads: its table expression and the checks it gets. */
export interface Parent {
  model: Model;
  rawId: string;
}

/** Selects the parent record (as `existsFor` allows) as the statement's first table expression. */
function addParent(statement: Statement, ctx: Ctx, parent: Parent): string {
  const { model } = parent;
  const source = statement.add(
    sql`select ${model.table}.* from ${model.table} where ${namedRow(ctx, model, parent.rawId)} limit 1`,
  );
  statement.anchors.set(model, source);
  return source;
}

export interface ListResult {
  data: string;
  included?: string;
  count: number;
  /** The parent record of a related list. */
  parent?: Row;
}

/** Page sizes written into a list's statement as constants: the page's size rounded up to the next. */
const LIMIT_STEPS = [1, 10, 20, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10_000];

/**
 * The `limit` and `offset` of a page. PostgreSQL plans a prepared statement once for any parameters,
 * and a limit it cannot see it takes for a tenth of the table: the kept plan looks costly, so it
 * plans every execution anew instead (twice the time of the users list). So the limit is a constant,
 * the page's size rounded up to a step (a handful of statement texts, each planned once; the exact
 * size cuts the page after), and so is the offset of a first page.
 */
function pageLimits(query: ListQuery): SQL {
  const step = LIMIT_STEPS.find((n) => n >= query.limit);
  const limit = step === undefined ? sql`${query.limit}` : sql.raw(String(step));
  const offset = (query.number - 1) * query.limit;
  return sql`limit ${limit} offset ${offset === 0 ? sql.raw('0') : sql`${offset}`}`;
}

/**
 * One page of `model`'s records the caller sees, meeting the filter and `base` (a condition, or the
 * records related to `parent` through `rel`), as JSON text, with what `include` asks for and the
 * total count: one statement. A related list whose parent does not exist for the caller is 404.
 */
export async function readList(
  ctx: Ctx,
  registry: Registry,
  model: Model,
  query: ListQuery,
  options: { base?: SQL; filter?: SQL; parent?: Parent; rel?: RelationshipSpec } = {},
): Promise<ListResult> {
  const parentModel = options.parent?.model;
  const parentRow = parentModel && rowFor(parentModel, options.rel);
  const rows = await execute(ctx, registry, `list ${model.type} ${parentModel?.type ?? ''}`, (statement) => {
    const parentSource = options.parent ? addParent(statement, ctx, options.parent) : undefined;
    const related = parentSource
      ? relatedTo(ctx, options.parent!.model, options.rel!, model, parentSource, true)
      : undefined;
    // An event's records by their event id (named by id: an identifier names no number): the page and
    // the count read the table's rows of that event alone, the `related` condition's.
    const eventId =
      options.parent && /^\d{1,15}$/.test(options.parent.rawId) ? Number(options.parent.rawId) : undefined;
    if (
      eventId !== undefined &&
      tableName(options.parent!.model.table) === 'events' &&
      options.rel?.foreignKey &&
      model.columns[options.rel.foreignKey]?.name === 'event_id'
    ) {
      statement.eventScopes.push({ table: tableName(model.table), eventId, references: 2 });
    }
    const where = visible(ctx, model, options.base, related, options.filter) ?? sql`true`;
    const page = sql`select ${model.table}.* from ${model.table} where ${where} order by ${sql.join(orderBy(ctx, registry, model, query.sort), sql`, `)} ${pageLimits(query)}`;
    const primary = statement.add(sql`select *, row_number() over () as "__ord" from (${page}) q limit ${query.limit}`);
    const rendering = renderingOf(registry, model, query);
    const data = sql`(select concat('[', string_agg(${resourceJson(statement, model, rendering)}, ',' order by "__ord"), ']') from ${Statement.from(primary, model)})`;
    const included = query.include.size > 0 ? statement.included(model, primary, query.include, rendering) : sql`null`;
    const count = sql`(select count(*)::int from ${model.table} where ${where})`;
    const members = sql`${data} as "data", ${included} as "included", ${count} as "count"`;
    return parentModel
      ? sql`select ${rowColumns(parentRow!)}, ${members} from ${Statement.from(parentSource!, parentModel)}`
      : sql`select ${members}`;
  });
  const row = rows[0];
  if (!row) throw notFound();
  return {
    data: row.data as string,
    ...(row.included !== null ? { included: row.included as string } : {}),
    count: Number(row.count),
    ...(parentRow ? { parent: mapRow(parentRow, row) } : {}),
  };
}

export interface RecordResult {
  /** The primary row as drizzle maps it. */
  row: Row;
  data: string;
  included?: string;
  /** The parent record of a related read. */
  parent?: Row;
}

/**
 * One record as JSON text with what `include` asks for, in one statement. The record is named by
 * `rawId` (a path id: 404 unless it exists for the caller), or by `where` (a lookup's condition: as
 * `rawId`), or by `id` (a write's own record: no
 * visibility applies), or is the first record related to `parent` through the to-one `rel`.
 * `undefined` when there is no such record.
 */
export async function readRecord(
  ctx: Ctx,
  registry: Registry,
  model: Model,
  query: DocumentQuery,
  named:
    | { rawId: string }
    | { where: SQL }
    | { id: unknown }
    | { write: SQL; idOnly?: boolean }
    | { parent: Parent; rel: RelationshipSpec },
): Promise<RecordResult | undefined> {
  const parentModel = 'parent' in named ? named.parent.model : undefined;
  const parentRow = parentModel && rowFor(parentModel, (named as { rel: RelationshipSpec }).rel);
  // A write's own record: its whole row (its id where the write needs no more); the record a related
  // path names: its id (nothing checks it).
  const recordRow =
    'rawId' in named || 'where' in named
      ? rowFor(model)
      : parentModel || ('write' in named && named.idOnly)
        ? idOnly(model)
        : model.selection;
  const write = 'write' in named ? named.write : undefined;
  const site = `record ${model.type} ${parentModel?.type ?? ''}${'write' in named && named.idOnly ? ' id' : ''}`;
  const [raw] = await execute(
    ctx,
    registry,
    site,
    (statement) => {
      const select = (where: SQL | undefined) =>
        statement.add(sql`select ${model.table}.* from ${model.table} where ${where} order by ${model.id} limit 1`);
      let primary: string;
      let parentSource: string | undefined;
      if ('rawId' in named) primary = select(namedRow(ctx, model, named.rawId));
      else if ('where' in named)
        primary = select(and(named.where, liveIn(ctx, model), model.spec.policy.existsFor?.(ctx, model.columns)));
      else if ('id' in named) primary = select(eq(model.id, named.id));
      else if ('write' in named) primary = statement.add(sql`${sql.raw(WRITTEN)} returning *`);
      else {
        parentSource = addParent(statement, ctx, named.parent);
        primary = select(visible(ctx, model, relatedTo(ctx, named.parent.model, named.rel, model, parentSource, true)));
      }
      if (!('write' in named) && !parentModel) statement.anchors.set(model, primary);
      const rendering = renderingOf(registry, model, query);
      const included =
        query.include.size > 0 ? statement.included(model, primary, query.include, rendering) : sql`null`;
      const record = sql`${rowColumns(recordRow)}, ${resourceJson(statement, model, rendering)} as "__data", ${included} as "__included"`;
      if (!parentModel) return sql`select ${record} from ${Statement.from(primary, model)}`;
      // The parent's row always (or 404); the related record's members only when there is one.
      return sql`select ${rowColumns(parentRow!, PARENT)}, r.* from ${Statement.from(parentSource!, parentModel)} left join (select ${record} from ${Statement.from(primary, model)}) r on true`;
    },
    { write },
  );
  const result = (): RecordResult => ({
    row: mapRow(recordRow, raw!),
    data: raw!.__data as string,
    ...(raw!.__included !== null ? { included: raw!.__included as string } : {}),
  });
  if (!parentModel) return raw && result();
  if (!raw) throw notFound();
  const parent = mapRow(parentRow!, raw, PARENT);
  if (raw.__data === null) return { parent } as RecordResult;
  return { ...result(), parent };
}

/**
 * The live row a write names (as `findRow` reads it), locked until the transaction ends, so checks
 * made on it (a session's state move) still hold when it is written; 404 when there is none.
 */
export async function lockRow(ctx: Ctx, registry: Registry, model: Model, rawId: string): Promise<Row> {
  const [raw] = await execute(
    ctx,
    registry,
    `lock ${model.type}`,
    () =>
      sql`select ${rowColumns(model.selection)} from ${model.table} where ${namedRow(ctx, model, rawId)} limit 1 for update of ${model.table}`,
    { key: rawId },
  );
  if (!raw) throw notFound();
  return mapRow(model.selection, raw);
}

/** The linkage of the record named by `rawId` through `rel` (records the caller may name), with the record's row. */
export async function readLinkage(
  ctx: Ctx,
  registry: Registry,
  model: Model,
  rel: RelationshipSpec,
  named: { rawId: string } | { id: unknown },
) {
  // A write's linkage answer needs only the linkage.
  const row = 'rawId' in named ? rowFor(model, rel) : idOnly(model);
  const [raw] = await execute(ctx, registry, `linkage ${model.type} ${rel.type}`, (statement) => {
    const where = 'rawId' in named ? namedRow(ctx, model, named.rawId) : eq(model.id, named.id);
    const primary = statement.add(sql`select ${model.table}.* from ${model.table} where ${where} limit 1`);
    const data = concat(linkageJson(statement, model.columns, rel, true));
    return sql`select ${rowColumns(row)}, ${data} as "__data" from ${Statement.from(primary, model)}`;
  });
  if (!raw) throw notFound();
  return { row: mapRow(row, raw), data: raw.__data as string };
}
