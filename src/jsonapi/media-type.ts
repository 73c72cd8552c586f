import type { FastifyReply, FastifyRequest } from 'fastify';
import { JsonApiError } from '../../plugins/http-errors.js';
import { MEDIA_TYPE } from './schemas.js';

/** True when an Accept header lets the client receive JSON:API (a missing header accepts anything). */
function acceptsJsonApi(accept: string | undefined): boolean {
  if (!accept) return true;
  return accept.split(',').some((entry) => {
    const [range, ...params] = entry.split(';').map((p) => p.trim().toLowerCase());
    if (range === '*/*' || range === 'application/*') return true;
    // JSON:API 1.0: the JSON:API media type counts only without parameters other than q.
    return range === MEDIA_TYPE && params.every((p) => p.startsWith('q='));
  });
}

const hasBody = (request: FastifyRequest) =>
  request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;

/** The JSON:API content negotiation rules: 406 for an unacceptable Accept, 415 for any other request body type. */
export async function negotiate(request: FastifyRequest, reply: FastifyReply) {
  if (!acceptsJsonApi(request.headers.accept)) {
    throw new JsonApiError(406, 'Not Acceptable', `Accept must allow ${MEDIA_TYPE} without media type parameters`);
  }
  const type = request.headers['content-type'];
  const needsBody = request.method === 'POST' || request.method === 'PATCH';
  if ((needsBody || hasBody(request)) && type?.trim().toLowerCase() !== MEDIA_TYPE) {
    throw new JsonApiError(415, 'Unsupported Media Type', `Content-Type must be exactly ${MEDIA_TYPE}`);
  }
  reply.type(MEDIA_TYPE);
}
