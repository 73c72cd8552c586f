import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { etagOf } from './conditional.js';
import { ChangeFence, type FenceMark, loadViewTables } from './read-cache-feed.js';

/**
 * The channel the database's change triggers notify (migrations 0010 and 0025): `<table>` for a
 * change of a table (any of its rows), `<table>:<event ids>` for rows of those events alone (tables
 * with an `event_id` column; `sessions:12,40`, `sessions:` for rows of no event).
 */
export const CHANGE_CHANNEL = 'oe_change';

/** `Cache-Control: no-cache` (or no-store) on a request: answer it from the database. */
export const wantsFresh = (request: FastifyRequest) =>
  /\bno-(cache|store)\b/i.test(request.headers['cache-control'] ?? '');

/**
 * What a read's statements may embed of its caller: the id and every right and address (a demoted
 * administrator or a changed email is another key, never what was kept for the old account).
 */
export const callerKey = (
  caller: {
    id: number;
    email: string;
    isAdmin: boolean;
    isSuperAdmin: boolean;
    isVerified: boolean;
    panels?: readonly string[];
  } | null,
) =>
  caller
    ? `${caller.id}:${caller.isAdmin ? 1 : 0}${caller.isSuperAdmin ? 1 : 0}${caller.isVerified ? 1 : 0}:${JSON.stringify(caller.panels ?? [])}:${caller.email}`
    : '0';

/** Lookups memoized at most (accounts, event access: a few hundred bytes each). */
const MAX_MEMOS = 10_000;
/** Distinct tables named by change payloads remembered at most (there are fewer than a hundred). */
const MAX_NAMES = 1_000;
/** Events whose last change is remembered per table at most (older ones count as changed). */
const MAX_EVENT_CHANGES = 100_000;

/**
 * The dependency of an answer on the rows of `table` of one event (see `ReadCache.depends`): what a
 * read names when every row of the table its statement can see belongs to that event.
 */
export const eventScoped = (table: string, eventId: number | string) => `${table}@${eventId}`;

interface Entry {
  payload: string;
  /** Its weak ETag (plugins/conditional.ts), once it has been answered from here: hashed once, not per answer. */
  etag?: string;
  type: string;
  /** The base tables the answer read (or `eventScoped` names); null: it named none, so it depends on every table. */
  tables: string[] | null;
}

interface Pending {
  key: string;
  /** The change sequence number when the computation started. */
  start: number;
  tables: Set<string> | null;
}

/**
 * Answers of one API process to JSON:API reads, each kept until a table it read changes. Each entry
 * is keyed by the caller, the Accept header and the URL, and records the tables the statements of
 * its answer read (`depends`; views stand for the base tables they read); an answer that named none
 * depends on every table. Every committed change of an application table notifies `oe_change` with
 * the table's name (statement triggers, whichever process or worker wrote), which evicts the
 * entries that read it; a change that names the events of its rows (CHANGE_CHANNEL) spares the
 * entries that read only other events' rows of the table (`eventScoped`). The answer of a write
 * request this process serves leaves only once the notifications of what it committed have been
 * handled here (the plugin's fence), so a client reads its own writes here at once and other
 * processes' writes as soon as their notification arrives (milliseconds). An answer whose computation overlapped a change of one of its tables (of any
 * table, when it named none) is not kept. The caller lookup of a token is memoized under the same
 * rule over the tables the lookup reads (a deleted or demoted account, an ended login, is a change).
 * `Cache-Control: no-cache` on a request skips both lookups.
 */
