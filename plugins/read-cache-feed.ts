import { randomBytes } from 'node:crypto';
import type postgres from 'postgres';

/**
 * The base tables each view of the public schema reads, views over views followed down, from the
 * catalog: a change notification names a base table (views have no triggers), and a cached answer
 * that read a view must go when one of them changes.
 */
export async function loadViewTables(sql: postgres.Sql): Promise<Map<string, string[]>> {
  // A view's query is its _RETURN rule; the rule depends on every relation the query names (and on
  // the view itself, left out).
  const rows = await sql<{ view: string; used: string; kind: string }[]>`
    select distinct v.relname as view, u.relname as used, u.relkind::text as kind
    from pg_class v
    join pg_rewrite r on r.ev_class = v.oid
    join pg_depend d on d.classid = 'pg_rewrite'::regclass and d.objid = r.oid and d.refclassid = 'pg_class'::regclass and d.refobjid <> v.oid
    join pg_class u on u.oid = d.refobjid
    where v.relkind = 'v' and v.relnamespace = 'public'::regnamespace`;
  const uses = new Map<string, string[]>();
  for (const { view, used } of rows) uses.set(view, [...(uses.get(view) ?? []), used]);
  const bases = (name: string, seen: Set<string>): string[] => {
    if (!uses.has(name)) return [name];
    if (seen.has(name)) return [];
    seen.add(name);
    return uses.get(name)!.flatMap((used) => bases(used, seen));
  };
  return new Map([...uses.keys()].map((view) => [view, [...new Set(bases(view, new Set()))].sort()]));
}

/**
 * A round trip through this process's LISTEN connection: `passed()` notifies a channel only this
 * process listens to and waits until that notification comes back. PostgreSQL delivers
 * notifications in commit order over one queue, so by then every change notification of a
 * transaction committed before the call has been handled here. A transaction can carry the
 * notification itself (`mark()`): sent just before its commit, it comes back after the
 * transaction's own change notifications, with no round trip of its own.
 */
export class ChangeFence {
  readonly channel = `oe_read_cache_${randomBytes(8).toString('hex')}`;
  private listening = false;
  private sent = 0;
  private waiting = new Map<string, () => void>();

  constructor(
    private readonly sql: postgres.Sql,
    private readonly timeoutMs: number,
  ) {}

  /** Starts listening (on the connection the change channel's listener uses: postgres.js has one per client). */
  async listen(): Promise<void> {
    await this.sql.listen(
      this.channel,
      (payload) => {
        this.waiting.get(payload)?.();
        this.waiting.delete(payload);
      },
      () => void (this.listening = true),
    );
  }

  /** True once everything committed before the call has been notified here; false when that cannot be told in time. */
  async passed(): Promise<boolean> {
    const mark = this.mark();
    if (!mark) return false;
    return mark.passed(this.sql`select pg_notify(${mark.channel}, ${mark.token})`);
  }

  /**
   * A notification to send (`select pg_notify(channel, token)`) in a transaction; `passed()` once
   * it has been sent and committed, `cancel()` when it will never come (the transaction failed).
   * Undefined when not listening.
   */
  mark(): FenceMark | undefined {
    if (!this.listening) return undefined;
    const token = String(++this.sent);
    let came = () => {};
    const arrived = new Promise<boolean>((resolve) => (came = () => resolve(true)));
    this.waiting.set(token, came);
    const cancel = () => void this.waiting.delete(token);
    return {
      channel: this.channel,
      token,
      cancel,
      passed: async (sent = Promise.resolve()) => {
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<boolean>((resolve) => {
          timer = setTimeout(() => resolve(false), this.timeoutMs);
          timer.unref();
        });
        try {
          return await Promise.race([
            sent.then(
              () => arrived,
              () => false,
            ),
            late,
          ]);
        } finally {
          clearTimeout(timer);
          cancel();
        }
      },
    };
  }
}

/** One notification of a ChangeFence (see `mark`). */
export interface FenceMark {
  channel: string;
  token: string;
  /** True once the notification has come back, after `sent` (its statement) succeeded; false when not in time. */
  passed(sent?: Promise<unknown>): Promise<boolean>;
  cancel(): void;
}
