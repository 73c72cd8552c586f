import { createHmac } from 'node:crypto';
import argon2, { type HashOptions } from 'argon2';
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import type { Test } from 'tap';
import { users } from '../../db/schema/index.js';
import { hashPassword } from '../../src/auth/password.js';
import { assertError, call } from './app.js';

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
    await app.db
      .update(users)
      .set({ isAdmin: admin || superAdmin, isSuperAdmin: superAdmin })
      .where(eq(users.id, Number(id)));
  }
  return { id, email, password, token: await login(app, email, password) };
}

export async function login(app: FastifyInstance, email: string, password: string): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/v1/auth/login', payload: { email, password } });
  if (res.statusCode !== 200) throw new Error(`login: ${res.statusCode} ${res.body}`);
  return res.json().access_token as string;
}

/** Number of rows in `users`, deleted ones included: bad requests must leave it unchanged. */
export async function countUsers(app: FastifyInstance): Promise<number> {
  const [row] = await app.sql<{ n: number }[]>`select count(*)::int as n from users`;
  return row!.n;
}

export interface ErrorExpectation {
  pointer?: string;
  parameter?: string;
  detail?: string | RegExp;
}

/** `assertError` with the expectation by name: no pointer or parameter means no source at all. */
export function expectError(
  t: Test,
  res: Parameters<typeof assertError>[1],
  status: number,
  expected: ErrorExpectation = {},
) {
  const { pointer, parameter, detail } = expected;
  const source = pointer !== undefined ? { pointer } : parameter !== undefined ? { parameter } : undefined;
  return assertError(t, res, status, source, detail);
}

const SEED_PASSWORD = 'seeded user password';
let seedHash: Promise<string> | undefined;

/**
 * A user inserted straight into the table (one shared argon2 hash) with a token from the app's
 * own issuer: for tests that need many accounts but do not test registration or login.
 * `password` logs in as usual.
 */
export async function seedUser(app: FastifyInstance, { admin = false, superAdmin = false } = {}): Promise<TestUser> {
  const email = `account${++counter}-${process.pid}@example.com`;
  seedHash ??= hashPassword(SEED_PASSWORD);
  const [row] = await app.db
    .insert(users)
    .values({ email, passwordHash: await seedHash, isAdmin: admin || superAdmin, isSuperAdmin: superAdmin })
    .returning({ id: users.id });
  return { id: String(row!.id), email, password: SEED_PASSWORD, token: app.issueToken(row!.id) };
}

const jwtPart = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * A JWT built by hand, so tests can forge what a library would refuse to produce: another
 * secret, another algorithm in the header, `alg: none` (`hmac: null`), claims in the past.
 */
export function craftToken(
  payload: Record<string, unknown>,
  options: { secret: string; header?: Record<string, unknown>; hmac?: string | null },
): string {
  const { secret, header = { alg: 'HS256', typ: 'JWT' }, hmac = 'sha256' } = options;
  const signed = `${jwtPart(header)}.${jwtPart(payload)}`;
  const signature = hmac === null ? '' : createHmac(hmac, secret).update(signed).digest('base64url');
  return `${signed}.${signature}`;
}

/** The header and claims of a token, unverified. */
export function decodeToken(token: string): { header: Record<string, unknown>; claims: Record<string, number> } {
  const [header, claims] = token
    .split('.')
    .slice(0, 2)
    .map((p) => JSON.parse(Buffer.from(p, 'base64url').toString()));
  return { header, claims };
}

/** The current time in JWT seconds. */
export const nowSeconds = () => Math.floor(Date.now() / 1000);

/** The stored password hash of an account. */
export async function storedHash(app: FastifyInstance, id: string): Promise<string> {
  const [row] = await app.db
    .select({ hash: users.passwordHash })
    .from(users)
    .where(eq(users.id, Number(id)));
  return row!.hash;
}

/**
 * Stores the account's password hashed as hashes were before HASH_OPTIONS: argon2id with the library's
 * defaults (64 MiB, t=3, p=4), or `options`. Answers that hash.
 */
export async function storeLegacyHash(
  app: FastifyInstance,
  user: TestUser,
  options: HashOptions = { type: argon2.argon2id },
): Promise<string> {
  const hash = await argon2.hash(user.password, options);
  await app.db
    .update(users)
    .set({ passwordHash: hash })
    .where(eq(users.id, Number(user.id)));
  return hash;
}

/** The type, version and parameters of an argon2 hash (the library writes them as `m=..,p=..,t=..`). */
export function hashParameters(hash: string): Record<string, string> {
  const [, type, version, params] = hash.split('$');
  return {
    type: type!,
    ...Object.fromEntries(`${version},${params}`.split(',').map((kv) => kv.split('=') as [string, string])),
  };
}

/** hashParameters of HASH_OPTIONS (src/auth/password.ts): OWASP's argon2id for interactive logins. */
export const CURRENT_PARAMETERS = { type: 'argon2id', v: '19', m: '19456', t: '2', p: '1' };