export class ReadCache {
  private entries = new Map<string, Entry>();
  /** The keys of the entries that read each base table (or one event's rows of it), and of those that named no table. */
  private byTable = new Map<string, Set<string>>();
  /** Per table, the `eventScoped` names entries depend on. */
  private scopedNames = new Map<string, Set<string>>();
  private undeclared = new Set<string>();
  private memos = new Map<string, unknown>();
  /** The tables the memoized lookups read. */
  private memoTables = new Set<string>();
  private bytes = 0;
  /** Reads answered from here, and reads that were not (absent, or asked fresh), since the start (/metrics). */
  readonly answered = { hits: 0, misses: 0 };
  /**
   * Counts changes; `changedAt` holds each table's last (of any row), `wholeAt` its last of every
   * row, `eventChangedAt` each `eventScoped` name's last (forgotten beyond a bound: `eventFloor`
   * counts as the last change of every event), `clearedAt` the last time everything went.
   */
  private sequence = 0;
  private changedAt = new Map<string, number>();
  private wholeAt = new Map<string, number>();
  private eventChangedAt = new Map<string, number>();
  private eventFloor = 0;
  private clearedAt = 0;
  private pending = new WeakMap<FastifyRequest, Pending>();
  /** The base tables of each view (see `loadViewTables`). */
  views = new Map<string, string[]>();
  /** The fence of each write request's last committed transaction that carried one. */
  private fenced = new WeakMap<FastifyRequest, FenceMark>();

  constructor(
    private readonly maxBytes: number,
    /** This process's fence (see ChangeFence): none, no fence rides on a transaction. */
    private readonly fence?: ChangeFence,
  ) {}

  /** Forgets everything (the notifications may have been missed, or a change cannot be told apart). */
  clear(): void {
    this.clearedAt = ++this.sequence;
    this.entries.clear();
    this.byTable.clear();
    this.scopedNames.clear();
    this.undeclared.clear();
    this.memos.clear();
    this.bytes = 0;
  }

  /**
   * A change was committed (a CHANGE_CHANNEL payload): forgets what read the table, but where the
   * payload names the events of the changed rows, of the answers that read only some events' rows
   * of it, those of other events stay; and forgets what named no table.
   */
  changed(payload: string): void {
    const colon = payload.indexOf(':');
    const table = colon < 0 ? payload : payload.slice(0, colon);
    const events = colon < 0 ? undefined : payload.slice(colon + 1);
    // Payloads name tables; anything else on the channel (a fence, by hand) must not grow the maps without bound.
    if (this.changedAt.size >= MAX_NAMES && !this.changedAt.has(table)) {
      this.changedAt.clear();
      this.clear();
      return;
    }
    const at = ++this.sequence;
    this.changedAt.set(table, at);
    for (const key of this.byTable.get(table) ?? []) this.remove(key);
    const ids = events === undefined || !/^(\d+(,\d+)*)?$/.test(events) ? undefined : events ? events.split(',') : [];
    if (ids === undefined) {
      this.wholeAt.set(table, at);
      for (const name of this.scopedNames.get(table) ?? [])
        for (const key of this.byTable.get(name) ?? []) this.remove(key);
    } else {
      if (this.eventChangedAt.size + ids.length > MAX_EVENT_CHANGES) {
        this.eventChangedAt.clear();
        this.eventFloor = at;
      }
      for (const id of ids) {
        const name = eventScoped(table, id.replace(/^0+(?=\d)/, ''));
        this.eventChangedAt.set(name, at);
        for (const key of this.byTable.get(name) ?? []) this.remove(key);
      }
    }
    this.forgetUndeclared();
    if (this.memoTables.has(table)) this.memos.clear();
  }

  /**
   * A fence for a write transaction of `request` to notify (`select pg_notify(channel, token)`) just
   * before its commit, ended with whether the transaction committed: the request's answer then waits
   * for that notification (`takeFence`) instead of a fence of its own. Undefined when not listening.
   */
  transactionFence(
    request: FastifyRequest,
  ): { channel: string; token: string; ended(committed: boolean): void } | undefined {
    const mark = this.fence?.mark();
    if (!mark) return undefined;
    return {
      channel: mark.channel,
      token: mark.token,
      ended: (committed) => {
        this.fenced.get(request)?.cancel();
        if (committed) this.fenced.set(request, mark);
        else {
          mark.cancel();
          this.fenced.delete(request);
        }
      },
    };
  }

