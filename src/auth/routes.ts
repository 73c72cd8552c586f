import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { unauthorized } from '../jsonapi/errors.js';
import { errorResponses } from '../jsonapi/routes.js';
import { Email } from '../jsonapi/types.js';
import { checkLogin, type LoginLimits } from './login.js';

const LoginRequest = Type.Object(
  {
    email: Email(),
    password: Type.String({ minLength: 1, maxLength: 1024, writeOnly: true }),
  },
  { $id: 'LoginRequest', additionalProperties: false },
);
const LoginResponse = Type.Object(
  { access_token: Type.String({ description: 'send as `Authorization: JWT <access_token>`' }) },
  { $id: 'LoginResponse' },
);

/** `POST /v1/auth/login` and its legacy alias `POST /auth/session`: email and password in, token out. */
export default async function authRoutes(app: FastifyInstance, options: { expiresIn: number; limits: LoginLimits }) {
  app.addSchema(LoginRequest);
  app.addSchema(LoginResponse);
  const schema = (operationId: string, deprecated: boolean) => ({
    tags: ['Authentication'],
    operationId,
    summary: deprecated ? 'Log in (legacy path)' : 'Log in',
    description:
      `Exchanges an email and password for an HS256 JWT valid for ${options.expiresIn} seconds. After ` +
      `${options.limits.perEmail} failed logins for one email, or ${options.limits.perClient} from one client address, ` +
      `within ${options.limits.windowSeconds} seconds, every login of that email or client is refused with 429 and ` +
      '`Retry-After` (seconds), whatever the password; a successful login forgives the failures of its email.',
    ...(deprecated ? { deprecated: true } : {}),
    security: [],
    consumes: ['application/json'],
    body: Type.Ref(LoginRequest),
    response: {
      200: Type.Ref(LoginResponse, { description: 'The access token' }),
      ...errorResponses([400, 401, 413, 415, 422, 429], {
        401: 'The email or password is wrong, or the account is deleted',
        429: 'Too many failed logins for this email or from this client address; `Retry-After` says when to try again',
      }),
    },
  });
  const login = async (request: FastifyRequest) => {
    const { email, password } = request.body as Static<typeof LoginRequest>;
    const user = await checkLogin(app, options.limits, { email, password, ip: request.ip });
    if (!user) throw unauthorized('Invalid credentials');
    return { access_token: app.issueToken(user.id) };
  };
  app.post('/v1/auth/login', { schema: schema('login', false) }, login);
  app.post('/auth/session', { schema: schema('loginLegacy', true) }, login);
}
