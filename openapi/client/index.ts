import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { paths } from './schema.js';

export type { components, operations, paths } from './schema.js';

export const JSONAPI = 'application/vnd.api+json';

type Method = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';
type BodyMediaTypes<Op> = Op extends { requestBody?: infer B }
  ? B extends { content: infer C }
    ? keyof C
    : never
  : never;
type PlainJsonMethods<P extends keyof paths> = {
  [M in Method]: 'application/json' extends BodyMediaTypes<paths[P][M]> ? M : never;
}[Method];
type PlainJsonOperations = {
  [P in keyof paths as [PlainJsonMethods<P>] extends [never] ? never : P]: Record<PlainJsonMethods<P>, true>;
};

/**
 * The operations whose body is plain JSON (the logins and account flows, check_email, send-receipt, the checkout, image upload, exports, role invite tokens, app generator); every other body is a
 * JSON:API document, or a multipart form (file uploads) whose content type fetch sets with its boundary.
 * Its type is derived from the generated `paths`, so the compiler fails when an operation is
 * missing here or listed wrongly.
 */
const plainJsonOperations: PlainJsonOperations = {
  '/v1/auth/login': { post: true },
  '/auth/session': { post: true },
  '/v1/auth/token/refresh': { post: true },
  '/v1/auth/logout': { post: true },
  '/v1/auth/verify-email': { post: true },
  '/v1/auth/resend-verification-email': { post: true },
  '/v1/auth/reset-password': { post: true, patch: true },
  '/v1/auth/change-password': { post: true },
  '/v1/users/check_email': { post: true },
  '/v1/attendees/send-receipt': { post: true },
  '/v1/orders/calculate-amount': { post: true },
  '/v1/orders/create-order': { post: true },
  '/v1/upload/image': { post: true },
  '/v1/events/{event_id}/export/json': { post: true },
  '/v1/events/{event_id}/export/sessions/csv': { post: true },
  '/v1/events/{event_id}/export/speakers/csv': { post: true },
  '/v1/events/{event_id}/export/sessions/pdf': { post: true },
  '/v1/events/{event_id}/export/speakers/pdf': { post: true },
  '/v1/events/{event_id}/export/badges/pdf': { post: true },
  '/api/api.php': { post: true },
  '/api/v2/generate': { post: true },
  '/v1/role_invites/user': { post: true },
  '/v1/role_invites/accept-invite': { post: true },
  '/v1/role_invites/decline-invite': { post: true },
  '/v1/stations/{station_id}/scan': { post: true },
};
const plainJson: Readonly<Record<string, Partial<Record<string, true>>>> = plainJsonOperations;

export interface ApiClient extends Client<paths> {
  /** Sends `Authorization: JWT <token>` from now on (undefined: anonymous). */
  setToken(token: string | undefined): void;
}

/** A typed client of the service: JSON:API media types and the JWT header are handled here. */
export function createApiClient(baseUrl: string, options: { token?: string } = {}): ApiClient {
  let token = options.token;
  const client = createClient<paths>({ baseUrl, headers: { Accept: JSONAPI } });
  const headers: Middleware = {
    onRequest({ request, schemaPath }) {
      if (token) request.headers.set('Authorization', `JWT ${token}`);
      if (request.body !== null && !request.headers.get('content-type')?.startsWith('multipart/form-data')) {
        const json = plainJson[schemaPath]?.[request.method.toLowerCase()];
        request.headers.set('Content-Type', json ? 'application/json' : JSONAPI);
      }
    },
  };
  client.use(headers);
  return Object.assign(client, { setToken: (next: string | undefined) => void (token = next) });
}
