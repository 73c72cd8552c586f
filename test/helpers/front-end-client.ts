/**
 * Requests as the Open Event front end (fossasia/open-event-frontend) sends them, over real HTTP from
 * the origin it is served on: ember-data's JSONAPIAdapter (`app/adapters/application.js`) and the
 * `loader` service (`app/services/loader.ts`). Query objects are serialised the way ember-data does
 * (`filterOptions: {name: 'id'}` → `filterOptions[name]=id`; `filter` as a JSON string).
 */
import type { FastifyInstance } from 'fastify';

export const FRONTEND_ORIGIN = 'https://eventyay.example.org';

export interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

/** The app listening on a loopback port: its base URL. */
export async function listening(app: FastifyInstance): Promise<string> {
  if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  return `http://127.0.0.1:${port}`;
}

/** `{a: 1, b: {c: 'x'}}` → `a=1&b%5Bc%5D=x`, as ember-data's serializeQueryParams writes it. */
export function queryString(query: Record<string, unknown>): string {
  const parts: string[] = [];
  const add = (key: string, value: unknown) => {
    if (value === undefined) return;
    if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) add(`${key}[${k}]`, v);
    } else parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`);
  };
  for (const [key, value] of Object.entries(query)) add(key, key === 'filter' ? JSON.stringify(value) : value);
  return parts.join('&');
}

async function answer(res: Response): Promise<Answer> {
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

/** The front end as a client of the API at `base`, signed in with `token` or not. */
export function frontEnd(base: string, token?: string) {
  const auth: Record<string, string> = token ? { Authorization: `JWT ${token}` } : {};
  return {
    /** ember-data: `store.query`, `findRecord`, `record.save()`; its headers on every request, GET included. */
    async adapter(
      method: string,
      path: string,
      { query = {}, body }: { query?: Record<string, unknown>; body?: unknown } = {},
    ) {
      const search = queryString(query);
      // A `public: true` query goes out without the token (app/adapters/application.js:64-66).
      const headers: Record<string, string> = {
        Origin: FRONTEND_ORIGIN,
        Accept: 'application/vnd.api+json',
        'Content-Type': 'application/vnd.api+json',
        ...(query.public ? {} : auth),
      };
      return answer(
        await fetch(`${base}${path}${search ? `?${search}` : ''}`, {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
      );
    },
    /** The loader service: JSON bodies as application/json, the adapter's Accept and token. */
    async loader(method: string, path: string, body?: unknown) {
      const headers: Record<string, string> = { Origin: FRONTEND_ORIGIN, Accept: 'application/vnd.api+json', ...auth };
      if (body !== undefined) headers['Content-Type'] = 'application/json';
      return answer(
        await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }),
      );
    },
    /** The loader with `isExternal: true` (a download): no headers of its own, only the browser's Origin. */
    async external(url: string) {
      const res = await fetch(url, { headers: { Origin: FRONTEND_ORIGIN } });
      return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
    },
  };
}

/** The CORS preflight a browser sends before a request from the front end's origin. */
export async function preflight(base: string, path: string, method: string, headers: string[]) {
  const res = await fetch(`${base}${path}`, {
    method: 'OPTIONS',
    headers: {
      Origin: FRONTEND_ORIGIN,
      'Access-Control-Request-Method': method,
      'Access-Control-Request-Headers': headers.join(','),
    },
  });
  return { status: res.status, headers: res.headers };
}
