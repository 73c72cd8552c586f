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
    throw new Error(`${req.method ?? 'GET'} ${req.path}: expected ${req.status ?? 200}, got ${res.status}: ${text.slice(0, 500)}`);
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
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, requests: result.requests.total };
}

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
