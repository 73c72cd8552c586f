import type { TObject, TProperties, TSchema } from '@sinclair/typebox';
import type { SQL } from 'drizzle-orm';
import type { PgColumn, PgTable, PgView } from 'drizzle-orm/pg-core';
import type { FastifyRequest } from 'fastify';
import type { Caller } from './caller.js';
import type { Db } from '../../plugins/db.js';

/** What every policy and hook is given: who calls, and the database handle of the request's transaction. */
export interface Ctx {
  caller: Caller | null;
  db: Db;
  request: FastifyRequest;
  /**
   * Set while the request's transaction has written nothing (a write's policy check): what it reads
   * is what is committed, so lookups may come from the process's memos (see ReadCache.memo).
   */
  unwritten?: boolean;
  /**
   * An administrator's read asked for soft-deleted records too (`get_trashed=true`): no condition of the
   * read's statement hides a row for being deleted (see `liveIn`), its includes, filters and linkage included.
   */
  trashed?: boolean;
}

/** Column key -> column of the table, or of an alias of it inside a subquery. */
export type Columns = Record<string, PgColumn>;

export type Row = Record<string, unknown> & { id: unknown };

export interface AttributeSpec {
  /** The wire type; a nullable attribute is `Type.Union([T, Type.Null()])`. */
  schema: TSchema;
  /** Key of the Drizzle column that stores it; absent for write-only virtual attributes. */
  column?: string;
  /** Required on create. */
  required?: boolean;
  /** What requests may send when it differs from the response type (e.g. booleans also as "true"/"false"). */
  input?: TSchema;
  /** Appears in responses but is refused in requests. */
  readOnly?: boolean;
  /**
   * Returned only to callers the policy's `seesPrivate` admits for that row; a filter on it holds, and a sort
   * by it orders, only the rows whose private members the caller sees (the others sort as null), so no query
   * can probe it.
   */
  private?: boolean;
  /** Accepted in requests, never read, filtered, sorted or returned. */
  writeOnly?: boolean;
  /** Turns a written value into column values (for example a password into its hash); `wire` names the attribute. */
  write?: (value: unknown, wire: string) => Promise<Record<string, unknown>> | Record<string, unknown>;
  /**
   * Instead of `column`: a value computed from the record (`t`: its table's columns) in the statement
   * that reads it, such as a flag from other tables. Must be read-only; never filterable or sortable.
   */
  select?: (t: Columns) => SQL;
  /**
   * With `select`: requests may write it too. Its value is stored by the resource's hooks (rows of another
   * table: a badge form's fields), which find it in the write's input; no column takes it, and a create's
   * answer is read after `afterCreate`, so it shows what the hooks stored.
   */
  hooked?: boolean;
}

interface RelationshipBase {
  /** Resource type at the other end. */
  type: string;
  /** Relationships that only the server sets. */
  readOnly?: boolean;
  description?: string;
  /**
   * Refuses callers who may read the record but not this relationship of it (an event's orders are
   * for its organizers); includes stay limited by the target's scope.
   */
  guard?(ctx: Ctx, row: Row): void | Promise<void>;
  /** Further names of the related endpoint (`/<alias>` beside `/<name>`): the reference's paths clients still call. */
  aliases?: string[];
  /**
   * Further names a create or update body may give it, read as the relationship itself (the reference's
   * `ticket_holder`, which its check-in clients send for `ticket-holder`); sending both is refused (422).
   */
  bodyAliases?: string[];
  /** Only related rows meeting this condition on the target's columns (a session's `favourite`: the caller's). */
  where?(ctx: Ctx, t: Columns): SQL | undefined;
}

interface OwnedRelationship {
  /**
   * A to-one relationship (with a column) that this resource and the target both have and that must
   * hold the same value: a session's track must belong to the session's event.
   */
  within?: string;
}

export interface ToOneSpec extends RelationshipBase, OwnedRelationship {
  kind: 'toOne';
  /** Key of the foreign-key column on this resource's table. */
  column?: string;
  /** Instead of `column`: the target's foreign-key column pointing here (the one side of a one-to-one). */
  foreignKey?: string;
  /** A create request must name it, and no request may set it to null. */
  required?: boolean;
  /** Set on create and never changed afterwards (records do not move between events). */
  immutable?: boolean;
  /**
   * A read-only link the server sets to the caller on create (a session's creator, an order's buyer):
   * a create may name the caller there, as clients that fill it in themselves do.
   */
  callerOnCreate?: boolean;
}

