import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/** A weak validator of a body: what the client saw is what it would get again. */
export const etagOf = (body: string | Buffer) => `W/"${createHash('sha1').update(body).digest('base64url')}"`;

/** Whether `If-None-Match` names `etag`, weak or strong (weak comparison, lists and `*` as RFC 9110 says). */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const opaque = etag.replace(/^W\//, '');
  return header.split(',').some((candidate) => {
    const tag = candidate.trim();
    return tag === '*' || tag === etag || tag === opaque || tag.replace(/^W\//, '') === opaque;
  });
}

/**
 * Whether the answer is not modified since `If-Modified-Since`: only without `If-None-Match` (RFC 9110 13.1.3),
 * and only for an answer whose route gave it a `Last-Modified`.
 */
function unmodifiedSince(request: FastifyRequest, lastModified: unknown): boolean {
  if (request.headers['if-none-match'] !== undefined || typeof lastModified !== 'string') return false;
  const since = Date.parse(request.headers['if-modified-since'] ?? '');
  return !Number.isNaN(since) && Date.parse(lastModified) <= since;
}

/**
 * Conditional GETs: every 200 answer to a GET or HEAD whose body is in memory (JSON documents, not
 * streamed downloads) gets a weak `ETag`, and a request whose `If-None-Match` names it is answered
 * 304 without a body, so polling clients (task URLs, lists) cost a hash and no transfer (an answer
 * from the read cache, not even the hash). An answer with a `Last-Modified` of its route (schedule documents,
 * skill images) is also 304 to an `If-Modified-Since` not before it.
 */
export default fp(
  async (app) => {
    app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      if ((request.method !== 'GET' && request.method !== 'HEAD') || reply.statusCode !== 200) return payload;
      if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
      // The read cache sets the validator it keeps with an answer: a kept answer is not hashed again.
      const etag = (reply.getHeader('etag') as string | undefined) ?? etagOf(payload);
      reply.header('etag', etag);
      const unchanged =
        matches(request.headers['if-none-match'], etag) || unmodifiedSince(request, reply.getHeader('last-modified'));
      if (!unchanged) return payload;
      // No body, so no length or type of one (null: Fastify then sets no Content-Length for a 304;
      // its HEAD routes measure the payload they are given, so they get an empty one).
      reply.code(304).removeHeader('content-length').removeHeader('content-type');
      return request.method === 'HEAD' ? '' : null;
    });
  },
  { name: 'conditional' },
);
