import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { users } from '../../db/schema/index.js';
import { call } from './app.js';

let counter = 0;

export interface TestUser {
  id: string;
  email: string;
  password: string;
  token: string;
}

/** Registers a user through the API (and promotes it in the database when asked), then logs in. */
export async function createUser(
  app: FastifyInstance,
  { admin = false, superAdmin = false, attributes = {} as Record<string, unknown> } = {},
): Promise<TestUser> {
  const email = `user${++counter}-${process.pid}@example.com`;
  const password = 'correct horse battery';
  const res = await call(app, {
    method: 'POST',
    url: '/v1/users',
    body: { data: { type: 'user', attributes: { email, password, ...attributes } } },
  });
  if (res.status !== 201) throw new Error(`createUser: ${res.status} ${JSON.stringify(res.body)}`);
  const id = res.body.data.id as string;
  if (admin || superAdmin) {
    await app.db.update(users).set({ isAdmin: admin || superAdmin, isSuperAdmin: superAdmin }).where(eq(users.id, Number(id)));
  }
  return { id, email, password, token: await login(app, email, password) };
}

export async function login(app: FastifyInstance, email: string, password: string): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/v1/auth/login', payload: { email, password } });
  if (res.statusCode !== 200) throw new Error(`login: ${res.statusCode} ${res.body}`);
  return res.json().access_token as string;
}
