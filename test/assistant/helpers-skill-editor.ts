/** Requests as the skill editors (susi_skill_cms, susi.ai) build them, against a test app with its own skill repository. */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Test } from 'tap';
import { buildTestApp } from '../helpers/app.js';
import { multipart } from '../helpers/images.js';

export const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd }).toString();

/**
 * The query of susi_skill_cms src/helper/ajax.js `get`: the cookie's `access_token` first, then the
 * payload, joined as `key=value` without encoding; the browser then percent-encodes what a URL query
 * may not hold (controls, space, `"`, `#`, `<`, `>` and non-ASCII).
 */
export function ajaxGetUrl(url: string, payload: Record<string, string | number>, token?: string) {
  const all = { ...(token ? { access_token: token } : {}), ...payload };
  const raw = `${url}?${Object.keys(all).map((k) => `${k}=${all[k as keyof typeof all]}`).join('&')}`;
  return raw.replace(/[\u0000-\u0020"#<>]|[^\u0000-\u007f]/gu, (c) => encodeURIComponent(c));
}

export async function editorApp(t: Test) {
  const base = await mkdtemp(join(tmpdir(), 'oe-skill-editor-'));
  t.teardown(() => rm(base, { recursive: true, force: true }));
  const repo = join(base, 'repo');
  const { app } = await buildTestApp(t, { SKILL_REPO_DIR: repo });
  /** `ajax.post(url, formData, {headers: multipart, isTokenRequired: false})`: the token travels in the form. */
  const postForm = async (url: string, fields: Record<string, string>, files: Parameters<typeof multipart>[0] = []) => {
    const body = multipart(files, fields);
    const res = await app.inject({ method: 'POST', url, payload: body.payload, headers: body.headers });
    return { status: res.statusCode, body: res.json() };
  };
  const ajaxGet = async (url: string, payload: Record<string, string | number>, token?: string) => {
    const res = await app.inject({ method: 'GET', url: ajaxGetUrl(url, payload, token) });
    return { status: res.statusCode, body: res.json(), headers: res.headers };
  };
  return { app, repo, postForm, ajaxGet, head: () => git(repo, 'rev-parse', 'HEAD').trim() };
}