export interface ToManySpec extends RelationshipBase, OwnedRelationship {
  kind: 'toMany';
  /** The target's foreign-key column pointing back here (one-to-many). */
  foreignKey?: string;
  /**
   * With `foreignKey` (nullable): writes may set the list, which sets the target's foreign key on the
   * named records and clears it on the others (a video stream's rooms). The policy's `update` and
   * `create` see the named ids and must check that the caller may move those records.
   */
  settable?: boolean;
  /**
   * A join table (many-to-many): column keys pointing at this resource and at the target, and fixed
   * column values that tell this relationship's rows from others in the same table (a role). A
   * read-only relationship may join through a view.
   */
  through?: { table: PgTable | PgView; from: string; to: string; where?: Record<string, string> };
  /**
   * Read-only: an empty list sent is taken as linkage the client never loaded and ignored, as one sent back
   * unchanged is (the front end's order serializer sends `attendees: []` with every save of an order whose holders it
   * read through a link: app/serializers/order.js). Naming other records is still refused.
   */
  emptyIgnored?: boolean;
  /**
   * The target's relationship pointing back here. With it, POST on the related path
   * (`/<path>/{id}/<name>`) creates a target already linked to this record.
   */
  inverse?: string;
  /**
   * Further lists of the related records under longer paths, narrowed to those whose column equals a path
   * parameter: the reference's `/v1/events/{id}/badge-forms/{badge_id}`. Each answers as the related list does.
   */
  narrowed?: NarrowedList[];
}

/** A related list narrowed by a path parameter (see ToManySpec.narrowed). */
export interface NarrowedList {
  /** The path after `/<path>/{id}/`, in Fastify's syntax, naming `param`: `sessions/:session_id/station-store-paxs`. */
  path: string;
  /** The path parameter, and the target's column key it must equal. */
  param: string;
  column: string;
  /** PascalCase words that tell its operation from the related list's (`BySession`). */
  operation: string;
  summary: string;
  /** What the parameter names; with an integer column, a value that is no integer id names nothing (404). */
  description: string;
}

export type RelationshipSpec = ToOneSpec | ToManySpec;

/** Changes a write request asks for, keyed by wire name. */
export interface WriteInput {
  attributes: Record<string, unknown>;
  relationships: Record<string, string | null | string[]>;
  /** On a relationship route: whether the linkage replaces, adds to or removes from the relationship. */
  change?: 'replace' | 'add' | 'remove';
}

/** Who may do what; every operation of the resource consults it. Throw a JsonApiError to refuse. */
export interface Policy {
  /** Rows the caller may see in lists, related lists and includes (undefined: all). */
  scope(ctx: Ctx, t: Columns): SQL | undefined;
  /** Rows that exist for the caller at all: others answer 404 on detail routes too (drafts). */
  existsFor?(ctx: Ctx, t: Columns): SQL | undefined;
  /**
   * Rows a write may link to and relationship endpoints may name (defaults to `scope`): an organizer
   * names other users by id without being able to read their records.
   */
  linkable?(ctx: Ctx, t: Columns): SQL | undefined;
  /** Rows whose `private` attributes the caller may see (required when any attribute is private). */
  seesPrivate?(ctx: Ctx, t: Columns): SQL;
  list(ctx: Ctx): void;
  /** Checks a list of the records related to another one (`/v1/events/1/coorganizers`); defaults to `list`. */
  listRelated?(ctx: Ctx): void;
  /**
   * Checks a read of one record (and of the records related to it). Declare the `row` parameter only
   * when the rule looks at it: a rule declared without it gets the row's id alone, and its reads
   * return no other column of the record.
   */
  read(ctx: Ctx, row: Row): void | Promise<void>;
  create(ctx: Ctx, input: WriteInput): void | Promise<void>;
  update(ctx: Ctx, row: Row, input: WriteInput): void | Promise<void>;
  delete(ctx: Ctx, row: Row): void | Promise<void>;
}

export interface Hooks {
  /** Adjusts the column values about to be inserted (for example sets the creator). */
  beforeCreate?(ctx: Ctx, values: Record<string, unknown>, input: WriteInput): void | Promise<void>;
  afterCreate?(ctx: Ctx, row: Row, input: WriteInput): void | Promise<void>;
  beforeUpdate?(ctx: Ctx, row: Row, values: Record<string, unknown>, input: WriteInput): void | Promise<void>;
  beforeDelete?(ctx: Ctx, row: Row): void | Promise<void>;
}

/**
 * The activity log lines of a resource's writes (the reference's ACTIVITIES, app/models/activity.py), written in
 * the write's transaction: a write that fails leaves none. Each answers the lines (none: nothing to log).
 */
