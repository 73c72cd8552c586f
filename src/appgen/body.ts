import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * What the generator's callers send, read whatever media type they declare: the reference reads
 * `php://input` as JSON (api.php) or forces JSON (`/api/v2/generate`), and its web form posts
 * multipart. So in this plugin (and only here: Fastify keeps parsers per plugin, so `/v1` still answers
 * 415 to a wrong type) every body arrives as bytes, bounded by the route's body limit.
 */
export function acceptAnyBody(app: FastifyInstance) {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
}

/** The media types the generator's callers send (the OpenAPI document lists these); any other is read as JSON too. */
export const CONSUMES = ['application/json', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data'];

/** A body the generator cannot read at all: malformed JSON or a broken multipart form (400). */
export class UnreadableBody extends Error {}

const mediaTypeOf = (request: FastifyRequest) =>
  (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();

/** Form fields as members: text fields by name (the first of repeated names), file parts as `{ filename }`. */
function membersOf(entries: Iterable<[string, FormDataEntryValue]>): Record<string, unknown> {
  const members: Record<string, unknown> = {};
  for (const [name, value] of entries) {
    if (Object.hasOwn(members, name)) continue;
    members[name] = typeof value === 'string' ? value : { filename: value.name };
  }
  return members;
}

/**
 * The body as a value: a multipart form and a urlencoded form as an object of their fields (a urlencoded
 * body whose text is JSON is that JSON, as the reference reads it), any other media type (or none) as
 * JSON; `undefined` when there is no body.
 */
export async function readBody(request: FastifyRequest): Promise<unknown> {
  const raw = request.body;
  if (!Buffer.isBuffer(raw) || raw.length === 0) return undefined;
  const type = mediaTypeOf(request);
  if (type === 'multipart/form-data') {
    try {
      const form = await new Response(new Uint8Array(raw), {
        headers: { 'content-type': request.headers['content-type']! },
      }).formData();
      return membersOf(form.entries());
    } catch {
      throw new UnreadableBody('Malformed multipart body');
    }
  }
  const text = raw.toString('utf8').replace(/^\uFEFF/, '');
  try {
    return JSON.parse(text);
  } catch {
    if (type === 'application/x-www-form-urlencoded') return membersOf(new URLSearchParams(text).entries());
    throw new UnreadableBody('Malformed JSON: the body is neither JSON nor a form');
  }
}
