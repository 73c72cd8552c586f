/**
 * The front end's logins and account flows (see front-end-client.ts for its adapter and loader):
 * ember-simple-auth-token's requests, the app with an SMTP peer and its workers, and the browser's
 * part (CORS) judged on the answers.
 *
 * ember-simple-auth-token's source is not at hand. Its use in app/authenticators/custom-jwt.js and
 * config/environment.js:91-103 shows a JSON POST of the credentials, or of `{refresh_token}`, to the
 * configured endpoint with the authenticator's `headers`; the answer is read as `response.json`, a
 * failure as `e.json` and `e.status`.
 */
import type { Test } from 'tap';
import { buildTestApp } from './app.js';
import { setFrontendUrl } from './auth.js';
import { FRONTEND_ORIGIN, listening, type Answer } from './front-end-client.js';
import { startSmtp, type SmtpPeer } from './smtp.js';

export interface FrontEndPeer {
  /** ENV.APP.apiHost (config/environment.js:34): the origin of the service. */
  apiHost: string;
  smtp: SmtpPeer;
  app: Awaited<ReturnType<typeof buildTestApp>>['app'];
}

/** The service on a port with a real SMTP peer and its workers (account mails are jobs); mails link to the front end. */
export async function startForFrontEnd(t: Test, env: Record<string, string> = {}): Promise<FrontEndPeer> {
  const smtp = await startSmtp(t);
  const { app } = await buildTestApp(t, { ROLE: 'all', SMTP_URL: smtp.url, ...env });
  await setFrontendUrl(app, FRONTEND_ORIGIN);
  return { apiHost: await listening(app), smtp, app };
}

/** An ember-simple-auth-token request: `data` as JSON to `url`, with the authenticator's headers. */
export async function simpleAuth(url: string, data: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { Origin: FRONTEND_ORIGIN, 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(data),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

/** authManager.getTokenPayload (app/services/auth-manager.js:54-58): the claims, decoded as the browser's atob does. */
export const tokenPayload = (accessToken: string) =>
  JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64').toString('latin1'));

/** Whether a browser hands this answer to the front end's script. */
export function readableByFrontEnd(t: Test, answer: { headers: Headers }, what: string) {
  t.ok(
    ['*', FRONTEND_ORIGIN].includes(answer.headers.get('access-control-allow-origin') ?? ''),
    `${what}: the answer is readable from ${FRONTEND_ORIGIN}`,
  );
}

/** Whether a preflight lets the browser send a request with this method and these headers. */
export function preflightPasses(
  t: Test,
  answer: { status: number; headers: Headers },
  method: string,
  headers: string[],
  what: string,
) {
  t.ok(answer.status >= 200 && answer.status < 300, `${what}: the preflight succeeds (${answer.status})`);
  readableByFrontEnd(t, answer, `${what} preflight`);
  const methods = (answer.headers.get('access-control-allow-methods') ?? '').toUpperCase().split(/\s*,\s*/);
  // GET, HEAD and POST are safelisted: a preflight need not name them.
  t.ok(['GET', 'HEAD', 'POST'].includes(method) || methods.includes(method), `${what}: ${method} is allowed`);
  const allowed = (answer.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(/\s*,\s*/);
  for (const header of headers)
    t.ok(allowed.includes('*') || allowed.includes(header.toLowerCase()), `${what}: header ${header} is allowed`);
}
