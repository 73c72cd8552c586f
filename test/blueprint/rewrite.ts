/**
 * An example request made concrete: its URI template filled with the example's parameter values, then every id
 * the examples assume (record 1 of each kind, user 2) replaced by the seeded world's, in the URL and in the body.
 */
import { expandUri, type Transaction } from './apib.js';
import type { Prepared } from './hooks.js';
import { collectionOfType, KINDS, type BlueprintWorld } from './world.js';

export interface Request {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
  /** The record the URL names last (a PATCH body's `data.id` becomes it). */
  target?: string;
}

const MARK = '\u0000';
/** Marks a value a hook gave: the URL keeps it as given. */
const KEEP = '\u0001';

/** URL segments of the examples that name a collection otherwise (`/v1/tax/{tax_id}/event`). */
const ALIASES: Record<string, string> = { tax: 'taxes', event: 'events' };

/** Our id for record `example` of `collection` (the examples' user 2 is the world's second user). */
function idOf(world: BlueprintWorld, collection: string, example: string, fresh?: Map<string, string>): string {
  const made = fresh?.get(collection);
  if (made !== undefined) return made;
  if (collection === 'users') return example === '2' ? world.user.id : world.admin.id;
  if (collection === 'orders') return world.orderIdentifier;
  return world.id(collection);
}

/**
 * The URL with the world's ids: a value that fills a `{parameter}`, or a number written in the template, after a
 * collection the world holds (`/v1/tracks/{track_id}`, `/v1/events/1/...`). Lists are asked for page 1 (see
 * docs/blueprint.md: the examples' page 2 would be empty here as it was in the reference's run).
 */
export function rewriteUrl(
  world: BlueprintWorld,
  tx: Transaction,
  fresh?: Map<string, string>,
  given: Record<string, string> = {},
) {
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(tx.parameters)) values[name] = `${MARK}${value}${MARK}`;
  for (const [name, value] of Object.entries(given)) values[name] = `${KEEP}${value}${KEEP}`;
  // Query parameters are expanded by the operator form, path ones by the simple form: mark only the latter.
  const query = new Set([...tx.uri.matchAll(/\{[?&]([^}]+)\}/g)].flatMap((m) => m[1]!.split(',')));
  for (const name of query) if (tx.parameters[name] !== undefined) values[name] = tx.parameters[name]!;
  if (values['page%5bnumber%5d'] !== undefined) values['page%5bnumber%5d'] = '1';
  const expanded = expandUri(tx.uri, values)
    .replaceAll(encodeURIComponent(MARK), MARK)
    .replaceAll(encodeURIComponent(KEEP), KEEP);
  const [path, search] = expanded.split(/\?(.*)/s, 2) as [string, string | undefined];
  const segments = path.split('/');
  let target: string | undefined;
  for (let i = 1; i < segments.length; i++) {
    const segment = segments[i]!;
    if (segment.startsWith(KEEP)) {
      segments[i] = segment.replaceAll(KEEP, '');
      continue;
    }
    const marked = segment.startsWith(MARK);
    const example = segment.replaceAll(MARK, '');
    const collection = ALIASES[segments[i - 1]!] ?? segments[i - 1]!;
    if ((marked || /^\d+$/.test(example)) && (KINDS[collection] || collection === 'roles')) {
      target = idOf(world, collection, decodeURIComponent(example), fresh);
      segments[i] = encodeURIComponent(target);
    } else segments[i] = example;
  }
  return { url: segments.join('/') + (search !== undefined ? `?${search}` : ''), target };
}

/** The body with the world's ids in every `{type, id}` it holds; a PATCH's primary data names the URL's record. */
export function rewriteBody(
  world: BlueprintWorld,
  body: unknown,
  target?: string,
  fresh?: Map<string, string>,
): unknown {
  const walk = (value: unknown, primary: boolean): unknown => {
    if (Array.isArray(value)) return value.map((v) => walk(v, false));
    if (!value || typeof value !== 'object') return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = walk(v, false);
    const { type, id } = out as { type?: unknown; id?: unknown };
    if (typeof type === 'string' && typeof id === 'string') {
      const collection = type === 'role' ? 'roles' : collectionOfType.get(type);
      if (primary && target !== undefined) out.id = target;
      else if (collection) out.id = idOf(world, collection, id, fresh);
    }
    return out;
  };
  if (!body || typeof body !== 'object' || Array.isArray(body)) return walk(body, false);
  const { data, ...rest } = body as Record<string, unknown>;
  const out: Record<string, unknown> = { ...(walk(rest, false) as object) };
  if (data !== undefined) out.data = walk(data, true);
  return out;
}

/** The transaction's request against the world, authenticated as the administrator unless `anonymous`. */
export function buildRequest(
  world: BlueprintWorld,
  tx: Transaction,
  options: { fresh?: Map<string, string>; prepared?: Prepared; anonymous?: boolean } = {},
): Request {
  const { fresh, prepared = {} } = options;
  const rewritten = rewriteUrl(world, tx, fresh, prepared.parameters);
  const { target } = rewritten;
  const url = prepared.url ? prepared.url(rewritten.url) : rewritten.url;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries({ ...tx.request.headers, ...prepared.headers }))
    if (name.toLowerCase() !== 'authorization') headers[name.toLowerCase()] = value;
  const token = prepared.token !== undefined ? prepared.token : options.anonymous ? null : world.token;
  if (token) headers.authorization = `JWT ${token}`;
  const text = tx.request.body;
  let payload: string | Buffer | undefined = text;
  if (text !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Not JSON: a multipart example, whose lines end in CRLF on the wire.
      payload = prepared.raw ? prepared.raw(text) : text.replace(/\r?\n/g, '\r\n');
    }
    if (parsed !== undefined) {
      const body = rewriteBody(world, parsed, target, fresh);
      payload = JSON.stringify(prepared.body ? prepared.body(body) : body);
    }
  }
  return { method: tx.method, url, headers, payload, target };
}
