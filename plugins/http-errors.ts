/** The media type of every JSON:API document, error documents included. */
export const MEDIA_TYPE = 'application/vnd.api+json';
/** The `jsonapi` member of every document. */
export const jsonapiMember = { version: '1.0' as const };

/** A failure the client caused or may see; rendered as a JSON:API error document by the error handler. */
export interface ErrorSource {
  pointer?: string;
  parameter?: string;
}

export class JsonApiError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly detail: string,
    readonly source?: ErrorSource,
    readonly headers?: Record<string, string>,
  ) {
    super(detail);
  }
}

export const badRequest = (detail: string, parameter?: string) =>
  new JsonApiError(400, 'Bad Request', detail, parameter ? { parameter } : undefined);

export const unauthorized = (detail = 'Authentication is required') =>
  new JsonApiError(401, 'Unauthorized', detail, undefined, { 'WWW-Authenticate': 'JWT' });

export const forbidden = (detail = 'You are not allowed to do this', pointer?: string) =>
  new JsonApiError(403, 'Forbidden', detail, pointer ? { pointer } : undefined);

export const notFound = (detail = 'Object not found.') => new JsonApiError(404, 'Not Found', detail);

export const methodNotAllowed = (allow: string[]) =>
  new JsonApiError(405, 'Method Not Allowed', `Allowed methods: ${allow.join(', ')}`, undefined, {
    Allow: allow.join(', '),
  });

export const conflict = (detail: string, pointer?: string) =>
  new JsonApiError(409, 'Conflict', detail, pointer ? { pointer } : undefined);

/** What the request names existed and is gone for good (an expired link, say): asking again will not help. */
export const gone = (detail: string) => new JsonApiError(410, 'Gone', detail);

export const unprocessable = (detail: string, pointer?: string) =>
  new JsonApiError(422, 'Validation error', detail, pointer ? { pointer } : undefined);

/** Seconds a client is asked to wait (Retry-After) when a service the request needs is down for a moment. */
export const RETRY_AFTER_SECONDS = 5;

/** The header of a 429 or 503 for the OpenAPI document (`headers` of a route's response). */
export const RETRY_AFTER = {
  'Retry-After': { type: 'integer', minimum: 1, description: 'seconds until the request may be made again' },
};

/** A service the request needs (the database, the file storage) is down: nothing was done, try again later. */
export const serviceUnavailable = (detail: string) =>
  new JsonApiError(503, 'Service Unavailable', detail, undefined, { 'Retry-After': String(RETRY_AFTER_SECONDS) });

export const databaseUnavailable = () =>
  serviceUnavailable('The database is not available at the moment; try again later');
