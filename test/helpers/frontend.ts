/**
 * Requests as the web front end (fossasia/open-event-frontend at e6f8b09a) builds them, sent over real HTTP
 * to the app listening on a port, from the front end's origin. The browser's part (CORS) is checked on
 * the answers: a script on another origin reads an answer only if it allows that origin.
 *
 * - `adapter`: ember-data's JSONAPIAdapter (app/adapters/application.js:30-40): `Content-Type:
 *   application/vnd.api+json`, `Accept: application/vnd.api+json` (JSONAPIAdapter), and `Authorization:
 *   JWT <access_token>` once logged in (config/environment.js:96-97), under `${API_HOST}/v1`.
 * - `loader`: the loader service (app/services/loader.ts:48-101): the adapter's headers, then
 *   `Content-Type: application/json` and the body as JSON (:80-81); URLs `${API_HOST}/v1/<path>` (:57-60).
 * - `simpleAuth`: ember-simple-auth-token's token requests (its source is not at hand: its use in
 *   app/authenticators/custom-jwt.js and config/environment.js:91-103 shows a JSON POST of the credentials
 *   or of `{refresh_token}` to the configured endpoint, with the authenticator's `headers`; the answer is
 *   read as `response.json`, a failure as `e.json` and `e.status`).
 */
import type { AddressInfo } from 'node:net';
import type { Test } from 'tap';
import { buildTestApp } from './app.js';
import { FRONTEND_URL, setFrontendUrl } from './auth.js';
import { startSmtp, type SmtpPeer } from './smtp.js';

export const ORIGIN = FRONTEND_URL;
const JSONAPI = 'application/vnd.api+json';

export interface Reply {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

export interface FrontendPeer {
  /** ENV.APP.apiHost (config/environment.js:34): the origin of the service. */
  apiHost: string;
  smtp: SmtpPeer;
  app: Awaited<ReturnType<typeof buildTestApp>>['app'];
}

/** The service on a port with a real SMTP peer and its workers (the account mails are jobs); mails link to ORIGIN. */
export async function startForFrontend(t: Test, env: Record<string, string> = {}): Promise<FrontendPeer> {
  const smtp = await startSmtp(t);
  const { app } = await buildTestApp(t, { ROLE: 'all', SMTP_URL: smtp.url, ...env });
  await setFrontendUrl(app, ORIGIN);
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { apiHost: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`, smtp, app };
}

async function send(url: string, init: RequestInit): Promise<Reply> {
  const res = await fetch(url, { ...init, headers: { Origin: ORIGIN, ...(init.headers as Record<string, string>) } });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : undefined };
}

const authorization = (accessToken?: string): Record<string, string> => (accessToken ? { Authorization: `JWT ${accessToken}` } : {});

/** An ember-data request (findRecord, save) to `${API_HOST}/v1/<path>`. */
export const adapter = (apiHost: string, method: string, path: string, { body, accessToken }: { body?: unknown; accessToken?: string } = {}) =>
  send(`${apiHost}/v1/${path}`, {
    method,
    headers: { 'Content-Type': JSONAPI, Accept: JSONAPI, ...authorization(accessToken) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });

/** A loader service request: `loader.post(path, data)` / `loader.patch(path, data)`. */
export const loader = (apiHost: string, method: 'POST' | 'PATCH', path: string, data: unknown, accessToken?: string) =>
  send(`${apiHost}/v1/${path.replace(/^\//, '')}`, {
    method,
    headers: { Accept: JSONAPI, 'Content-Type': 'application/json', ...authorization(accessToken) },
    body: JSON.stringify(data),
  });

/** An ember-simple-auth-token request: `data` as JSON to `url`, with the authenticator's headers. */
export const simpleAuth = (url: string, data: unknown, headers: Record<string, string> = {}) =>
  send(url, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(data) });

/** The preflight a browser sends before a cross-origin request with this method and these headers. */
export const preflight = (url: string, method: string, headers: string[]) =>
  send(url, { method: 'OPTIONS', headers: { 'Access-Control-Request-Method': method, 'Access-Control-Request-Headers': headers.join(',') } });

/** Whether a browser lets the front end's script read this answer. */
export function readableByFrontend(t: Test, reply: Reply, what: string) {
  t.ok(['*', ORIGIN].includes(reply.headers.get('access-control-allow-origin') ?? ''), `${what}: the answer is readable from ${ORIGIN}`);
}

/** Whether a preflight lets the browser send the request. */
export function preflightPasses(t: Test, reply: Reply, method: string, headers: string[], what: string) {
  t.ok(reply.status >= 200 && reply.status < 300, `${what}: the preflight succeeds (${reply.status})`);
  readableByFrontend(t, reply, `${what} preflight`);
  const methods = (reply.headers.get('access-control-allow-methods') ?? '').toUpperCase();
  t.ok(['GET', 'HEAD', 'POST'].includes(method) || methods.includes(method), `${what}: ${method} is allowed`);
  const allowed = (reply.headers.get('access-control-allow-headers') ?? '').toLowerCase();
  for (const header of headers) t.ok(allowed === '*' || allowed.split(/\s*,\s*/).includes(header.toLowerCase()), `${what}: header ${header} is allowed`);
}

/** authManager.getTokenPayload (app/services/auth-manager.js:54-58): the claims, decoded as the browser's atob does. */
export const tokenPayload = (accessToken: string) => JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64').toString('latin1'));
