/** Requests as the skill editors (susi_skill_cms, susi.ai) build them, against a test app with its own skill repository. */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Test } from 'tap';
import { buildTestApp } from './app.js';
import { multipart } from './images.js';
import { cmsGet } from './susi-clients.js';

export const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd }).toString();

/** `ajax.post(url, formData, {headers: multipart, isTokenRequired: false})` to `app`: the token travels in the form. */
export async function postFormTo(
  app: FastifyInstance,
  url: string,
  fields: Record<string, string>,
  files: Parameters<typeof multipart>[0] = [],
) {
  const body = multipart(files, fields);
  const res = await app.inject({ method: 'POST', url, payload: body.payload, headers: body.headers });
  return { status: res.statusCode, body: res.json() };
}

/** `ajax.get(url, payload)` to `app` (susi_skill_cms src/helper/ajax.js; the cookie's token first when given). */
export async function ajaxGetFrom(
  app: FastifyInstance,
  url: string,
  payload: Record<string, string | number>,
  token?: string,
) {
  const res = await app.inject({ method: 'GET', url: cmsGet(url, payload, token) });
  return { status: res.statusCode, body: res.json(), headers: res.headers };
}

/**
 * The form of susi_skill_cms SkillCreator's save of an edit (src/components/SkillCreator/SkillCreator.js)
 * that keeps the skill where it is and its picture: `skill` names it, `content` is the new text.
 */
export const editFields = (
  skill: { model: string; group: string; language: string; skill: string },
  image: string,
  content: string,
  changelog: string,
  token: string,
) => ({
  OldModel: skill.model,
  OldGroup: skill.group,
  OldLanguage: skill.language,
  OldSkill: skill.skill,
  NewModel: skill.model,
  NewGroup: skill.group,
  NewLanguage: skill.language,
  NewSkill: skill.skill,
  changelog,
  content,
  imageChanged: 'false',
  old_image_name: image,
  new_image_name: image,
  image_name_changed: 'false',
  access_token: token,
});

/**
 * A browser's FormData posted over real HTTP to `origin` as the editors send it (fetch writes the multipart body
 * and its boundary; a file part is named as a browser names an upload).
 */
export async function postFormData(origin: string, path: string, fields: Record<string, string | Blob>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (value instanceof Blob) form.append(name, value, 'upload.png');
    else form.append(name, value);
  }
  const res = await fetch(origin + path, { method: 'POST', body: form });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

/** `editorApp` listening on loopback, for requests over real HTTP: its origin too. */
export async function listeningEditorApp(t: Test) {
  const editor = await editorApp(t);
  await editor.app.listen({ port: 0, host: '127.0.0.1' });
  return { ...editor, origin: `http://127.0.0.1:${(editor.app.server.address() as AddressInfo).port}` };
}

export async function editorApp(t: Test) {
  const base = await mkdtemp(join(tmpdir(), 'oe-skill-editor-'));
  t.teardown(() => rm(base, { recursive: true, force: true }));
  const repo = join(base, 'repo');
  const { app } = await buildTestApp(t, { SKILL_REPO_DIR: repo });
  return {
    app,
    repo,
    postForm: (url: string, fields: Record<string, string>, files: Parameters<typeof multipart>[0] = []) =>
      postFormTo(app, url, fields, files),
    ajaxGet: (url: string, payload: Record<string, string | number>, token?: string) =>
      ajaxGetFrom(app, url, payload, token),
    head: () => git(repo, 'rev-parse', 'HEAD').trim(),
  };
}
