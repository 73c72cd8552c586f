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
  /** Called with the text of every SQL statement sent (used to count statements per request). */
  onQuery?: (query: string) => void;
}

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    sql: postgres.Sql;
  }
}

export function connect({ url, poolMax, onQuery }: DbOptions) {
  const sql = postgres(url, {
    max: poolMax,
    onnotice: () => {},
    ...(onQuery ? { debug: (_conn: number, query: string) => onQuery(query) } : {}),
  });
  return { sql, db: drizzle(sql, { schema }) as Db };
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
