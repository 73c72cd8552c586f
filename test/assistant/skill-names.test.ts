/** Path traversal on every name parameter of the /cms skill endpoints: 400 `Bad <what> name`, nothing written. */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import t, { type Test } from 'tap';
import { buildTestApp } from '../helpers/app.js';
import { makeImage, multipart } from '../helpers/images.js';
import { seedUser } from '../helpers/users.js';

/** Names that must never become a path segment (sent as the value, encoded by URLSearchParams). */
const BAD = [
  '..',
  '../x',
  '../../../../tmp/evil',
  'a/b',
  '/abs',
  '.hidden',
  '.',
  '%2e%2e',
  '%2e%2e%2fx',
  '..\\x',
  'a\\b',
  '\\abs',
  'a\0b',
  '\0',
];
/** Raw query values, decoded by the server into traversal. */
const RAW = ['%2e%2e', '..%2fx', '%2e%2e%2f%2e%2e%2fevil', '%5c..%5cx', 'a%00b'];

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd }).toString();

/** Every path under dir (the repository's .git internals excepted). */
async function tree(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .filter((p) => !/(^|\/)\.git(\/|$)/.test(p))
    .sort();
}

t.test('skill name parameters', async (t) => {
  const base = await mkdtemp(join(tmpdir(), 'oe-skill-names-'));
  t.teardown(() => rm(base, { recursive: true, force: true }));
  const repo = join(base, 'a', 'b', 'repo');
  await mkdir(repo, { recursive: true });
  const { app } = await buildTestApp(t, { SKILL_REPO_DIR: repo });
  const user = await seedUser(app);
  const png = await makeImage('png', 16, 16);

  // A real skill, so that only the bad name can be the reason of a refusal.
  const seed = await app.inject({
    method: 'POST',
    url: `/cms/modifySkill.json?${new URLSearchParams({ skill: 'ok', content: 'text', changelog: 'seed', access_token: user.token })}`,
  });
  t.equal(seed.statusCode, 200, seed.body);
  const head = git(repo, 'rev-parse', 'HEAD');
  const before = await tree(base);

  const expect400 = (
    t: Test,
    res: { statusCode: number; body: string; headers: Record<string, unknown> },
    what: string,
    label: string,
  ) => {
    t.equal(res.statusCode, 400, `${label}: ${res.body}`);
    t.equal(res.headers['content-type'], 'application/json; charset=utf-8', label);
    let body: { accepted?: boolean; message?: string } = {};
    try {
      body = JSON.parse(res.body);
    } catch {
      /* reported by the assertions below */
    }
    t.same(body, { accepted: false, message: `Bad ${what} name` }, label);
  };

  t.test('createSkill', async (t) => {
    const fields = {
      image_name: 'fine.jpg',
      model: 'general',
      group: 'Knowledge',
      language: 'en',
      skill: 'fine',
      content: 'x',
    };
    const params = [
      ['model', 'model'],
      ['group', 'group'],
      ['language', 'language'],
      ['skill', 'skill'],
      ['image_name', 'image'],
    ] as const;
    for (const [param, what] of params) {
      for (const bad of BAD) {
        const body = multipart([['image', 'i.png', png]], { ...fields, [param]: bad });
        const res = await app.inject({
          method: 'POST',
          url: '/cms/createSkill.json',
          payload: body.payload,
          headers: { ...body.headers, authorization: `JWT ${user.token}` },
        });
        expect400(t, res, what, `${param}=${JSON.stringify(bad)}`);
      }
    }
  });

  const queries: [url: string, params: Record<string, string>, names: [string, string][]][] = [
    [
      '/cms/modifySkill.json',
      { skill: 'ok', content: 'changed', changelog: 'evil', access_token: user.token },
      [
        ['model', 'model'],
        ['group', 'group'],
        ['language', 'language'],
        ['skill', 'skill'],
      ],
    ],
    ['/cms/getGroups.json', {}, [['model', 'model']]],
    [
      '/cms/getAllLanguages.json',
      {},
      [
        ['model', 'model'],
        ['group', 'group'],
      ],
    ],
    [
      '/cms/getLanguage.json',
      { skill: 'ok' },
      [
        ['model', 'model'],
        ['group', 'group'],
        ['skill', 'skill'],
      ],
    ],
    [
      '/cms/getSkill.json',
      { skill: 'ok' },
      [
        ['model', 'model'],
        ['group', 'group'],
        ['language', 'language'],
        ['skill', 'skill'],
      ],
    ],
  ];
  for (const [url, params, names] of queries) {
    t.test(url, async (t) => {
      for (const [param, what] of names) {
        for (const bad of BAD) {
          const res = await app.inject({
            method: 'GET',
            url: `${url}?${new URLSearchParams({ ...params, [param]: bad })}`,
          });
          expect400(t, res, what, `${param}=${JSON.stringify(bad)}`);
        }
        for (const raw of RAW) {
          const res = await app.inject({
            method: 'GET',
            url: `${url}?${new URLSearchParams(Object.entries(params).filter(([k]) => k !== param))}&${param}=${raw}`,
          });
          expect400(t, res, what, `${param}=${raw} (raw)`);
        }
      }
      if (url === '/cms/modifySkill.json') {
        for (const [param, what] of names) {
          for (const bad of BAD) {
            const res = await app.inject({
              method: 'POST',
              url,
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
              payload: new URLSearchParams({ ...params, [param]: bad }).toString(),
            });
            expect400(t, res, what, `POST ${param}=${JSON.stringify(bad)}`);
          }
        }
      }
    });
  }

  t.test('nothing was written, committed or left behind', async (t) => {
    t.same(await tree(base), before, 'no file appeared anywhere under the temp folder');
    t.equal(git(repo, 'rev-parse', 'HEAD'), head, 'no commit');
    t.equal(git(repo, 'status', '--porcelain', '--ignored', '--untracked-files=all'), '', 'git status clean');
    const rows = await app.sql<{ n: number }[]>`select count(*)::int as n from skills`;
    t.equal(rows[0]!.n, 1, 'no skill row');
    const ok = await app.inject({ method: 'GET', url: '/cms/getSkill.json?skill=ok' });
    t.equal(ok.json().text, 'text', 'the seeded skill is untouched');
  });
});
