/** OpenAPI operations of the JSON:API routes: what the document says of each, and the options of its route. */
import { Type, type TObject } from '@sinclair/typebox';
import type { RouteShorthandOptions } from 'fastify';
import { RETRY_AFTER } from '../../plugins/http-errors.js';
import type { Model } from './model.js';
import { componentIds } from './resource-schemas.js';
import { MEDIA_TYPE } from './schemas.js';

/** What the OpenAPI document says about one JSON:API operation, and the options of its route. */
export interface OperationOptions {
  tag: string;
  operationId: string;
  summary: string;
  description: string;
  errors: number[];
  /** What the statuses of `errors` mean where the usual description would not say it. */
  errorDescriptions?: Record<number, string>;
  success: Record<number, unknown>;
  params?: TObject;
  querystring?: TObject;
  body?: unknown;
}

/** Route options of a JSON:API operation: content negotiation and authentication run before it. */
export const operation = (o: OperationOptions): RouteShorthandOptions => ({
  config: { jsonapi: true },
  schema: {
    tags: [o.tag],
    operationId: o.operationId,
    summary: o.summary,
    description: o.description,
    produces: [MEDIA_TYPE],
    ...(o.body ? { consumes: [MEDIA_TYPE], body: o.body } : {}),
    ...(o.params ? { params: o.params } : {}),
    ...(o.querystring ? { querystring: o.querystring } : {}),
    response: {
      ...Object.fromEntries(
        Object.entries(o.success).map(([c, schema]) => [c, { description: 'Success', ...(schema as object) }]),
      ),
      // Any body over Fastify's limit is refused before the handler runs; negotiation refuses a body of
      // another type on every method, GET included (415); a path or query parameter its schema refuses
      // (an over-long id) is 400.
      ...errorResponses(
        [...o.errors, 415, ...(o.body ? [413] : []), ...(o.params || o.querystring ? [400] : [])],
        o.errorDescriptions,
      ),
    },
  },
});

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'The body is not JSON, or a query or path parameter is invalid',
  401: 'The token is missing, invalid or expired, or its account is gone',
  403: 'The caller may not do this',
  404: 'Object not found',
  405: 'The path does not support this method',
  406: 'Accept excludes application/vnd.api+json',
  409: 'The type or id does not match, or the record conflicts with another',
  413: 'The request is too large',
  415: 'Content-Type is not exactly application/vnd.api+json',
  422: 'The document fails validation',
  503: 'The database (or another service the request needs) is down for a moment; nothing was done. `Retry-After` says when to try again',
};

/**
 * Error responses of an operation for the OpenAPI document; all share the ErrorDocument shape and,
 * like every failure the error handler renders, the JSON:API media type even where success is plain JSON.
 * Every operation that uses the database may answer 503 (with Retry-After) while it is down, so that
 * one is always there unless `database` is false.
 */
export const errorResponses = (codes: number[], descriptions: Record<number, string> = {}, { database = true } = {}) =>
  Object.fromEntries(
    [...new Set([...codes, ...(database ? [503] : [])])].map((c) => [
      c,
      {
        description: descriptions[c] ?? ERROR_DESCRIPTIONS[c] ?? 'Error',
        ...(c === 503 || c === 429 ? { headers: RETRY_AFTER } : {}),
        content: { [MEDIA_TYPE]: { schema: Type.Ref('ErrorDocument') } },
      },
    ]),
  );

export const IdParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64, description: 'id of the record' }),
});
/** Path parameters of a resource whose records may also be named by their alternate key. */
export const alternateParams = (model: Model) =>
  Type.Object({
    id: Type.String({
      minLength: 1,
      maxLength: 64,
      description: `id or ${model.spec.alternateKey} of the ${model.type}`,
    }),
  });

/** The OpenAPI description of a 201 answer. */
export const createdResponse = (model: Model) => ({
  description: `The created ${model.type}`,
  headers: { Location: Type.String({ description: `path of the new ${model.type}` }) },
  content: { [MEDIA_TYPE]: { schema: Type.Ref(componentIds(model).document) } },
});
