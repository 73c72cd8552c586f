/** Requests to the `/aaa` account endpoints as the real clients send them, and their answers (JSON or JSONP). */
import type { FastifyInstance } from 'fastify';

export interface AaaAnswer {
  status: number;
  headers: Record<string, unknown>;
  /** The JSON object, unwrapped from the JSONP script when there is one. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  /** The JSONP callback name the script calls, if it is one. */
  callback?: string;
  raw: string;
}

/** Reads a JSON answer or a JSONP script `name({...});`. */
export function answerOf(res: { statusCode: number; headers: Record<string, unknown>; body: string }): AaaAnswer {
  const jsonp = /^([A-Za-z_$][\w$.]*)\(([\s\S]*)\);\n?$/.exec(res.body);
  return {
    status: res.statusCode,
    headers: res.headers,
    body: JSON.parse(jsonp ? jsonp[2]! : res.body),
    callback: jsonp?.[1],
    raw: res.body,
  };
}

/** A GET of a URL written out as the client writes it (query string by hand, as the clients build it). */
export const getUrl = async (app: FastifyInstance, url: string) => answerOf(await app.inject({ method: 'GET', url }));

/** A POST with the parameters in the query and an empty body, as susi_android's Retrofit `@Query` calls send it. */
export const postQuery = async (app: FastifyInstance, path: string, query: Record<string, string>) =>
  answerOf(await app.inject({ method: 'POST', url: `${path}?${new URLSearchParams(query)}`, headers: { 'content-length': '0' } }));

/** The query string jQuery adds to a `dataType: 'jsonp'` call: `callback=<name>&_=<timestamp>`. */
export const jsonp = (callback = 'p') => `callback=${callback}&_=${Date.now()}`;

/**
 * susi_skill_cms's `ajax.get` (src/helper/ajax.js): the cookie token first when there is one, then the
 * payload, joined as `key=value` without URL-encoding.
 */
export function cmsGet(path: string, payload: Record<string, string | undefined> = {}, cookieToken?: string) {
  const all = cookieToken ? { access_token: cookieToken, ...payload } : payload;
  const keys = Object.keys(all);
  return keys.length > 0 ? `${path}?${keys.map((k) => `${k}=${all[k]}`).join('&')}` : path;
}
