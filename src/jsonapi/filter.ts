import {
  and,
  eq,
  exists,
  is,
  gt,
  gte,
  ilike,
  inArray,
  isNotNull,
  isNull,
  like,
  lt,
  lte,
  ne,
  not,
  notInArray,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import { alias, PgView, type PgColumn, type PgTable } from 'drizzle-orm/pg-core';
import { badRequest } from '../../plugins/http-errors.js';
import type { Field, Model, Registry } from './model.js';
import { byMemberName } from './names.js';
import { liveIn } from './records.js';
import type { Columns, Ctx, RelationshipSpec, ToManySpec } from './resource.js';
import { hasNul, INT4_MAX, isUuid, storableDate } from './values.js';

const MAX_NODES = 100;
const MAX_DEPTH = 8;
const MAX_LIST = 1000;
const MAX_STRING = 1000;

const fail = (detail: string) => badRequest(`Invalid filter: ${detail}`, 'filter');

/** Columns of a table or of an alias of it, by column key. */
export function columnsOf(model: Model, table: PgTable): Columns {
  if (table === model.table) return model.columns;
  const source = table as unknown as Record<string, PgColumn>;
  return Object.fromEntries(Object.keys(model.columns).map((k) => [k, source[k]!]));
}

/** Converts a filter value to what the column's driver mapping expects, or refuses it. */
function coerce(name: string, field: Field, val: unknown): unknown {
  switch (field.kind) {
    case 'integer': {
      const n = typeof val === 'string' && /^-?\d{1,10}$/.test(val) ? Number(val) : val;
      if (typeof n !== 'number' || !Number.isInteger(n) || Math.abs(n) > INT4_MAX)
        throw fail(`"${name}" takes an integer`);
      return n;
    }
    case 'number': {
      const n = typeof val === 'string' && val.trim() !== '' ? Number(val) : val;
      if (typeof n !== 'number' || !Number.isFinite(n)) throw fail(`"${name}" takes a number`);
      return n;
    }
    case 'boolean':
      if (val === true || val === 'true') return true;
      if (val === false || val === 'false') return false;
      throw fail(`"${name}" takes a boolean`);
    case 'date-time': {
      const date = storableDate(val);
      if (!date) throw fail(`"${name}" takes an ISO 8601 date-time`);
      return date;
    }
    case 'uuid':
      if (!isUuid(val)) throw fail(`"${name}" takes a UUID`);
      return val;
    default:
      if (typeof val !== 'string' && typeof val !== 'number') throw fail(`"${name}" takes a string`);
      if (String(val).length > MAX_STRING) throw fail(`value of "${name}" is too long`);
      if (hasNul(String(val))) throw fail(`value of "${name}" contains a NUL character`);
      return String(val);
  }
}

type Compare = (c: PgColumn, v: unknown) => SQL;
const comparisons: Record<string, Compare> = { eq, ne, lt, le: lte, gt, ge: gte };

class FilterCompiler {
  private nodes = 0;
  private aliases = 0;

  constructor(
    private registry: Registry,
    private ctx: Ctx,
  ) {}

  node(model: Model, t: Columns, node: unknown, depth: number): SQL {
    if (++this.nodes > MAX_NODES) throw fail(`more than ${MAX_NODES} conditions`);
    if (depth > MAX_DEPTH) throw fail(`nested deeper than ${MAX_DEPTH} levels`);
    if (Array.isArray(node)) return this.all(model, t, node, depth);
    if (typeof node !== 'object' || node === null) throw fail('each condition must be an object');
    const keys = Object.keys(node);
    const n = node as Record<string, unknown>;
    if (keys.length === 1 && (keys[0] === 'and' || keys[0] === 'or')) {
      const list = n[keys[0]];
      if (!Array.isArray(list)) throw fail(`"${keys[0]}" takes an array`);
      // An empty list is no condition, `or` as `and`: flask-rest-jsonapi's filter builds `or_()` of
      // nothing, which the reference's SQLAlchemy (1.3) renders as no SQL at all, so every record
      // matches. Clients rely on it: the front end's table routes send `{"or": []}` whenever their
      // search box is empty (app/mixins/ember-table-route.js, applySearchFilters), the attendees page
      // (app/routes/events/view/tickets/attendees/list.js) on every load.
      if (list.length === 0) return sql`true`;
      const parts = list.map((c) => this.node(model, t, c, depth + 1));
      return (keys[0] === 'and' ? and(...parts) : or(...parts))!;
    }
    if (keys.length === 1 && keys[0] === 'not') return not(this.node(model, t, n.not, depth + 1));
    if (
      !keys.every((k) => k === 'name' || k === 'op' || k === 'val') ||
      typeof n.name !== 'string' ||
      typeof n.op !== 'string'
    )
      throw fail('a condition is {"name", "op", "val"} or {"and"|"or": [...]} or {"not": {...}}');
    return this.condition(model, t, n.name, n.op, n.val, depth);
  }

  all(model: Model, t: Columns, list: unknown[], depth: number): SQL {
    if (list.length === 0) return sql`true`;
    return and(...list.map((c) => this.node(model, t, c, depth + 1)))!;
  }

  private condition(model: Model, t: Columns, name: string, op: string, val: unknown, depth: number): SQL {
    const rel = byMemberName(model.relationships, name);
    if (op === 'has' || op === 'any') {
      if (!rel) throw fail(`unknown relationship "${name}" of ${model.type}`);
      return this.linked(t, rel, (target, tc) => this.node(target, tc, val, depth + 1));
    }
    const field = byMemberName(model.fields, name);
    if (field) return this.attribute(t, field, name, op, val);
    const hidden = byMemberName(model.privateFields, name);
    // False (never null) for a record whose private members the caller does not see, so that no
    // combination (`not`, `or`) of such conditions depends on the hidden value.
    if (hidden)
      return and(
        sql`coalesce((${model.spec.policy.seesPrivate!(this.ctx, t)}), false)`,
        this.attribute(t, hidden, name, op, val),
      )!;
    if (rel) return this.linkage(t, name, rel, op, val);
    throw fail(`unknown attribute "${name}" of ${model.type}`);
  }

  private attribute(t: Columns, field: Field, name: string, op: string, val: unknown): SQL {
    const col = t[field.key]!;
    const compare = comparisons[op];
    if (compare) {
      if (val === null) {
        if (op === 'eq') return isNull(col);
        if (op === 'ne') return isNotNull(col);
        throw fail(`"${op}" cannot compare with null`);
      }
      return compare(col, coerce(name, field, val));
    }
    switch (op) {
      case 'like':
      case 'ilike':
        if (field.kind !== 'string' || typeof val !== 'string')
          throw fail(`"${op}" needs a string attribute and value`);
        // PostgreSQL fails on a pattern ending in a lone escape character, but only once a row's scan
        // reaches it: refused up front, it can neither fail the request nor tell rows apart.
        if (/(^|[^\\])(\\\\)*\\$/.test(val))
          throw fail(`the "${op}" pattern of "${name}" ends with an escape character`);
        return (op === 'like' ? like : ilike)(col, coerce(name, field, val) as string);
      case 'in':
      case 'in_':
      case 'notin':
      case 'notin_': {
        if (!Array.isArray(val) || val.length === 0 || val.length > MAX_LIST)
          throw fail(`"${op}" takes an array of 1 to ${MAX_LIST} values`);
        const values = val.map((v) => coerce(name, field, v));
        return op.startsWith('in') ? inArray(col, values) : notInArray(col, values);
      }
      case 'is_':
      case 'isnot':
        if (val !== null) throw fail(`"${op}" takes the value null`);
        return op === 'is_' ? isNull(col) : isNotNull(col);
      default:
        throw fail(`unknown operator "${op}"`);
    }
  }

  /**
   * `eq` / `ne` on a to-one relationship, with null or an id (on a to-many, with null): like `has`, only records the
   * caller may see count, so a record linked to one the caller may not see (a draft, a deleted one) is linked to none.
   */
  private linkage(t: Columns, name: string, rel: RelationshipSpec, op: string, val: unknown): SQL {
    // On a to-many, `eq null` is "none linked" and `ne null` "some linked": the speakers list's "without session"
    // tab sends `{"name":"sessions","op":"eq","val":null}` (app/routes/events/view/speakers/list.js:43-50).
    if (rel.kind !== 'toOne' && !(val === null && (op === 'eq' || op === 'ne')))
      throw fail(`"${name}" is a to-many relationship: filter it with "has" or "any", or with "eq" or "ne" null`);
    if (op !== 'eq' && op !== 'ne')
      throw fail(`the relationship "${name}" takes "eq" or "ne" with null or an id, or "has" or "any"`);
    const target = this.registry.get(rel.type);
    const id = val === null ? undefined : coerce(name, target.fields.get('id')!, val);
    const linked = this.linked(t, rel, (_target, tc) => (id === undefined ? undefined : eq(tc.id!, id)));
    // eq null and ne <id> hold where no such record is linked.
    return (op === 'eq') === (id !== undefined) ? linked : not(linked);
  }

  /** Some related record the caller may see satisfies `where` (given the target and its aliased columns). */
  private linked(t: Columns, rel: RelationshipSpec, where: (target: Model, tc: Columns) => SQL | undefined): SQL {
    const one = { one: sql`1` };
    if (rel.kind === 'toOne' || rel.foreignKey) {
      const { table, tc, target, conditions } = relatedSource(this.ctx, this.registry, t, rel, `f${++this.aliases}`);
      return exists(
        this.ctx.db
          .select(one)
          .from(table)
          .where(and(...conditions, where(target, tc))),
      );
    }
    const target = this.registry.get(rel.type);
    const targetTable = alias(target.table, `f${++this.aliases}`);
    const tc = columnsOf(target, targetTable);
    const through = (rel as ToManySpec).through!;
    const name = `f${++this.aliases}`;
    const join = alias(through.table, name) as unknown as Record<string, PgColumn>;
    // drizzle renders an aliased view as its alias alone (`from "f1"`): a view is named with its alias by hand.
    const source = is(through.table, PgView)
      ? sql`${through.table} as ${sql.identifier(name)}`
      : (join as unknown as PgTable);
    const fixed = Object.entries(through.where ?? {}).map(([k, v]) => eq(join[k]!, v));
    return exists(
      this.ctx.db
        .select(one)
        .from(source as PgTable)
        .innerJoin(targetTable, eq(tc.id!, join[through.to]!))
        .where(
          and(
            eq(join[through.from]!, t.id!),
            ...fixed,
            where(target, tc),
            ...visibleIn(this.ctx, target, tc),
            rel.where?.(this.ctx, tc),
          ),
        ),
    );
  }
}

/** Conditions making rows of `target` (its columns `tc`, under any alias) live and within the caller's scope. */
export const visibleIn = (ctx: Ctx, target: Model, tc: Columns) => [
  liveIn(ctx, target, tc),
  target.spec.policy.scope(ctx, tc),
];

/**
 * The target of a to-one or one-to-many relationship under the alias `name`, and the conditions that
 * make one of its rows a record the caller sees related to the row `t`: for subqueries of filters and sorts.
 */
export function relatedSource(ctx: Ctx, registry: Registry, t: Columns, rel: RelationshipSpec, name: string) {
  const target = registry.get(rel.type);
  const table = alias(target.table, name);
  const tc = columnsOf(target, table);
  const link = rel.kind === 'toOne' && rel.column ? eq(tc.id!, t[rel.column]!) : eq(tc[rel.foreignKey!]!, t.id!);
  return { table, tc, target, conditions: [link, ...visibleIn(ctx, target, tc), rel.where?.(ctx, tc)] };
}

/** Parses the `filter` parameter (a JSON array or object) into a WHERE condition on `model`. */
export function compileFilter(registry: Registry, ctx: Ctx, model: Model, raw: string): SQL {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw fail('not valid JSON');
  }
  return new FilterCompiler(registry, ctx).node(model, model.columns, parsed, 0);
}
