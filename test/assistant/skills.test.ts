/** The skill endpoints of /cms: createSkill, modifySkill (JSONP), the lists and getSkill. */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import t from 'tap';
import { buildTestApp } from '../helpers/app.js';
import { makeImage, multipart, type ImageFormat } from '../helpers/images.js';
import { seedUser } from '../helpers/users.js';
import { DEFAULT_GROUPS } from '../../src/assistant/skill-repo.js';

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd }).toString();
const lastCommit = (cwd: string) => git(cwd, 'log', '-1', '--format=%ae%x00%s').trim().split('\0');
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

t.test('skills', async (t) => {
  const base = await mkdtemp(join(tmpdir(), 'oe-skills-test-'));
  t.teardown(() => rm(base, { recursive: true, force: true }));
  const repo = join(base, 'repo');
  const { app } = await buildTestApp(t, { SKILL_REPO_DIR: repo });
  const user = await seedUser(app);
  const auth = { authorization: `JWT ${user.token}` };

  const create = async (
    app: FastifyInstance,
    files: Parameters<typeof multipart>[0],
    fields: Record<string, string>,
    headers: Record<string, string> = auth,
  ) => {
    const body = multipart(files, fields);
    const res = await app.inject({
      method: 'POST',
      url: '/cms/createSkill.json',
      payload: body.payload,
      headers: { ...body.headers, ...headers },
    });
    return { status: res.statusCode, headers: res.headers, body: res.json() };
  };
  const form = (url: string, fields: Record<string, string>) =>
    app.inject({ method: 'POST', url, headers: { ...FORM, ...auth }, payload: new URLSearchParams(fields).toString() });
  const get = (url: string, query: Record<string, string> = {}) =>
    app.inject({ method: 'GET', url: `${url}?${new URLSearchParams(query)}` });

  t.test('createSkill refusals', async (t) => {
    const png = await makeImage('png', 20, 20);
    const anon = await create(app, [['image', 'a.png', png]], { image_name: 'anon.jpg' }, {});
    t.equal(anon.status, 401);
    t.equal(anon.body.accepted, false);
    t.match(anon.body.message, /^Base user role not sufficient/);
    t.equal(anon.headers['access-control-allow-origin'], '*');

    // An editor's form with the name field left empty (without `skill` it is the spec's image upload, tested in
    // create-skill-image.test.ts).
    const noSkill = await create(app, [['image', 'a.png', png]], { image_name: 'x.jpg', skill: '' });
    t.equal(noSkill.status, 200);
    t.same([noSkill.body.accepted, noSkill.body.message], [false, 'Skill name is not given']);

    const noImage = await create(app, [], { image_name: 'x.jpg', skill: 'noimage' });
    t.equal(noImage.status, 200);
    t.equal(noImage.body.accepted, false);
    t.equal(noImage.body.message, 'Image not given');
    t.equal(noImage.headers['content-type'], 'application/json; charset=utf-8');

    const noName = await create(app, [['image', 'a.png', png]], { skill: 'noname' });
    t.equal(noName.status, 200);
    t.same(
      [noName.body.accepted, noName.body.message],
      [false, 'The Image name are not given or Image with same name is already present '],
    );

    const first = await create(app, [['image', 'a.png', png]], { image_name: 'dup.jpg', skill: 'dup1' });
    t.equal(first.body.accepted, true, JSON.stringify(first.body));
    const dup = await create(app, [['image', 'a.png', await makeImage('png', 30, 30)]], {
      image_name: 'dup.jpg',
      skill: 'dup2',
    });
    t.equal(dup.status, 200);
    t.equal(dup.body.accepted, true, 'an image of the same name is replaced, as the reference does');
    t.equal(
      git(repo, 'log', '--format=%s')
        .split('\n')
        .filter((s) => s.startsWith('Created dup')).length,
      2,
    );
  });

  t.test('createSkill stores a 512x512 JPEG whatever the input, the text, and commits', async (t) => {
    const inputs: [ImageFormat, number, number][] = [
      ['png', 40, 30],
      ['jpeg', 1200, 700],
      ['gif', 16, 64],
      ['webp', 513, 2],
    ];
    for (const [format, w, h] of inputs) {
      const name = `pic-${format}.jpg`;
      const res = await create(app, [['image', `in.${format}`, await makeImage(format, w, h)]], {
        image_name: name,
        model: 'general',
        group: 'Knowledge',
        language: 'de',
        skill: `pic_${format}`,
      });
      t.equal(res.status, 200);
      t.equal(res.body.accepted, true, JSON.stringify(res.body));
      const meta = await sharp(await readFile(join(repo, 'models/general/Knowledge/de/images', name))).metadata();
      t.same([meta.format, meta.width, meta.height], ['jpeg', 512, 512], `${format} ${w}x${h}`);
      t.same(lastCommit(repo), [user.email, `Created pic_${format}`]);
    }
    const res = await create(app, [['image', 'i.png', await makeImage('png')]], {
      image_name: 'weather.jpg',
      group: 'Utilities',
      language: 'en',
      skill: 'weather',
      content: '::name Weather\nweather|forecast\n!example:weather?',
    });
    t.equal(res.body.accepted, true, JSON.stringify(res.body));
    t.same(
      res.body.session?.identity,
      { type: 'email', name: user.email, anonymous: false },
      'session.identity of the caller',
    );
    t.equal(
      await readFile(join(repo, 'models/general/Utilities/en/weather.txt'), 'utf8'),
      '::name Weather\nweather|forecast\n!example:weather?',
    );
    t.same(lastCommit(repo), [user.email, 'Created weather']);
    t.equal(git(repo, 'status', '--porcelain'), '', 'nothing left uncommitted');
    const row = await app.sql<{ author_email: string }[]>`select author_email from skills where name = 'weather'`;
    t.equal(row[0]?.author_email, user.email, 'metadata row');
  });

  t.test('modifySkill', async (t) => {
    const anon = await get('/cms/modifySkill.json', { skill: 's', content: 'x', changelog: 'c' });
    t.equal(anon.statusCode, 401);
    const noLog = await form('/cms/modifySkill.json', { skill: 'calc', content: 'x' });
    t.equal(noLog.statusCode, 400);
    t.equal(noLog.json().accepted, false);
    const empty = await form('/cms/modifySkill.json', { skill: 'calc', content: '', changelog: 'c' });
    t.equal(empty.statusCode, 400);
    t.same(empty.json(), { accepted: false, message: 'modification is empty' });

    const post = await form('/cms/modifySkill.json', {
      model: 'general',
      group: 'Utilities',
      language: 'en',
      skill: 'calc',
      content: 'calc v1',
      changelog: 'First calc',
    });
    t.equal(post.statusCode, 200);
    const body = post.json();
    t.equal(body.accepted, true);
    t.equal(body.message, 'Skill Modified Successfully');
    t.equal(body.commit, git(repo, 'rev-parse', 'HEAD').trim());
    t.same(lastCommit(repo), [user.email, 'First calc']);
    t.equal(await readFile(join(repo, 'models/general/Utilities/en/calc.txt'), 'utf8'), 'calc v1');

    const viaGet = await app.inject({
      method: 'GET',
      url: `/cms/modifySkill.json?${new URLSearchParams({ group: 'Utilities', skill: 'calc', content: 'calc v2', changelog: 'Second calc', access_token: user.token, callback: 'cb' })}`,
    });
    t.equal(viaGet.statusCode, 200);
    t.equal(viaGet.headers['content-type'], 'application/javascript; charset=utf-8');
    t.equal(viaGet.headers['access-control-allow-origin'], '*');
    const m = /^cb\((.*)\);\n$/s.exec(viaGet.body);
    t.ok(m, `JSONP form: ${viaGet.body}`);
    const inner = JSON.parse(m![1]!);
    t.same(
      [inner.accepted, inner.message, inner.commit],
      [true, 'Skill Modified Successfully', git(repo, 'rev-parse', 'HEAD').trim()],
    );
    t.equal(viaGet.body, `cb(${JSON.stringify(inner)});\n`);
    t.same(lastCommit(repo), [user.email, 'Second calc']);
    t.equal(await readFile(join(repo, 'models/general/Utilities/en/calc.txt'), 'utf8'), 'calc v2');

    const dotted = await app.inject({
      method: 'GET',
      url: `/cms/modifySkill.json?${new URLSearchParams({ group: 'Utilities', skill: 'calc', content: 'calc v3', changelog: 'Third', access_token: user.token, callback: 'jQuery123.handle' })}`,
    });
    t.equal(dotted.statusCode, 200);
    t.match(dotted.body, /^jQuery123\.handle\(\{.*\}\);\n$/s);
  });

  t.test('modifySkill refuses callbacks that are not identifier paths', async (t) => {
    const head = git(repo, 'rev-parse', 'HEAD');
    for (const callback of [
      'alert(1)',
      'a;b',
      '<script>',
      'x.y(',
      'a b',
      '1abc',
      'a]',
      'a'.repeat(300),
      'alert(document.cookie)//',
    ]) {
      const res = await app.inject({
        method: 'GET',
        url: `/cms/modifySkill.json?${new URLSearchParams({ skill: 'inj', content: 'x', changelog: 'inj', access_token: user.token, callback })}`,
      });
      t.equal(res.statusCode, 400, callback.slice(0, 20));
      t.equal(res.headers['content-type'], 'application/json; charset=utf-8');
      t.equal(res.json().accepted, false);
      t.notOk(res.body.includes(callback), 'the callback is not echoed');
    }
    t.equal(git(repo, 'rev-parse', 'HEAD'), head, 'no commit');
  });

  t.test('lists', async (t) => {
    const models = (await get('/cms/getModel.json')).json();
    t.same(models.modelsArray, ['general']);
    t.equal(models.session.identity.anonymous, true);
    const groups = await get('/cms/getGroups.json', { model: 'general' });
    t.equal(groups.statusCode, 200);
    // A fresh repository ships the reference's twenty groups.
    t.same(groups.json().groups, [...DEFAULT_GROUPS].sort());
    t.equal(groups.json().message, 'Success: Fetched group list');
    // The reference lists a group's language only when its folder holds more than one entry: Knowledge's
    // de and en hold the images folder and the skills made above, as Utilities/en does; a language
    // folder with one skill alone is not listed (fr below, until its second skill).
    t.same((await get('/cms/getAllLanguages.json', { model: 'general', group: 'Knowledge' })).json().languagesArray, [
      'de',
      'en',
    ]);
    t.same(
      (await get('/cms/getAllLanguages.json', { model: 'general' })).json().languagesArray,
      ['de', 'en'],
      'no group: the folders of Knowledge',
    );
    t.same((await get('/cms/getAllLanguages.json', { model: 'general', group: 'Utilities' })).json().languagesArray, [
      'en',
    ]);
    await form('/cms/modifySkill.json', {
      group: 'Utilities',
      language: 'fr',
      skill: 'calc',
      content: 'calc fr',
      changelog: 'fr',
    });
    t.same((await get('/cms/getAllLanguages.json', { model: 'general', group: 'All' })).json().languagesArray, [
      'de',
      'en',
    ]);
    await form('/cms/modifySkill.json', {
      group: 'Utilities',
      language: 'fr',
      skill: 'calc2',
      content: 'calc2 fr',
      changelog: 'fr 2',
    });
    t.same((await get('/cms/getAllLanguages.json', { model: 'general', group: 'All' })).json().languagesArray, [
      'de',
      'en',
      'fr',
    ]);
    t.same(
      (await get('/cms/getLanguage.json', { model: 'general', group: 'Utilities', skill: 'calc' })).json()
        .languageJsonArray,
      ['en', 'fr'],
    );
    t.same(
      (await get('/cms/getLanguage.json', { model: 'general', group: 'Utilities', skill: 'nothing' })).json()
        .languageJsonArray,
      [],
    );
    t.same((await get('/cms/getGroups.json', { model: 'nomodel' })).json().groups, []);
  });

  t.test('getSkill answers the text (accepted false when missing) and counts no usage', async (t) => {
    const missing = await get('/cms/getSkill.json', { group: 'Utilities', language: 'en', skill: 'nope' });
    t.equal(missing.statusCode, 200);
    t.match(missing.json(), { accepted: false });
    const usage = async () => {
      const rows = await app.sql<
        { n: number }[]
      >`select coalesce(sum(u.count), 0)::int as n from skill_usage u join skills s on s.id = u.skill_id where s.name = 'weather'`;
      return rows[0]!.n;
    };
    for (let i = 1; i <= 3; i++) {
      const res = await get('/cms/getSkill.json', {
        model: 'general',
        group: 'Utilities',
        language: 'en',
        skill: 'weather',
      });
      t.equal(res.statusCode, 200);
      const body = res.json();
      t.equal(body.accepted, true);
      t.equal(body.text, '::name Weather\nweather|forecast\n!example:weather?');
    }
    t.equal(await usage(), 0, 'reading a skill is no use of it');
    const metrics = await get('/cms/getSkillMetricsData.json', { language: 'en', model: 'general', group: 'All' });
    t.equal(metrics.statusCode, 200);
    const record = (metrics.json().metrics.usage as { skill_name: string; usage_count: number }[]).find(
      (s) => s.skill_name === 'weather',
    );
    t.equal(record, undefined, 'listed by its ::name');
    const weather = (
      metrics.json().metrics.usage as { skill_name: string; skill_tag: string; usage_count: number; image: string }[]
    ).find((s) => s.skill_tag === 'weather');
    t.match(weather, { skill_name: 'Weather', usage_count: 0, image: 'images/weather.jpg' });
  });
});
