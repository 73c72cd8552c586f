/**
 * Runs one blueprint transaction against the world: the state its example assumes (a fresh record for an
 * example that deletes one, the hooks below), the request, and the verdict.
 */
import type { FastifyInstance } from 'fastify';
import type { Transaction } from './apib.js';
import { compareBodies, type Finding } from './compare.js';
import { knownDifference, waitingMember } from './expectations.js';
import { BEFORE } from './hooks.js';
import { buildRequest } from './rewrite.js';
import { KINDS, type BlueprintWorld } from './world.js';

export type Cause = 'status mismatch' | 'missing member' | 'error';

export interface Outcome {
  status?: number;
  /** Undefined when the transaction passes. */
  cause?: Cause;
  /** Why it fails, in one line. */
  why?: string;
  /** The findings behind a missing-member failure. */
  findings: Finding[];
  /** Members of the example that wait for a later issue. */
  waitingMembers: string[];
  /** Findings that are known differences (expectations.ts KNOWN_MEMBER_DIFFERENCES). */
  known: string[];
  /** A 422 for a member a later issue adds: the transaction waits for it. */
  waitingOn?: string;
  /** The request as sent (for the failure report). */
  request?: { method: string; url: string };
  /** Our first error's detail (and pointer), when we answered an error. */
  error?: string;
}

/** Transactions sent without the administrator's token, as the hooks blank it: logging in. */
const ANONYMOUS = /^Authentication > JWT Authentication > /;

/** The collection whose record a DELETE example removes, when the world has a recipe for it. */
function deletedCollection(tx: Transaction): string | undefined {
  if (tx.method !== 'DELETE') return undefined;
  const m = /\/([a-z-]+)\/\{[^}]+\}$/.exec(tx.uri);
  return m && KINDS[m[1]!] ? m[1] : undefined;
}

/** The collection a POST example creates a record of, when the world has a recipe for it. */
function createdCollection(tx: Transaction): string | undefined {
  if (tx.method !== 'POST') return undefined;
  const m = /^\/v1\/([a-z-]+)(\{\?[^}]*\})?$/.exec(tx.uri);
  return m && KINDS[m[1]!] ? m[1] : undefined;
}

/**
 * Records a created one needs fresh, as each example ran on a database of its own in the reference's run: an event
 * holds one copyright, call for speakers, tax and Stripe link; a user rates and favourites a session once.
 */
async function freshFor(world: BlueprintWorld, tx: Transaction): Promise<Map<string, string>> {
  const fresh = new Map<string, string>();
  const deleted = deletedCollection(tx);
  if (deleted) fresh.set(deleted, await world.fresh(deleted));
  const created = createdCollection(tx);
  if (created && KINDS[created]!.onePerEvent) fresh.set('events', await KINDS.events!.make(world, ''));
  if (created === 'feedbacks' || created === 'user-favourite-sessions')
    fresh.set('sessions', await world.fresh('sessions'));
  return fresh;
}

/** Removes what a POST example created, so that the world again holds one record of each kind. */
async function removeCreated(app: FastifyInstance, world: BlueprintWorld, tx: Transaction, body: any) {
  const created = createdCollection(tx);
  const id = body?.data?.id;
  if (!created || typeof id !== 'string') return;
  await app.inject({ method: 'DELETE', url: `/v1/${created}/${id}`, headers: { authorization: `JWT ${world.token}` } });
}

const pointerOf = (body: any): string | undefined => body?.errors?.[0]?.source?.pointer;

/** The details (and pointers) of our error document's first errors. */
const firstError = (body: any): string | undefined => {
  const errors: any[] = Array.isArray(body?.errors) ? body.errors : [];
  if (!errors.length) return undefined;
  const shown = errors.slice(0, 3).map((e) => {
    const where = e.source?.pointer ?? e.source?.parameter;
    return `${e.detail ?? e.title ?? ''}${where ? ` (${where})` : ''}`;
  });
  return `${shown.join('; ')}${errors.length > 3 ? `; and ${errors.length - 3} more errors` : ''}`;
};

export async function replay(app: FastifyInstance, world: BlueprintWorld, tx: Transaction): Promise<Outcome> {
  const outcome: Outcome = { findings: [], waitingMembers: [], known: [] };
  let request: ReturnType<typeof buildRequest>;
  try {
    const prepared = (await BEFORE[tx.name]?.(world)) ?? {};
    const fresh = await freshFor(world, tx);
    request = buildRequest(world, tx, { anonymous: ANONYMOUS.test(tx.name), fresh, prepared });
  } catch (err) {
    return { ...outcome, cause: 'error', why: `preparing the world: ${(err as Error).message.slice(0, 300)}` };
  }
  outcome.request = { method: request.method, url: request.url };
  const res = await app.inject({
    method: request.method as 'GET',
    url: request.url,
    headers: request.headers,
    ...(request.payload !== undefined ? { payload: request.payload } : {}),
  });
  outcome.status = res.statusCode;
  let body: unknown;
  try {
    body = res.body ? JSON.parse(res.body) : undefined;
  } catch {
    body = undefined;
  }
  outcome.error = firstError(body);
  if (res.statusCode === 201) await removeCreated(app, world, tx, body);
  let sent: unknown;
  try {
    sent = typeof request.payload === 'string' ? JSON.parse(request.payload) : undefined;
  } catch {
    sent = undefined;
  }
  const expected = tx.response.status;
  if (res.statusCode !== expected) {
    const detail = outcome.error ?? res.body.slice(0, 160);
    // Refused for a member a later issue adds: the transaction waits for that issue.
    const member = /^\/data\/(?:attributes|relationships)\/([^/]+)$/.exec(pointerOf(body) ?? '')?.[1];
    const type = typeof sent === 'object' ? String((sent as any)?.data?.type ?? '') : '';
    const later = member && res.statusCode === 422 ? waitingMember(type, member) : undefined;
    if (later) outcome.waitingOn = `${type} ${member} (issue ${later.issue})`;
    return { ...outcome, cause: 'status mismatch', why: `${res.statusCode}, the example's ${expected}: ${detail}` };
  }
  let example: unknown;
  try {
    example = tx.response.body ? JSON.parse(tx.response.body) : undefined;
  } catch {
    example = undefined;
  }
  if (example === undefined) return outcome;
  if (body === undefined && res.body) return { ...outcome, cause: 'missing member', why: 'our answer is not JSON' };
  const compared = compareBodies(example, body, sent);
  outcome.waitingMembers = compared.waiting;
  const missing = compared.missing.filter((f) => {
    const known = knownDifference(tx.name, f.path);
    if (known) outcome.known.push(`${f.path} (${known.kind})`);
    return !known;
  });
  if (!missing.length) return outcome;
  const shown = missing.slice(0, 4).map((f) => `${f.path} ${f.problem}`);
  return {
    ...outcome,
    cause: 'missing member',
    findings: missing,
    why: `${shown.join('; ')}${missing.length > 4 ? `; and ${missing.length - 4} more` : ''}`,
  };
}
