import { Type, type Static } from '@sinclair/typebox';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bearerOf } from './plugin.js';
import { sendError } from '../../plugins/error-handler.js';
import { Email, badRequest, unauthorized, unprocessable } from '../jsonapi/index.js';
import { checkLogin, checkTokenAttempt, type LoginLimits } from './login.js';
import { endLogins, loginOfRefreshToken, refreshLogin, startLogin, type TokenLifetimes } from './logins.js';
import { AuthErrorDocument, authOperation } from './operation.js';

const Password = Type.String({ minLength: 1, maxLength: 1024, writeOnly: true });
const RefreshToken = Type.String({
  minLength: 1,
  maxLength: 1024,
  description: 'a refresh token of `/v1/auth/login` or of a refresh',
});

const LoginRequest = Type.Object(
  {
    email: Type.Optional(Email()),
    username: Type.Optional(
      Email({ description: 'the email, under the name the web front end sends it (`email` wins when both are sent)' }),
    ),
    password: Password,
    'remember-me': Type.Optional(
      Type.Boolean({ description: 'accepted and ignored: every login gets a refresh token' }),
    ),
    'include-in-response': Type.Optional(
      Type.Boolean({ description: 'accepted and ignored: tokens are always in the answer, never in cookies' }),
    ),
  },
  { $id: 'LoginRequest', additionalProperties: false },
);
const TokenPairResponse = Type.Object(
  {
    access_token: Type.String({ description: 'send as `Authorization: JWT <access_token>`' }),
    refresh_token: Type.String({ description: 'exchange it at `POST /v1/auth/token/refresh` for a new pair' }),
  },
  { $id: 'TokenPair' },
);
const RefreshRequest = Type.Object(
  { refresh_token: Type.Optional(RefreshToken) },
  { $id: 'RefreshRequest', additionalProperties: false },
);
const LogoutResponse = Type.Object({ success: Type.Literal(true) }, { $id: 'LogoutResponse' });

/** A request without a body (the token in the header only) is validated as an empty one. */
const bodyOptional = async (request: FastifyRequest) => {
  request.body ??= {};
};

/** Failures of these routes, validation and media type errors included, carry the `error` member. */
const withErrorMember = (err: FastifyError, request: FastifyRequest, reply: FastifyReply) =>
  sendError(request, reply, err, { errorMember: true });

export interface AuthRouteOptions {
  lifetimes: TokenLifetimes;
  limits: LoginLimits;
}

/**
 * `POST /v1/auth/login` (and its legacy alias `POST /auth/session`), `POST /v1/auth/token/refresh` and
 * `POST /v1/auth/logout`: logins hand out an access token and a refresh token; see src/auth/logins.ts
 * for the refresh rules.
 */
