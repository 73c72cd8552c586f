import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import { toErrorDocument } from '../../plugins/error-handler.js';
import { RateLimited } from '../rate-limits/hits.js';
import { UnreadableBody } from './body.js';

export const TAG = 'App generator';

export const AppgenFailure = Type.Object(
  { status: Type.Literal('error'), code: Type.Integer({ description: 'the HTTP status' }), message: Type.String() },
  { $id: 'AppgenFailure', additionalProperties: false },
);

/** A refusal answered `{"status": "error", "code", "message"}` with that HTTP status. */
export class AppgenError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export function sendFailure(reply: FastifyReply, err: unknown) {
  let status: number;
  let message: string;
  if (err instanceof AppgenError) {
    reply.headers(err.headers);
    [status, message] = [err.status, err.message];
  } else if (err instanceof RateLimited) {
    reply.headers(err.headers!);
    [status, message] = [429, err.detail];
  } else if (err instanceof UnreadableBody) {
    [status, message] = [400, err.message];
  } else if ((err as { code?: string }).code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    // The generator reads any media type, so a Content-Type header that names none (`;;;`) is a body it cannot read.
    [status, message] = [400, 'The Content-Type header is not a media type'];
  } else {
    // Framework refusals (malformed JSON, media type, size) keep their status and say what they are.
    // A database that is down is a 503 with Retry-After, which says so.
    const doc = toErrorDocument(err);
    status = doc.status;
    if (doc.headers) reply.headers(doc.headers);
    const [first] = doc.errors;
    message =
      status === 503 ? first!.detail : status >= 500 ? 'Internal Server Error' : `${first!.title}: ${first!.detail}`;
    if (status >= 500) reply.log.error({ err }, 'app generator request failed');
  }
  return reply.code(status).type('application/json; charset=utf-8').send({ status: 'error', code: status, message });
}
