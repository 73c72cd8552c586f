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
  /** More request headers. */
  headers?: Record<string, string>;
}

/** Limits a path must meet; each one present becomes a PASS/FAIL line. */
export interface Targets {
  /** route req/s without the read cache divided by baseline req/s (median of the per-round ratios), at least this. */
  minRatio?: number;
  /** SQL statements one request sends, at most this. */
  maxStatements?: number;
  /** median req/s as the service answers by default (read cache on), at least this. */
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
   * The matching baseline route (same process, same authentication, same database and pool). For a read,
   * the hand-written single statement that builds the same document (`src/bench-routes.ts`): the bench
   * checks that both answer the same JSON. For login, the same SQL and password check without the token.
   */
  baseline?: BenchRequest;
  /** Check that the baseline's statements are the path's first ones, text for text (login: the password check before the token). */
  sameSql?: boolean;
  /** The issue whose targets these are (printed next to each check; `minRps` and `noSeqScans` are issue 9's). */
  issue: number;
  targets: Targets;
}

const query = (params: Record<string, string>) => `?${new URLSearchParams(params)}`;
/**
 * Tables of a few hundred rows at most in the data set, which PostgreSQL rightly reads whole: the
 * lookup tables (event types and sub-topics are empty here, as on a fresh site), and `logins`, the
 * bench's own few logins (the token's lookup is by its primary key).
 */
const SMALL_TABLES = [
  'event_topics',
  'event_types',
  'event_sub_topics',
  'events',
  'session_types',
  'settings',
  'pages',
  'event_copyrights',
  'social_links',
  'logins',
];
/**
 * Issue 23's targets of a read path at page size 20: fresh req/s at least 0.8 of the hand-written statement's,
 * one statement (two with a token: its account), and issue 9's.
 */
const READ_TARGETS: Targets = {
  minRatio: 0.8,
  maxStatements: 1,
  minRps: 1000,
  noSeqScans: true,
  smallTables: SMALL_TABLES,
};
/** With a token, the account lookup comes first. */
const WITH_TOKEN: Targets = { ...READ_TARGETS, maxStatements: 2 };

/** A JSON:API read and its baseline (`/bench/baseline/...` mirrors `/v1/...`). */
const read = (name: string, path: string, targets: Targets, auth = false): BenchPath => ({
  name,
  path,
  auth,
  baseline: { path: path.replace('/v1/', '/bench/baseline/'), auth },
  issue: 23,
  targets,
});

/**
 * The benchmarked paths, each with its baseline and targets. Later benchmarks add rows here (the
 * seed result gives them the ids of seeded records).
 */
export function benchPaths(seed: Seeded): BenchPath[] {
  const event = `/v1/events/${seed.event.id}`;
  const page = { 'page[size]': '20' };
  return [
    read(
      'GET /v1/users?page[size]=20&sort=-created-at (admin)',
      `/v1/users${query({ ...page, sort: '-created-at' })}`,
      { minRatio: 0.8, maxStatements: 2 },
      true,
    ),
    read('GET /v1/events?page[size]=20', `/v1/events${query(page)}`, READ_TARGETS),
    read(
      'GET /v1/events/{id}?include=social-links,event-copyright',
      `${event}${query({ include: 'social-links,event-copyright' })}`,
      READ_TARGETS,
    ),
    read(
      `GET /v1/events/{id}/sessions?include=speakers,track,microlocation&page[size]=20 (${seed.event.sessions} sessions)`,
      `${event}/sessions${query({ include: 'speakers,track,microlocation', ...page })}`,
      READ_TARGETS,
    ),
    read(
      `GET /v1/events/{id}/speakers?page[size]=20 (${seed.event.speakers} speakers)`,
      `${event}/speakers${query(page)}`,
      READ_TARGETS,
    ),
    read(
      'GET /v1/events/{id}/custom-forms?page[size]=20 (organizer)',
      `${event}/custom-forms${query(page)}`,
      WITH_TOKEN,
      true,
    ),
    read('GET /v1/pages?page[size]=20', `/v1/pages${query(page)}`, READ_TARGETS),
    read('GET /v1/settings/1', '/v1/settings/1', READ_TARGETS),
    {
      name: 'POST /v1/sessions (organizer, into another event)',
      method: 'POST',
      path: '/v1/sessions',
      body: {
        data: {
          type: 'session',
          attributes: { title: 'Benchmarked', state: 'accepted' },
          relationships: { event: { data: { type: 'event', id: String(seed.otherEventId) } } },
        },
      },
      status: 201,
      issue: 9,
      // Six, and the read cache's fence: the write's answer waits for its change notifications.
      targets: { maxStatements: 7 },
    },
    {
      name: 'POST /v1/auth/login (argon2 hash)',
      method: 'POST',
      path: '/v1/auth/login',
      body: { email: seed.adminEmail, password: seed.adminPassword },
      contentType: 'application/json',
      auth: false,
      // The same limiter, select and password check, no token: a ratio near 1 is login limited by the hash.
      baseline: {
        method: 'POST',
        path: '/bench/baseline/login',
        body: { email: seed.adminEmail, password: seed.adminPassword },
        contentType: 'application/json',
        auth: false,
      },
      sameSql: true,
      issue: 9,
      // The brute-force limit's count and forgiving are two statements besides the account's select (the
      // baseline's three); the fourth starts the login the token belongs to (and stamps last-accessed-at);
      // the fifth is the read cache's fence (a write's answer waits for its change notifications).
      targets: { minRatio: 0.9, maxStatements: 5 },
    },
  ];
}