export default async function authRoutes(app: FastifyInstance, { lifetimes, limits }: AuthRouteOptions) {
  for (const schema of [LoginRequest, TokenPairResponse, RefreshRequest, LogoutResponse, AuthErrorDocument])
    app.addSchema(schema);
  const loginSchema = (operationId: string, deprecated: boolean) =>
    authOperation({
      operationId,
      summary: deprecated ? 'Log in (legacy path)' : 'Log in',
      description:
        `Exchanges an email (or \`username\`) and password for an HS256 JWT access token valid for ${lifetimes.access} seconds and a ` +
        `refresh token valid for ${lifetimes.refresh} seconds; both belong to this login (see \`/v1/auth/token/refresh\` and ` +
        `\`/v1/auth/logout\`). After ${limits.perEmail} failed logins for one email, or ${limits.perClient} from one client address, ` +
        `within ${limits.windowSeconds} seconds, every login of that email or client is refused with 429 and ` +
        '`Retry-After` (seconds), whatever the password; a successful login forgives the failures of its email. Failures carry ' +
        '`error` beside `errors`.',
      deprecated,
      open: true,
      body: Type.Ref(LoginRequest),
      ok: Type.Ref(TokenPairResponse, { description: 'The tokens of the new login' }),
      errors: {
        401: 'The email or password is wrong, or the account is deleted',
        403: 'The password is right but an administrator blocked the account',
        422: 'The body is invalid, or names neither email nor username',
        429: 'Too many failed logins for this email or from this client address; `Retry-After` says when to try again',
      },
      errorMember: true,
    });
  const login = async (request: FastifyRequest) => {
    const body = request.body as Static<typeof LoginRequest>;
    const email = body.email ?? body.username;
    if (email === undefined) throw unprocessable('/email or /username is required', '/email');
    const user = await checkLogin(app, limits, { email, password: body.password, ip: request.ip });
    if (!user) throw unauthorized('Invalid credentials');
    return startLogin(app, lifetimes, user.id);
  };
  app.post('/v1/auth/login', { schema: loginSchema('login', false), errorHandler: withErrorMember }, login);
  app.post('/auth/session', { schema: loginSchema('loginLegacy', true), errorHandler: withErrorMember }, login);

  /** The refresh token of a request: the body's, else the Authorization header's (as the web front end sends it). */
  const refreshTokenOf = (request: FastifyRequest) =>
    (request.body as Static<typeof RefreshRequest>).refresh_token ?? bearerOf(request);

  app.post(
    '/v1/auth/token/refresh',
    {
      schema: authOperation({
        operationId: 'refreshToken',
        summary: 'Exchange a refresh token for a new pair',
        description:
          'Takes the refresh token as `refresh_token` in the body or as `Authorization: JWT <refresh_token>` (the body wins), and ' +
          'answers a new access token and a new refresh token of the same login. A refresh token stays usable until a token ' +
          'issued for it has been used once; presenting a token retired that way, or starting a second chain from one token, ' +
          `ends the whole login (likely theft). Refresh tokens expire ${lifetimes.refresh} seconds after they were issued. Failed ` +
          `refreshes count per client address (${limits.perClient} per ${limits.windowSeconds} seconds, then 429). No cookies are ` +
          'read or set, so `X-CSRF-Token` is ignored. Failures carry `error` beside `errors`; a 401 means the client must log in again.',
        open: true,
        body: Type.Ref(RefreshRequest),
        ok: Type.Ref(TokenPairResponse, { description: 'The new tokens of the login' }),
        errors: {
          400: 'The body is not JSON, or no refresh token was sent',
          401: 'The refresh token is unknown, expired or retired, or its login has ended',
          429: 'Too many failed refreshes from this client address; `Retry-After` says when to try again',
        },
        errorMember: true,
      }),
      preValidation: bodyOptional,
      errorHandler: withErrorMember,
    },
    async (request) => {
      const token = refreshTokenOf(request);
      if (token === undefined)
        throw badRequest('Send the refresh token as refresh_token or in the Authorization header');
      return checkTokenAttempt(app, limits, request.ip, () => refreshLogin(app, lifetimes, token));
    },
  );

  /** The login of a refresh token any holder presents (failures count like failed refreshes). */
  const loginOfRefresh = (request: FastifyRequest, token: string) =>
    checkTokenAttempt(app, limits, request.ip, async () => {
      const found = await loginOfRefreshToken(app.db, token);
      if (!found) throw unauthorized('Invalid refresh token');
      return found;
    });

  /** The login of the access token in the Authorization header. */
  const loginOfAccess = async (request: FastifyRequest) => {
    const token = bearerOf(request);
    if (token === undefined) throw unauthorized();
    const { loginId } = await app.callerOf(token, true);
    if (!loginId) throw badRequest('This token belongs to no login; it ends at its expiry or with a password change');
    return loginId;
  };

  app.post(
    '/v1/auth/logout',
    {
      schema: authOperation({
        operationId: 'logout',
        summary: 'End a login',
        description:
          'Ends the login of the `refresh_token` in the body or, without one, of the access token in `Authorization`: its ' +
          'refresh tokens and access tokens stop working at once. Sending the refresh token of a login that has ended already ' +
          'is fine; its access token no longer identifies anyone (401). Tokens of ' +
          'the assistant belong to no login (400): they end at their expiry or with a password change.',
        body: Type.Ref(RefreshRequest),
        ok: Type.Ref(LogoutResponse, { description: 'The login has ended' }),
        errors: {
          400: 'The body is not JSON, or the token belongs to no login',
          401: 'Neither a valid access token nor a known refresh token was sent',
          429: 'Too many unknown refresh tokens from this client address; `Retry-After` says when to try again',
        },
      }),
      preValidation: bodyOptional,
    },
    async (request) => {
      const refresh = (request.body as Static<typeof RefreshRequest>).refresh_token;
      const loginId = refresh !== undefined ? await loginOfRefresh(request, refresh) : await loginOfAccess(request);
      await endLogins(app.db, { loginId }, 'logout');
      return { success: true as const };
    },
  );
}