  /** The fence of the request's last transaction, when it carried one and committed (see `transactionFence`). */
  takeFence(request: FastifyRequest): FenceMark | undefined {
    const mark = this.fenced.get(request);
    this.fenced.delete(request);
    return mark;
  }

  /** Forgets the answers that named no table (a write by this process may have changed any). */
  forgetUndeclared(): void {
    for (const key of this.undeclared) this.remove(key);
  }

  get size(): number {
    return this.entries.size;
  }

  /** What the kept answers and their keys take, in characters (the budget counts the same). */
  get used(): number {
    return this.bytes;
  }

  /**
   * Records that the answer of `request` reads `tables` (tables or views, by their PostgreSQL names,
   * or a table's rows of one event alone: `eventScoped`); called once or more per request, the entry
   * depends on the union. Without a call it depends on every table.
   */
  depends(request: FastifyRequest, tables: Iterable<string>): void {
    const pending = this.pending.get(request);
    if (!pending) return;
    pending.tables ??= new Set();
    for (const table of tables) for (const base of this.views.get(table) ?? [table]) pending.tables.add(base);
  }

  /** True when a change of one of `tables` (of any table when null) was seen after `start`. */
  private changedSince(tables: Iterable<string> | null, start: number): boolean {
    if (tables === null) return this.sequence !== start;
    if (this.clearedAt > start) return true;
    for (const name of tables) if (this.lastChange(name) > start) return true;
    return false;
  }

  /** The sequence number of the last change of what `name` (a table or an `eventScoped` name) reads. */
  private lastChange(name: string): number {
    const at = name.lastIndexOf('@');
    if (at < 0) return this.changedAt.get(name) ?? 0;
    const table = name.slice(0, at);
    return Math.max(this.wholeAt.get(table) ?? 0, this.eventChangedAt.get(name) ?? this.eventFloor);
  }

  /**
   * The memoized answer of a lookup (a token's caller and login, the caller's access to an event)
   * under `key`, or `load`'s answer, kept unless one of `tables` (those the lookup reads) changed
   * meanwhile. Only for lookups of committed data: a transaction's own uncommitted change would
   * outlive its rollback here.
   */
  async memo<T>(key: string, tables: readonly string[], load: () => Promise<T>): Promise<T> {
    if (this.memos.has(key)) return this.memos.get(key) as T;
    for (const table of tables) this.memoTables.add(table);
    const start = this.sequence;
    const value = await load();
    if (this.changedSince(tables, start)) return value;
    // Bounded like the answers: a flood of distinct tokens starts the memo over.
    if (this.memos.size >= MAX_MEMOS) this.memos.clear();
    this.memos.set(key, value);
    return value;
  }

  /**
   * Sends the kept answer of `request` (true), or notes what to keep once it is answered (false).
   * Call after authentication: the key names the caller.
   */
  answer(request: FastifyRequest, reply: FastifyReply): boolean {
    // What the answer was built from: the caller (see callerKey), the media type and the URL.
    const key = `${callerKey(request.caller)} ${request.headers.accept ?? ''} ${request.url}`;
    const entry = wantsFresh(request) ? undefined : this.entries.get(key);
    if (!entry) {
      this.answered.misses++;
      this.pending.set(request, { key, start: this.sequence, tables: null });
      return false;
    }
    this.answered.hits++;
    // Most recently used last: the oldest entries go first when the budget is full.
    this.entries.delete(key);
    this.entries.set(key, entry);
    entry.etag ??= etagOf(entry.payload);
    reply.code(200).type(entry.type).header('etag', entry.etag).send(entry.payload);
    return true;
  }

