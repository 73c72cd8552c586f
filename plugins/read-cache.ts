import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ChangeFence, loadViewTables } from './read-cache-feed.js';

/** The channel the database's change triggers notify (migration 0010), once per changed table and transaction. */
export const CHANGE_CHANNEL = 'oe_change';

/** `Cache-Control: no-cache` (or no-store) on a request: answer it from the database. */
export const wantsFresh = (request: FastifyRequest) => /\bno-(cache|store)\b/i.test(request.headers['cache-control'] ?? '');

/**
 * What a read's statements may embed of its caller: the id and every right and address (a demoted
 * administrator or a changed email is another key, never what was kept for the old account).
 */
export const callerKey = (caller: { id: number; email: string; isAdmin: boolean; isSuperAdmin: boolean } | null) =>
  caller ? `${caller.id}:${caller.isAdmin ? 1 : 0}${caller.isSuperAdmin ? 1 : 0}:${caller.email}` : '0';

/** Accounts memoized at most (a few hundred bytes each). */
const MAX_CALLERS = 10_000;
/** Distinct change payloads remembered at most (there are fewer than a hundred tables). */
const MAX_NAMES = 1_000;

interface Entry {
  payload: string;
  type: string;
  /** The base tables the answer read; null: it named none, so it depends on every table. */
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
 * entries that read it; the answer of a write request this process serves leaves only once the
 * notifications of what it committed have been handled here (the plugin's fence), so a client reads
 * its own writes here at once and other processes' writes as soon as their notification arrives
 * (milliseconds). An answer whose computation overlapped a change of one of its tables (of any
 * table, when it named none) is not kept. The caller lookup of a token is memoized under the same
 * rule over the tables the lookup reads (a deleted or demoted account, an ended login, is a change).
 * `Cache-Control: no-cache` on a request skips both lookups.
 */
export class ReadCache {
  private entries = new Map<string, Entry>();
  /** The keys of the entries that read each base table, and of those that named no table. */
  private byTable = new Map<string, Set<string>>();
  private undeclared = new Set<string>();
  private callers = new Map<string, unknown>();
  /** The tables the memoized caller lookups read. */
  private callerTables = new Set<string>();
  private bytes = 0;
  /** Counts changes; `changedAt` holds each table's last, `clearedAt` the last time everything went. */
  private sequence = 0;
  private changedAt = new Map<string, number>();
  private clearedAt = 0;
  private pending = new WeakMap<FastifyRequest, Pending>();
  /** The base tables of each view (see `loadViewTables`). */
  views = new Map<string, string[]>();

  constructor(private readonly maxBytes: number) {}

  /** Forgets everything (the notifications may have been missed, or a change cannot be told apart). */
  clear(): void {
    this.clearedAt = ++this.sequence;
    this.entries.clear();
    this.byTable.clear();
    this.undeclared.clear();
    this.callers.clear();
    this.bytes = 0;
  }

  /** A change of `table` was committed: forgets what read it, and what named no table. */
  changed(table: string): void {
    // Payloads are table names; anything else on the channel (a fence, by hand) must not grow the map without bound.
    if (this.changedAt.size >= MAX_NAMES && !this.changedAt.has(table)) {
      this.changedAt.clear();
      this.clear();
      return;
    }
    this.changedAt.set(table, ++this.sequence);
    for (const key of this.byTable.get(table) ?? []) this.remove(key);
    this.forgetUndeclared();
    if (this.callerTables.has(table)) this.callers.clear();
  }

  /** Forgets the answers that named no table (a write by this process may have changed any). */
  forgetUndeclared(): void {
    for (const key of this.undeclared) this.remove(key);
  }

  get size(): number {
    return this.entries.size;
  }

  /**
   * Records that the answer of `request` reads `tables` (tables or views, by their PostgreSQL names);
   * called once or more per request, the entry depends on the union. Without a call it depends on
   * every table.
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
    for (const table of tables) if ((this.changedAt.get(table) ?? 0) > start) return true;
    return false;
  }

  /**
   * The memoized caller of a token (its account and login), or `load`'s answer, kept unless one of
   * `tables` (those the lookup reads) changed meanwhile.
   */
  async caller<T>(key: string, tables: readonly string[], load: () => Promise<T>): Promise<T> {
    if (this.callers.has(key)) return this.callers.get(key) as T;
    for (const table of tables) this.callerTables.add(table);
    const start = this.sequence;
    const caller = await load();
    if (this.changedSince(tables, start)) return caller;
    // Bounded like the answers: a flood of distinct tokens starts the memo over.
    if (this.callers.size >= MAX_CALLERS) this.callers.clear();
    this.callers.set(key, caller);
    return caller;
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
      this.pending.set(request, { key, start: this.sequence, tables: null });
      return false;
    }
    // Most recently used last: the oldest entries go first when the budget is full.
    this.entries.delete(key);
    this.entries.set(key, entry);
    reply.code(200).type(entry.type).send(entry.payload);
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
    this.entries.set(pending.key, { payload, type: String(reply.getHeader('content-type') ?? 'application/json'), tables });
    this.bytes += size;
    if (!tables) this.undeclared.add(pending.key);
    for (const table of tables ?? []) {
      const keys = this.byTable.get(table);
      if (keys) keys.add(pending.key);
      else this.byTable.set(table, new Set([pending.key]));
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
    for (const table of entry.tables ?? []) {
      const keys = this.byTable.get(table)!;
      keys.delete(key);
      if (keys.size === 0) this.byTable.delete(table);
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
    const cache = new ReadCache(options.maxBytes);
    const fence = new ChangeFence(app.sql, FENCE_TIMEOUT_MS);
    app.decorate('readCache', cache);
    app.addHook('onSend', async (request, reply, payload) => {
      if (SAFE.has(request.method)) {
        cache.keep(request, reply, payload);
        return payload;
      }
      // A write: what it changed is dropped before its answer leaves. Answers that named no table
      // go at once (a refused write drops them too, as it always has); the others once the
      // notifications of the write's transactions have come back.
      cache.forgetUndeclared();
      if (!(await fence.passed())) cache.clear();
      return payload;
    });
    // Until the first notification connection stands, and after each reconnection (notifications
    // may have been missed meanwhile), the cache starts empty.
    app.addHook('onReady', async () => {
      cache.views = await loadViewTables(app.sql);
      await app.sql.listen(CHANGE_CHANNEL, (table) => cache.changed(table), () => cache.clear());
      await fence.listen();
    });
  },
  { name: 'read-cache', dependencies: ['db'] },
);
