import { drizzle, type PostgresJsQueryResultHKT } from 'drizzle-orm/postgres-js';
import type { PgDatabase } from 'drizzle-orm/pg-core';
import fp from 'fastify-plugin';
import postgres from 'postgres';

/** The database handle queries take: the pool, or a transaction of it. */
export type Db = PgDatabase<PostgresJsQueryResultHKT>;

export interface DbOptions {
  url: string;
  poolMax: number;
  /**
   * The planner's `random_page_cost` for the pool's sessions. With the default 4 PostgreSQL prefers
   * reading small tables whole even for one row by key, once per row of a page (the visibility
   * checks of linkage); with the pages in memory or on SSD an index lookup is the cheaper plan.
   */
  randomPageCost?: number;
  /** How long opening a connection may take before the statement waiting for it fails (default 5 s). */
  connectTimeoutSeconds?: number;
  /** Settings of every session of the pool (custom ones, `oe.<name>`, for `current_setting` in statements). */
  settings?: Record<string, string>;
  /** Called with the text of every SQL statement sent (used to count statements per request). */
  onQuery?: (query: string) => void;
}

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    sql: postgres.Sql;
  }
}

type Client = postgres.Sql | postgres.TransactionSql;

/**
 * `client` with every statement drizzle sends prepared (named, planned once per connection and
 * reused), also inside transactions and savepoints. Drizzle asks postgres.js for unnamed statements
 * unless a query is built with `.prepare(name)`; unnamed ones are parsed and planned on every
 * execution and cost a describe round trip first. The SQL text of a query shape does not depend on
 * its values (lists are one array parameter, see `anyOf`), so the statements per connection stay a
 * bounded set, and postgres.js retires connections after `max_lifetime`.
 */
export function preparing<T extends Client>(client: T): T {
  return new Proxy(client, {
    get(target, key, receiver) {
      if (key === 'unsafe') {
        return (query: string, params?: postgres.ParameterOrJSON<never>[], options?: postgres.UnsafeQueryOptions) =>
          target.unsafe(query, params, { ...options, prepare: true });
      }
      if (key === 'begin' || key === 'savepoint') {
        return (...args: unknown[]) => {
          const body = args.pop() as (tx: postgres.TransactionSql) => unknown;
          const open = Reflect.get(target, key) as (...a: unknown[]) => Promise<unknown>;
          return open(...args, (tx: postgres.TransactionSql) => body(preparing(tx)));
        };
      }
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
}

/**
 * Seconds before the next attempt to open a connection after one failed: doubling from 50 ms up to
 * one second, with jitter. postgres.js's own backoff grows to 20 s after a handful of failures, and
 * statements wait for that attempt: after a database restart requests would hang for up to 20 s.
 */
const reconnectDelay = (retries: number) => Math.min(0.05 * 2 ** retries, 1) * (0.5 + Math.random() / 2);

/** Error codes of a connection that failed or broke, rather than of a statement the database refused. */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
]);
/** SQLSTATEs of a database that cannot serve now: connection exceptions (class 08), shutdown and start-up (57P01-57P03), no free slot (53300). */
const UNAVAILABLE_STATES = /^(08...|57P0[123]|53300)$/;

/**
 * True when `err` (or an error it wraps: drizzle puts the driver's error in `cause`) says the
 * database could not be reached or went away, so the request may well succeed a moment later.
 */
export function isConnectionFailure(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    const { code } = e as { code?: unknown };
    if (typeof code === 'string' && (CONNECTION_CODES.has(code) || UNAVAILABLE_STATES.test(code))) return true;
    if (e instanceof AggregateError && e.errors.some(isConnectionFailure)) return true;
  }
  return false;
}

export function connect({ url, poolMax, randomPageCost, connectTimeoutSeconds = 5, settings, onQuery }: DbOptions) {
  const sql = postgres(url, {
    max: poolMax,
    connect_timeout: connectTimeoutSeconds,
    backoff: reconnectDelay,
    onnotice: () => {},
    connection: { ...(randomPageCost ? { random_page_cost: randomPageCost } : {}), ...settings },
    ...(onQuery ? { debug: (_conn: number, query: string) => onQuery(query) } : {}),
  });
  // Without the schema: nothing uses drizzle's relational queries (`db.query`), and with it every
  // transaction builds a query builder per table (tens of microseconds of each write).
  return { sql, db: drizzle(preparing(sql)) };
}

/** One connection pool per app, closed with it. */
export default fp(
  async (app, options: DbOptions) => {
    const { sql, db } = connect(options);
    app.decorate('sql', sql);
    app.decorate('db', db);
    app.addHook('onClose', async () => {
      await sql.end({ timeout: 5 });
    });
  },
  { name: 'db' },
);