  /** Keeps the 200 answer of a pending read if none of its tables changed while it was computed. */
  keep(request: FastifyRequest, reply: FastifyReply, payload: unknown): void {
    const pending = this.pending.get(request);
    if (!pending || reply.statusCode !== 200 || typeof payload !== 'string') return;
    if (this.changedSince(pending.tables, pending.start)) return;
    const size = payload.length + pending.key.length;
    // One answer may take at most a sixteenth of the budget, so a few large lists cannot flush it.
    if (size > this.maxBytes / 16) return;
    this.remove(pending.key);
    const tables = pending.tables && [...pending.tables];
    this.entries.set(pending.key, {
      payload,
      type: String(reply.getHeader('content-type') ?? 'application/json'),
      tables,
    });
    this.bytes += size;
    if (!tables) this.undeclared.add(pending.key);
    for (const name of tables ?? []) {
      const keys = this.byTable.get(name);
      if (keys) keys.add(pending.key);
      else {
        this.byTable.set(name, new Set([pending.key]));
        const at = name.lastIndexOf('@');
        if (at >= 0) {
          const table = name.slice(0, at);
          const names = this.scopedNames.get(table);
          if (names) names.add(name);
          else this.scopedNames.set(table, new Set([name]));
        }
      }
    }
    for (const key of this.entries.keys()) {
      if (this.bytes <= this.maxBytes) break;
      this.remove(key);
    }
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.payload.length + key.length;
    if (!entry.tables) this.undeclared.delete(key);
    for (const name of entry.tables ?? []) {
      const keys = this.byTable.get(name)!;
      keys.delete(key);
      if (keys.size > 0) continue;
      this.byTable.delete(name);
      const at = name.lastIndexOf('@');
      if (at < 0) continue;
      const names = this.scopedNames.get(name.slice(0, at))!;
      names.delete(name);
      if (names.size === 0) this.scopedNames.delete(name.slice(0, at));
    }
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The read cache of this process, or null when READ_CACHE_MB is 0 or the process serves no HTTP. */
    readCache: ReadCache | null;
  }
  interface FastifyContextConfig {
    /** false: never cached (answers that depend on the time, such as statistics over the last days). */
    cache?: boolean;
  }
}

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * How long the answer of a write waits for its fence (see ChangeFence) before the cache is cleared
 * whole instead: the notification connection is down, or the database too slow to tell.
 */
const FENCE_TIMEOUT_MS = 2_000;

/**
 * The read cache (see ReadCache). Registered before the conditional-request plugin, so an answer is
 * kept before a matching `If-None-Match` turns it into a 304; the JSON:API plugin asks it after
 * negotiation and authentication.
 */
export default fp(
  async (app: FastifyInstance, options: { maxBytes: number; listen: boolean }) => {
    if (options.maxBytes <= 0 || !options.listen) {
      app.decorate('readCache', null);
      return;
    }
    const fence = new ChangeFence(app.sql, FENCE_TIMEOUT_MS);
    const cache = new ReadCache(options.maxBytes, fence);
    app.decorate('readCache', cache);
    app.addHook('onSend', async (request, reply, payload) => {
      if (SAFE.has(request.method)) {
        cache.keep(request, reply, payload);
        return payload;
      }
      // A write: what it changed is dropped before its answer leaves. Answers that named no table
      // go at once (a refused write drops them too, as it always has); the others once the
      // notifications of the write's transactions have come back: the fence its last transaction
      // carried, or one sent now.
      cache.forgetUndeclared();
      const carried = cache.takeFence(request);
      if (!(await (carried ? carried.passed() : fence.passed()))) cache.clear();
      return payload;
    });
    // Until the first notification connection stands, and after each reconnection (notifications
    // may have been missed meanwhile), the cache starts empty.
    app.addHook('onReady', async () => {
      cache.views = await loadViewTables(app.sql);
      await app.sql.listen(
        CHANGE_CHANNEL,
        (payload) => cache.changed(payload),
        () => cache.clear(),
      );
      await fence.listen();
    });
  },
  { name: 'read-cache', dependencies: ['db'] },
);
