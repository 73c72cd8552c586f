/**
 * Requests as the SUSI clients build them. The skill editor (susi_skill_cms src/helper/ajax.js) builds
 * GET query strings as `key=value` joined by `&`, without encoding (a missing value is the text
 * `undefined`), with `access_token=<cookie loggedIn>` first when logged in; the browser then encodes
 * only what a URL cannot hold (spaces become %20). Retrofit (susi_android) encodes every value.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';

/** What the browser requests for a URL string: its path and query as the WHATWG URL parser leaves them. */
export const browserUrl = (url: string) => {
  const parsed = new URL(url, 'http://localhost');
  return parsed.pathname + parsed.search;
};

/** susi_skill_cms ajax.get(url, payload): the token of the `loggedIn` cookie first, then the payload, unencoded. */
export function cmsGet(path: string, payload: Record<string, unknown> = {}, loggedIn?: string) {
  const all: Record<string, unknown> = loggedIn ? { access_token: loggedIn, ...payload } : payload;
  return browserUrl(
    `${path}?${Object.keys(all)
      .map((key) => `${key}=${all[key]}`)
      .join('&')}`,
  );
}

/** Retrofit's @QueryMap / @Query: every value encoded. */
export const retrofitGet = (path: string, query: Record<string, string>) =>
  `${path}?${Object.entries(query)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join('&')}`;

/** Writes files into the skill repository and commits them with git itself (not through the service). */
export function commitDirectly(repo: string, files: Record<string, string | Buffer>, message = 'Committed by hand') {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(repo, path)), { recursive: true });
    writeFileSync(join(repo, path), content);
  }
  const git = (...args: string[]) =>
    execFileSync(
      'git',
      ['-c', 'user.name=Hand', '-c', 'user.email=hand@example.org', '-c', 'commit.gpgsign=false', ...args],
      { cwd: repo },
    );
  git('add', '--', ...Object.keys(files));
  git('commit', '-q', '-m', message);
}

// Answers of the `/aaa` endpoints as the clients read them (JSON or JSONP), and their other request shapes.
export interface AaaAnswer {
  status: number;
  headers: Record<string, unknown>;
  /** The JSON object, unwrapped from the JSONP script when there is one. */
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
  answerOf(
    await app.inject({
      method: 'POST',
      url: `${path}?${new URLSearchParams(query)}`,
      headers: { 'content-length': '0' },
    }),
  );

/** The query string jQuery adds to a `dataType: 'jsonp'` call: `callback=<name>&_=<timestamp>`. */
export const jsonp = (callback = 'p') => `callback=${callback}&_=${Date.now()}`;
