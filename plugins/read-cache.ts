import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/** The channel the database's change triggers notify (migration 0010), once per changed table and transaction. */
export const CHANGE_CHANNEL = 'oe_change';

/** `Cache-Control: no-cache` (or no-store) on a request: answer it from the database. */
export const wantsFresh = (request: FastifyRequest) => /\bno-(cache|store)\b/i.test(request.headers['cache-control'] ?? '');

/** Accounts memoized at most (a few hundred bytes each). */
const MAX_CALLERS = 10_000;

interface Entry {
  payload: string;
  type: string;
}

interface Pending {
  key: string;
  generation: number;
}

/**
 * Answers of one API process to JSON:API reads, kept until anything in the database changes. Each
 * entry is keyed by the caller, the Accept header and the URL. Every committed change of an
 * application table notifies `oe_change` (statement triggers, whichever process or worker wrote),
 * and every write request this process answers clears the cache before its answer leaves, so a
 * client reads its own writes here at once and other processes' writes as soon as their
 * notification arrives (milliseconds). An answer computed while the generation moved on is not
 * kept. The caller lookup of a token is memoized under the same rule (a deleted or demoted account
 * is a change). `Cache-Control: no-cache` on a request skips both lookups.
 */
export class ReadCache {
  private entries = new Map<string, Entry>();
  private callers = new Map<string, unknown>();
  private bytes = 0;
  private generation = 0;
  private pending = new WeakMap<FastifyRequest, Pending>();

  constructor(private readonly maxBytes: number) {}

  /** Forgets everything (a change was committed, or the notifications may have been missed). */
  clear(): void {
    this.generation++;
    this.entries.clear();
    this.callers.clear();
    this.bytes = 0;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The memoized caller of a token (its account and login), or `load`'s answer, kept unless a change came meanwhile. */
  async caller<T>(key: string, load: () => Promise<T>): Promise<T> {
    if (this.callers.has(key)) return this.callers.get(key) as T;
    const generation = this.generation;
    const caller = await load();
    if (generation !== this.generation) return caller;
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
    const key = `${request.caller?.id ?? 0} ${request.headers.accept ?? ''} ${request.url}`;
    const entry = wantsFresh(request) ? undefined : this.entries.get(key);
    if (!entry) {
      this.pending.set(request, { key, generation: this.generation });
      return false;
    }
    // Most recently used last: the oldest entries go first when the budget is full.
    this.entries.delete(key);
    this.entries.set(key, entry);
    reply.code(200).type(entry.type).send(entry.payload);
    return true;
  }

  /** Keeps the 200 answer of a pending read if nothing changed while it was computed. */
  keep(request: FastifyRequest, reply: FastifyReply, payload: unknown): void {
    const pending = this.pending.get(request);
    if (!pending || reply.statusCode !== 200 || typeof payload !== 'string') return;
    if (pending.generation !== this.generation) return;
    const size = payload.length + pending.key.length;
    // One answer may take at most a sixteenth of the budget, so a few large lists cannot flush it.
    if (size > this.maxBytes / 16) return;
    const previous = this.entries.get(pending.key);
    if (previous) this.bytes -= previous.payload.length + pending.key.length;
    this.entries.delete(pending.key);
    this.entries.set(pending.key, { payload, type: String(reply.getHeader('content-type') ?? 'application/json') });
    this.bytes += size;
    for (const [key, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(key);
      this.bytes -= entry.payload.length + key.length;
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
    app.decorate('readCache', cache);
    app.addHook('onSend', async (request, reply, payload) => {
      if (!SAFE.has(request.method)) cache.clear();
      else cache.keep(request, reply, payload);
      return payload;
    });
    // Until the first notification connection stands, and after each reconnection (notifications
    // may have been missed meanwhile), the cache starts empty.
    app.addHook('onReady', async () => {
      await app.sql.listen(CHANGE_CHANNEL, () => cache.clear(), () => cache.clear());
    });
  },
  { name: 'read-cache', dependencies: ['db'] },
);
