/** Requests as the skill editors (susi_skill_cms, susi.ai) build them, against a test app with its own skill repository. */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Test } from 'tap';
import { buildTestApp } from './app.js';
import { multipart } from './images.js';
import { cmsGet } from './susi-clients.js';

export const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd }).toString();

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
    const res = await app.inject({ method: 'GET', url: cmsGet(url, payload, token) });
    return { status: res.statusCode, body: res.json(), headers: res.headers };
  };
  return { app, repo, postForm, ajaxGet, head: () => git(repo, 'rev-parse', 'HEAD').trim() };
}