export interface ActivitySpec {
  /** `row`: the inserted column values, with the new record's id; `input`: what the request asked for. */
  created?(ctx: Ctx, row: Row, input: WriteInput): string[] | Promise<string[]>;
  /**
   * `row`: the record before the change; `values`: the column values the update sets; `input`: what the request asked
   * for. Called before the update's statements (to-many links included), so it reads the record as it was.
   */
  updated?(ctx: Ctx, row: Row, values: Record<string, unknown>, input: WriteInput): string[] | Promise<string[]>;
  deleted?(ctx: Ctx, row: Row): string[] | Promise<string[]>;
}

export interface ResourceSpec {
  /** JSON:API type, e.g. `user`. */
  type: string;
  /** Other spellings of `type` that requests may use (responses always carry `type`). */
  typeAliases?: string[];
  /** Collection path segment under /v1, e.g. `users`. */
  path: string;
  /** PascalCase prefix of the OpenAPI components, e.g. `User`. */
  name: string;
  /** OpenAPI tag and description. */
  tag: string;
  description: string;
  table: PgTable;
  /** Column key of a unique text column by which a path may name a record instead of its numeric id. */
  alternateKey?: string;
  /** Further collection path segments that serve the detail routes too (renamed paths clients still call). */
  aliases?: string[];
  /** Further collection path segments that serve the create route too (`POST /v1/station`, the reference's). */
  createAliases?: string[];
  /**
   * The routes of its own (default: all). Computed records nobody writes have fewer: `read`, the list and
   * record reads; `list`, the list alone (reports); `none`, none: its records are read through another
   * resource's relationship (an event's statistics at `/v1/events/{id}/general-statistics`), as `self` names.
   */
  routes?: 'read' | 'list' | 'none';
  /** A record's self link under /v1 when it is not `<path>/{id}`; `{id}` stands for the record's id. */
  self?: string;
  /** Column key of a soft-delete timestamp: DELETE sets it and every read hides such rows. */
  softDelete?: string;
  attributes: Record<string, AttributeSpec>;
  relationships?: Record<string, RelationshipSpec>;
  policy: Policy;
  hooks?: Hooks;
  /** What its writes add to the activity log. */
  activity?: ActivitySpec;
  /** Named lists (`GET /v1/events/upcoming`): the list route with a fixed condition, by path segment. */
  views?: Record<string, ViewSpec>;
  /** Reads of one record named by other path parameters than its id (`/v1/events/{event}/discount-codes/{code}`). */
  lookups?: LookupSpec[];
  /** Unique index name -> the member it protects (a JSON pointer), so a violation answers 409 pointing at it. */
  unique?: Record<string, { pointer: string; detail: string }>;
  /** Statuses a create may answer beyond the usual ones (a rate limit's 429), with what each means. */
  createFailures?: Record<number, string>;
  /** Query parameters of the create route (`POST /v1/orders?onsite=true`); the policy and hooks read them. */
  createParameters?: TProperties;
  /** Statuses an update may answer beyond the usual ones (an expired order's 410), with what each means. */
  updateFailures?: Record<number, string>;
  /** Statuses a delete may answer beyond the usual ones (a station's 409 while check-ins name it), with what each means. */
  deleteFailures?: Record<number, string>;
}

/** A named list of a resource: its records meeting a condition, in a default order. */
export interface ViewSpec {
  summary: string;
  description: string;
  /** The condition on the records (columns `t`), on top of the policy's scope and the client's filter. */
  where(ctx: Ctx, t: Columns): SQL | undefined;
  /** The `sort` used when the client sends none. */
  sort: string;
  /** Further query parameters clients send to this path, accepted without effect. */
  params?: Record<string, TSchema>;
  /** Its answers change with the clock (a condition on now()): never kept in the read cache. */
  volatile?: boolean;
}

/**
 * A GET route that names one record by other path parameters than its id: the record as the detail route answers
 * it, with include and sparse fieldsets. Never kept in the read cache (what it checks may change with the clock).
 */
export interface LookupSpec {
  /** The path under /v1 in Fastify's syntax (`events/:event/discount-codes/:code`). */
  path: string;
  operationId: string;
  summary: string;
  description: string;
  params: TObject;
  /** Query parameters clients may send beside the document's (ember-data's queryRecord sends its query), without effect; optional. */
  ignoredQuery?: Record<string, TSchema>;
  /** The `include` of a request that names none. */
  defaultInclude?: string;
  /** Statuses it may answer beyond 400, 401, 404 and 406, with what each means. */
  failures?: Record<number, string>;
  /**
   * Checks the request (404 when nothing is named, another status for a record that may not be used) and answers
   * the condition naming the record on the resource's columns. Build it from the path alone (the caller aside):
   * the read's statement is kept per route, caller and URL. The policy's `existsFor` and `read` still apply.
   */
  find(ctx: Ctx, params: Record<string, string>): Promise<SQL> | SQL;
}

export const defineResource = (spec: ResourceSpec): ResourceSpec => spec;
