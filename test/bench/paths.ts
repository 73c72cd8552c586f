import type { Seeded } from './seed.js';

/** One HTTP request the benchmark sends again and again (always to 127.0.0.1). */
export interface BenchRequest {
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Path and query string, already URL-encoded. */
  path: string;
  /** A JSON body (sent as application/vnd.api+json unless `contentType` says otherwise). */
  body?: unknown;
  contentType?: string;
  /** Send the super admin's token as `Authorization: JWT <token>` (default true). */
  auth?: boolean;
  /** The status every response must have (default 200). */
  status?: number;
}

/** Limits a path must meet; each one present becomes a PASS/FAIL line. */
export interface Targets {
  /** route req/s divided by baseline req/s, at least this. */
  minRatio?: number;
  /** SQL statements one request sends, at most this. */
  maxStatements?: number;
  /** median req/s, at least this. */
  minRps?: number;
  /**
   * No statement's generic plan has a sequential scan, except on the tables listed in `smallTables`
   * (lookup tables of a few dozen rows, which PostgreSQL rightly reads whole).
   */
  noSeqScans?: boolean;
  smallTables?: string[];
}

export interface BenchPath extends BenchRequest {
  /** Label in the table; defaults to `METHOD path`. */
  name?: string;
  /**
   * The matching baseline route (same process, same SQL through the same driver, no JSON:API work).
   * Its statements must equal the path's statements, text for text, unless `sameSql` is false.
   */
  baseline?: BenchRequest;
  sameSql?: boolean;
  /** The issue whose targets these are (printed next to each check). */
  issue: number;
  targets: Targets;
}

const JSONAPI_USERS = '/v1/users?' + new URLSearchParams({ 'page[size]': '20', sort: '-created-at' }).toString();

/**
 * The benchmarked paths, each with its baseline and targets. Later benchmarks add rows here (the
 * seed result gives them the ids of seeded records).
 */
export function benchPaths(seed: Seeded): BenchPath[] {
  const sessions = `/v1/events/${seed.event.id}/sessions?` + new URLSearchParams({ include: 'speakers,track', 'page[size]': '50' });
  return [
    {
      name: 'GET /v1/users?page[size]=20&sort=-created-at',
      path: JSONAPI_USERS,
      baseline: { path: '/bench/baseline/users' },
      issue: 2,
      targets: { minRatio: 0.6, maxStatements: 2 },
    },
    {
      name: `GET /v1/events/{id}/sessions?include=speakers,track&page[size]=50 (${seed.event.sessions} sessions, anonymous)`,
      path: sessions,
      auth: false,
      baseline: { path: sessions.replace('/v1/', '/bench/baseline/'), auth: false },
      issue: 3,
      targets: { minRatio: 0.5, maxStatements: 4, noSeqScans: true, smallTables: ['event_topics'] },
    },
  ];
}
