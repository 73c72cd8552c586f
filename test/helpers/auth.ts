/** Logins, refreshes and the account mails, as the tests of the account flows use them. */
import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Test } from 'tap';
import { settings } from '../../db/schema/index.js';
import { FRONTEND_ORIGIN } from './front-end-client.js';
import type { ReceivedMail, SmtpPeer } from './smtp.js';
import { expectError, type ErrorExpectation } from './users.js';

export interface Answer {
  status: number;
  headers: OutgoingHttpHeaders;
  body: any;
}

/** A plain JSON request (the logins and account routes take JSON), with an optional token. */
export async function post(
  app: FastifyInstance,
  url: string,
  payload: unknown,
  {
    token,
    method = 'POST',
    headers = {},
  }: { token?: string; method?: 'POST' | 'PATCH'; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const res = await app.inject({
    method,
    url,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `JWT ${token}` } : {}), ...headers },
    payload: JSON.stringify(payload),
  });
  return { status: res.statusCode, headers: res.headers, body: res.body ? res.json() : undefined };
}

export interface TokenPair {
  access_token: string;
  refresh_token: string;
}

/** A new login of an account: its token pair. */
export async function loginPair(app: FastifyInstance, email: string, password: string): Promise<TokenPair> {
  const res = await post(app, '/v1/auth/login', { email, password });
  if (res.status !== 200) throw new Error(`login: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A refresh with the token in the body (as our SDK sends it) or in the Authorization header. */
export const refresh = (app: FastifyInstance, token: string, via: 'body' | 'header' = 'body') =>
  via === 'body'
    ? post(app, '/v1/auth/token/refresh', { refresh_token: token })
    : post(app, '/v1/auth/token/refresh', {}, { token });

/** A failure of a login or refresh: the error document plus `error`, the text of its first error. */
export function expectAuthError(t: Test, res: Answer, status: number, expected: ErrorExpectation = {}) {
  t.type(res.body?.error, 'string', 'error is a string');
  t.equal(res.body?.error, res.body?.errors?.[0]?.detail, 'error is the detail of the first error');
  const { error: _error, ...document } = res.body ?? {};
  return expectError(t, { ...res, body: document }, status, expected);
}

/** The status of a request with this access token on the account's own record: 200 while it works. */
export async function tokenWorks(app: FastifyInstance, token: string): Promise<number> {
  const { identity } = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { identity: number };
  const res = await app.inject({
    method: 'GET',
    url: `/v1/users/${identity}`,
    headers: { authorization: `JWT ${token}`, 'cache-control': 'no-cache' },
  });
  return res.statusCode;
}

/** Links in mails point to the web front end named in the settings. */
export const setFrontendUrl = (app: FastifyInstance, url = FRONTEND_ORIGIN) =>
  app.db.update(settings).set({ frontendUrl: url });

/** The mails received so far that went to `address`. */
export const mailsTo = (smtp: SmtpPeer, address: string) =>
  smtp.received.filter((m) => m.envelope.to.includes(address));

/** Waits for the `n`-th mail to `address` (1-based) and answers it. */
export async function nthMailTo(smtp: SmtpPeer, address: string, n = 1): Promise<ReceivedMail> {
  for (;;) {
    const mine = mailsTo(smtp, address);
    if (mine.length >= n) return mine[n - 1]!;
    await smtp.waitFor(smtp.received.length + 1);
  }
}

/** The link of a mail to the front end page `path` (`/verify`, `/reset-password`) and its token. */
export function linkIn(mail: ReceivedMail, path: string): { url: URL; token: string } {
  const match = new RegExp(`https?://\\S+${path}\\?token=\\S+`).exec(mail.parsed.text ?? '');
  if (!match) throw new Error(`no ${path} link in: ${mail.parsed.text}`);
  const url = new URL(match[0]);
  return { url, token: url.searchParams.get('token')! };
}
