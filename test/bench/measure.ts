import autocannon from 'autocannon';
import type { BenchRequest } from './paths.js';

export const JSONAPI = 'application/vnd.api+json';

export interface LoadOptions {
  seconds: number;
  connections: number;
  /** Worker threads firing the requests (0: autocannon shares the server's event loop, which skews it). */
  workers: number;
}

/** One autocannon run. */
export interface Sample {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
}

export function requestHeaders(req: BenchRequest, token: string): Record<string, string> {
  return {
    accept: JSONAPI,
    ...(req.auth === false ? {} : { authorization: `JWT ${token}` }),
    ...(req.body !== undefined ? { 'content-type': req.contentType ?? JSONAPI } : {}),
    ...req.headers,
  };
}

export const bodyOf = (req: BenchRequest) =>
  req.body === undefined ? undefined : typeof req.body === 'string' ? req.body : JSON.stringify(req.body);

/** Sends `req` once (outside autocannon) and answers status and text, checking the expected status. */
export async function probe(origin: string, req: BenchRequest, token: string) {
  const res = await fetch(origin + req.path, {
    method: req.method ?? 'GET',
    headers: requestHeaders(req, token),
    body: bodyOf(req),
  });
  const text = await res.text();
  if (res.status !== (req.status ?? 200)) {
    throw new Error(
      `${req.method ?? 'GET'} ${req.path}: expected ${req.status ?? 200}, got ${res.status}: ${text.slice(0, 500)}`,
    );
  }
  return { status: res.status, text };
}

/** Loads `req` for `seconds` with `connections` connections; every response must have the expected status. */
export async function load(origin: string, req: BenchRequest, token: string, options: LoadOptions): Promise<Sample> {
  const result = await autocannon({
    url: origin + req.path,
    method: req.method ?? 'GET',
    headers: requestHeaders(req, token),
    body: bodyOf(req),
    connections: options.connections,
    duration: options.seconds,
    ...(options.workers > 0 ? { workers: options.workers } : {}),
  });
  const expected = String(req.status ?? 200);
  const statuses = Object.keys(result.statusCodeStats ?? {});
  if (result.errors > 0 || result.timeouts > 0 || statuses.some((s) => s !== expected)) {
    throw new Error(
      `${req.method ?? 'GET'} ${req.path}: ${result.errors} errors, ${result.timeouts} timeouts, ` +
        `status codes ${JSON.stringify(result.statusCodeStats)} (expected only ${expected})`,
    );
  }
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
  };
}

/**
 * Loads a fixed sequence of requests: each connection sends them in turn, again and again (so the mix
 * holds exactly, whatever each costs). `setupRequest` is the absolute path of a module whose default
 * export rewrites a request before it goes (autocannon's worker thread requires it).
 */
export async function loadSequence(
  origin: string,
  requests: (BenchRequest & { setupRequest?: string })[],
  token: string,
  options: LoadOptions,
): Promise<Sample> {
  const result = await autocannon({
    url: origin,
    requests: requests.map((req) => ({
      method: req.method ?? 'GET',
      path: req.path,
      headers: requestHeaders(req, token),
      ...(req.body !== undefined ? { body: bodyOf(req) } : {}),
      ...(req.setupRequest ? { setupRequest: req.setupRequest } : {}),
    })),
    connections: options.connections,
    duration: options.seconds,
    ...(options.workers > 0 ? { workers: options.workers } : {}),
  } as autocannon.Options);
  const statuses = Object.keys(result.statusCodeStats ?? {});
  if (result.errors > 0 || result.timeouts > 0 || statuses.some((s) => s !== '200')) {
    throw new Error(
      `mixed run: ${result.errors} errors, ${result.timeouts} timeouts, status codes ${JSON.stringify(result.statusCodeStats)} (expected only 200)`,
    );
  }
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
  };
}

/** Calls `task` with `concurrency` calls in flight for `seconds`: completions per second and latency. */
export async function loadCalls(task: () => Promise<unknown>, seconds: number, concurrency: number): Promise<Sample> {
  const times: number[] = [];
  const started = performance.now();
  const end = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const t = performance.now();
        await task();
        times.push(performance.now() - t);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const sorted = times.sort((a, b) => a - b);
  const at = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0);
  return { rps: times.length / elapsed, p50: at(0.5), p99: at(0.99), requests: times.length };
}

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
