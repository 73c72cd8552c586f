/**
 * Requests as the SUSI clients build them. The skill editor (susi_skill_cms src/helper/ajax.js) builds
 * GET query strings as `key=value` joined by `&`, without encoding (a missing value is the text
 * `undefined`), with `access_token=<cookie loggedIn>` first when logged in; the browser then encodes
 * only what a URL cannot hold (spaces become %20). Retrofit (susi_android) encodes every value.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** What the browser requests for a URL string: its path and query as the WHATWG URL parser leaves them. */
export const browserUrl = (url: string) => {
  const parsed = new URL(url, 'http://localhost');
  return parsed.pathname + parsed.search;
};

/** susi_skill_cms ajax.get(url, payload): the token of the `loggedIn` cookie first, then the payload, unencoded. */
export function cmsGet(path: string, payload: Record<string, unknown>, loggedIn?: string) {
  const all: Record<string, unknown> = loggedIn ? { access_token: loggedIn, ...payload } : payload;
  return browserUrl(`${path}?${Object.keys(all).map((key) => key + '=' + all[key]).join('&')}`);
}

/** Retrofit's @QueryMap / @Query: every value encoded. */
export const retrofitGet = (path: string, query: Record<string, string>) =>
  `${path}?${Object.entries(query).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')}`;

/** Writes files into the skill repository and commits them with git itself (not through the service). */
export function commitDirectly(repo: string, files: Record<string, string | Buffer>, message = 'Committed by hand') {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(repo, path)), { recursive: true });
    writeFileSync(join(repo, path), content);
  }
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=Hand', '-c', 'user.email=hand@example.org', '-c', 'commit.gpgsign=false', ...args], { cwd: repo });
  git('add', '--', ...Object.keys(files));
  git('commit', '-q', '-m', message);
}

/**
 * Whether the committed OpenAPI document already describes these paths: tests of routes added on a
 * branch check the contract once the document is regenerated with them (until then they cannot).
 */
export function contractCovers(...paths: string[]): boolean {
  const document = JSON.parse(readFileSync(new URL('../../openapi/openapi.json', import.meta.url), 'utf8')) as { paths: Record<string, unknown> };
  return paths.every((path) => path in document.paths);
}
