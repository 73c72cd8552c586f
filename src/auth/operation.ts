import { Type, type TSchema } from '@sinclair/typebox';
import { ErrorObject, JsonApiVersion, MEDIA_TYPE, errorResponses } from '../jsonapi/index.js';

/** The error document of the logins and refreshes: JSON:API errors plus `error`, as the web front end reads it. */
export const AuthErrorDocument = Type.Object(
  {
    errors: Type.Array(Type.Ref(ErrorObject)),
    jsonapi: Type.Ref(JsonApiVersion),
    error: Type.String({
      description: 'the detail of the first error (the web front end shows `error`, as the reference server sends it)',
    }),
  },
  { $id: 'AuthErrorDocument', description: 'A failed login or refresh: the error document plus `error`' },
);

export interface AuthOperation {
  operationId: string;
  summary: string;
  description: string;
  /** No token is needed (or read). */
  open?: boolean;
  deprecated?: boolean;
  body: TSchema;
  ok: TSchema;
  /** Error statuses beyond those of every JSON body (400, 413, 415, 422), each with what it means here. */
  errors: Record<number, string>;
  /** The failures carry `error` (AuthErrorDocument). */
  errorMember?: boolean;
}

/** The schema of a route of the Authentication tag: a plain JSON body in, a plain JSON answer out. */
export function authOperation(o: AuthOperation) {
  const errors = errorResponses([400, 413, 415, 422, ...Object.keys(o.errors).map(Number)], o.errors);
  const failure = { [MEDIA_TYPE]: { schema: Type.Ref(AuthErrorDocument) } };
  return {
    tags: ['Authentication'],
    operationId: o.operationId,
    summary: o.summary,
    description: o.description,
    ...(o.deprecated ? { deprecated: true } : {}),
    ...(o.open ? { security: [] } : {}),
    consumes: ['application/json'],
    body: o.body,
    response: {
      200: o.ok,
      ...(o.errorMember
        ? Object.fromEntries(Object.entries(errors).map(([code, r]) => [code, { ...r, content: failure }]))
        : errors),
    },
  };
}
