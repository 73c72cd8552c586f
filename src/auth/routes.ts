import { Type, type Static } from '@sinclair/typebox';
import { and, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { users } from '../../db/schema/index.js';
import { unauthorized } from '../jsonapi/errors.js';
import { errorResponses } from '../jsonapi/routes.js';
import { Email } from '../jsonapi/types.js';
import { verifyPassword } from './password.js';

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
export default async function authRoutes(app: FastifyInstance, options: { expiresIn: number }) {
  app.addSchema(LoginRequest);
  app.addSchema(LoginResponse);
  const schema = (operationId: string, deprecated: boolean) => ({
    tags: ['Authentication'],
    operationId,
    summary: deprecated ? 'Log in (legacy path)' : 'Log in',
    description: `Exchanges an email and password for an HS256 JWT valid for ${options.expiresIn} seconds.`,
    ...(deprecated ? { deprecated: true } : {}),
    security: [],
    consumes: ['application/json'],
    body: Type.Ref(LoginRequest),
    response: {
      200: Type.Ref(LoginResponse, { description: 'The access token' }),
      ...errorResponses([400, 401, 422], { 401: 'The email or password is wrong, or the account is deleted' }),
    },
  });
  const login = async (request: { body: unknown }) => {
    const { email, password } = request.body as Static<typeof LoginRequest>;
    const [user] = await app.db
      .select({ id: users.id, passwordHash: users.passwordHash })
      .from(users)
      .where(and(sql`lower(${users.email}) = lower(${email.trim()})`, isNull(users.deletedAt)))
      .limit(1);
    if (!(await verifyPassword(user?.passwordHash, password)) || !user) throw unauthorized('Invalid credentials');
    return { access_token: app.issueToken(user.id) };
  };
  app.post('/v1/auth/login', { schema: schema('login', false) }, login);
  app.post('/auth/session', { schema: schema('loginLegacy', true) }, login);
}
