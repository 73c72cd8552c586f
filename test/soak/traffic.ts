import { bodyOf, requestHeaders } from '../bench/measure.js';
import type { BenchRequest } from '../bench/paths.js';

/** One request of the soak: a bench request whose `status` (default 200) is the only answer it accepts. */
export interface SoakRequest extends BenchRequest {
  /** Sent as `Authorization: JWT <token>` instead of the super admin's (`auth` still applies). */
  token?: string;
  /** Groups the request in the error report; defaults to the method and the path with ids as `{id}`. */
  name?: string;
}

/** A request slower than this is counted as an error (the machine is slow and shared, so generously). */
const TIMEOUT_MS = 60_000;
/** Errors printed in full as they happen; later ones are only counted. */
const PRINTED_ERRORS = 20;

const nameOf = (req: SoakRequest) =>
  req.name ?? `${req.method ?? 'GET'} ${req.path.replace(/\?.*$/, '').replace(/\/\d+(?=\/|$)/g, '/{id}')}`;

/** The client side of the soak: sends requests, checks each answer's status, counts requests, errors and latencies. */
export class Traffic {
  requests = 0;
  errors = 0;
  /** Errors by request name and what went wrong. */
  readonly errorKinds = new Map<string, number>();
  private intervalLatencies: number[] = [];

  constructor(
    private readonly origin: string,
    private readonly adminToken: string,
    private readonly startedAt: number,
  ) {}

  /** Sends `req`; answers the response when its status is the expected one, otherwise counts an error and answers undefined. */
  private async send(req: SoakRequest): Promise<Response | undefined> {
    const started = performance.now();
    const expected = req.status ?? 200;
    let failure: string;
    let detail = '';
    try {
      const res = await fetch(this.origin + req.path, {
        method: req.method ?? 'GET',
        headers: requestHeaders(req, req.token ?? this.adminToken),
        body: bodyOf(req),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      if (res.status === expected) {
        this.count(started);
        return res;
      }
      failure = `status ${res.status} (expected ${expected})`;
      detail = (await res.text()).slice(0, 300);
    } catch (err) {
      failure =
        (err as Error).name === 'TimeoutError'
          ? `no answer within ${TIMEOUT_MS / 1000} s`
          : `connection error: ${(err as Error).message}`;
      detail = String((err as { cause?: unknown }).cause ?? '');
    }
    this.count(started);
    this.fail(nameOf(req), failure, `${req.method ?? 'GET'} ${req.path}${detail ? `: ${detail}` : ''}`);
    return undefined;
  }

  /** Sends `req` and answers its JSON body when the status is the expected one. */
  json<T>(req: SoakRequest): Promise<T | undefined> {
    return this.read(req, (res) => res.json() as Promise<T>);
  }

  /** Sends `req` and reads its whole body (a status other than the expected one is counted as an error). */
  async ok(req: SoakRequest): Promise<void> {
    await this.read(req, (res) => res.arrayBuffer());
  }

  private async read<T>(req: SoakRequest, body: (res: Response) => Promise<T>): Promise<T | undefined> {
    const res = await this.send(req);
    if (!res) return undefined;
    try {
      return await body(res);
    } catch (err) {
      this.fail(nameOf(req), 'unreadable body', `${req.method ?? 'GET'} ${req.path}: ${(err as Error).message}`);
      return undefined;
    }
  }

  /** Counts an error found beyond the status (a task that ended FAILED, a body without the expected field). */
  fail(name: string, what: string, detail: string) {
    this.errors++;
    const kind = `${name}: ${what}`;
    this.errorKinds.set(kind, (this.errorKinds.get(kind) ?? 0) + 1);
    if (this.errors <= PRINTED_ERRORS) {
      const at = ((performance.now() - this.startedAt) / 1000).toFixed(1);
      console.log(`  ! error at ${at} s: ${kind}; ${detail.replace(/\s+/g, ' ')}`);
      if (this.errors === PRINTED_ERRORS) console.log('  ! further errors are only counted');
    }
  }

  /** The latencies (ms) of the requests answered since the last call. */
  takeLatencies(): number[] {
    const latencies = this.intervalLatencies;
    this.intervalLatencies = [];
    return latencies;
  }

  private count(started: number) {
    this.requests++;
    this.intervalLatencies.push(performance.now() - started);
  }
}
