import { drizzle, type PostgresJsQueryResultHKT } from 'drizzle-orm/postgres-js';
import type { PgDatabase } from 'drizzle-orm/pg-core';
import fp from 'fastify-plugin';
import postgres from 'postgres';
import * as schema from '../db/schema/index.js';

/** The database handle queries take: the pool, or a transaction of it. */
export type Db = PgDatabase<PostgresJsQueryResultHKT, typeof schema>;

export interface DbOptions {
  url: string;
  poolMax: number;
  /**
   * The planner's `random_page_cost` for the pool's sessions. With the default 4 PostgreSQL prefers
   * reading small tables whole even for one row by key, once per row of a page (the visibility
   * checks of linkage); with the pages in memory or on SSD an index lookup is the cheaper plan.
   */
  randomPageCost?: number;
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

export function connect({ url, poolMax, randomPageCost, onQuery }: DbOptions) {
  const sql = postgres(url, {
    max: poolMax,
    onnotice: () => {},
    ...(randomPageCost ? { connection: { random_page_cost: randomPageCost } } : {}),
    ...(onQuery ? { debug: (_conn: number, query: string) => onQuery(query) } : {}),
  });
  return { sql, db: drizzle(preparing(sql), { schema }) as Db };
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
