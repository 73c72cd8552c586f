/**
 * createSkill never overwrites a skill (the reference's "The '<path>' already exists."): the refusal
 * leaves the text, the image folder and the repository's history as they were.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { buildTestApp } from '../helpers/app.js';
import { makeImage, multipart } from '../helpers/images.js';
import { seedUser } from '../helpers/users.js';

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd }).toString();

t.test('createSkill refuses a skill that already exists and writes nothing', async (t) => {
  const base = await mkdtemp(join(tmpdir(), 'oe-skill-overwrite-'));
  t.teardown(() => rm(base, { recursive: true, force: true }));
  const repo = join(base, 'repo');
  const { app } = await buildTestApp(t, { SKILL_REPO_DIR: repo });
  const author = await seedUser(app);
  const intruder = await seedUser(app);
  const png = await makeImage('png', 20, 20);
  const createSkill = async (token: string, fields: Record<string, string>) => {
    const body = multipart([['image', 'a.png', png]], { group: 'Utilities', skill: 'weather', ...fields });
    const res = await app.inject({
      method: 'POST',
      url: '/cms/createSkill.json',
      payload: body.payload,
      headers: { ...body.headers, authorization: `JWT ${token}` },
    });
    return { status: res.statusCode, body: res.json() };
  };
  const text = join(repo, 'models/general/Utilities/en/weather.txt');

  const first = await createSkill(author.token, { image_name: 'weather.jpg', content: 'weather|forecast' });
  t.equal(first.body.accepted, true, JSON.stringify(first.body));
  const history = git(repo, 'log', '--format=%H');

  for (const [who, token] of [
    ['another user', intruder.token],
    ['the author', author.token],
  ] as const) {
    const again = await createSkill(token, { image_name: `other-${who.length}.jpg`, content: 'hijacked' });
    t.equal(again.status, 200, `${who}: answered like the other createSkill refusals`);
    t.same(
      [again.body.accepted, again.body.message],
      [false, "The 'models/general/Utilities/en/weather.txt' already exists."],
      `${who}: refused, naming the path inside the repository only`,
    );
    t.notOk(again.body.message.includes(repo), `${who}: the server's folder is not named`);
  }
  t.equal(await readFile(text, 'utf8'), 'weather|forecast', 'the text is unchanged');
  t.same(
    await readdir(join(repo, 'models/general/Utilities/en/images')),
    ['weather.jpg'],
    'no image of the refused requests was stored',
  );
  t.equal(git(repo, 'log', '--format=%H'), history, 'no commit');
  t.equal(git(repo, 'status', '--porcelain'), '', 'nothing left uncommitted');
  const rows = await app.sql<{ author_email: string }[]>`select author_email from skills where name = 'weather'`;
  t.same(
    rows.map((r) => r.author_email),
    [author.email],
    'the metadata still names the author',
  );

  const modified = await app.inject({
    method: 'POST',
    url: '/cms/modifySkill.json',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `JWT ${author.token}` },
    payload: new URLSearchParams({
      group: 'Utilities',
      skill: 'weather',
      content: 'weather v2',
      changelog: 'v2',
    }).toString(),
  });
  t.equal(modified.json().accepted, true, 'changing a skill goes through modifySkill, with a changelog');
});
