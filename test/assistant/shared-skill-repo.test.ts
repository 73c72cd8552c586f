/**
 * The skill repository every process shares through PostgreSQL (src/assistant/skill-repo.ts): two
 * processes with mirrors of their own, requests as susi_skill_cms builds them (createSkill and
 * modifySkill as multipart forms, the history and rollback pages' GETs; test/helpers/skill-editor.ts).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import t from 'tap';
import { buildOtherApp, buildTestApp } from '../helpers/app.js';
import { makeImage } from '../helpers/images.js';
import { ajaxGetFrom, editFields, git, postFormTo } from '../helpers/skill-editor.js';
import { cmsGet, commitDirectly } from '../helpers/susi-clients.js';
import { seedUser } from '../helpers/users.js';

const base = await mkdtemp(join(tmpdir(), 'oe-shared-skills-'));
t.teardown(() => rm(base, { recursive: true, force: true }));
const mirrors = { a: join(base, 'a'), b: join(base, 'b'), c: join(base, 'c') };
// A failing publication answers 500 (below): outside the contract on purpose.
const { app: a, url } = await buildTestApp(t, { SKILL_REPO_DIR: mirrors.a }, { contract: false });
const b = await buildOtherApp(t, url, { SKILL_REPO_DIR: mirrors.b });
const author = await seedUser(a);
const editor = await seedUser(a);
const skill = { model: 'general', group: 'Science', language: 'en', skill: 'Planets' };
const text = (n: number) => `::name Planets\n::author_email ${author.email}\nplanets\nVersion ${n}.`;

const postForm = postFormTo;
const ajaxGet = async (app: FastifyInstance, url: string, payload: Record<string, string>) =>
  (await ajaxGetFrom(app, url, payload)).body;
/** susi_skill_cms SkillCreator's save of an edit (src/components/SkillCreator/SkillCreator.js). */
const modify = (app: FastifyInstance, content: string, changelog: string, token = editor.token) =>
  postForm(app, '/cms/modifySkill.json', editFields(skill, 'planets.png', content, changelog, token));
const history = async (app: FastifyInstance) =>
  (await ajaxGet(app, '/cms/getSkillHistory.json', skill)).commits as {
    commitID: string;
    commit_message: string;
    author_mail: string;
  }[];
const textOf = async (app: FastifyInstance) => (await ajaxGet(app, '/cms/getSkill.json', skill)).text as string;
const head = (mirror: string) => git(mirror, 'rev-parse', 'HEAD').trim();

t.test(
  'a skill created through one process is read, modified and rolled back through the other, with one history',
  async (t) => {
    const created = await postForm(
      a,
      '/cms/createSkill.json',
      { ...skill, content: text(1), image_name: 'planets.png', access_token: author.token },
      [['image', 'planets.png', await makeImage('png', 64, 64)]],
    );
    t.equal(created.body.accepted, true, JSON.stringify(created.body));
    t.equal(await textOf(b), text(1), 'read through the other process at once');
    const image = await b.inject({
      method: 'GET',
      url: cmsGet('/cms/getImage.png', { ...skill, image: 'images/planets.png' }),
    });
    t.same([image.statusCode, image.headers['content-type']], [200, 'image/jpeg'], 'and its image');

    t.equal((await modify(b, text(2), 'Second version')).body.accepted, true, 'modified through the other');
    t.equal(await textOf(a), text(2));
    const commits = await history(a);
    t.same(
      commits.map((c) => c.commit_message),
      ['Second version', 'Created Planets'],
    );
    t.same(await history(b), commits, 'the same commits, with the same ids, on both');

    // SkillRollBack.js: the old version by getFileAtCommitID, then modifySkill with its text.
    const old = await ajaxGet(b, '/cms/getFileAtCommitID.json', { ...skill, commitID: commits[1]!.commitID });
    t.equal(old.file, text(1));
    t.equal((await modify(a, old.file, `Rollback to ${commits[1]!.commitID}`, author.token)).body.accepted, true);
    t.equal(await textOf(b), text(1), 'rolled back through the first, seen by the other');
    t.same(
      (await history(b)).map((c) => c.author_mail),
      [author.email, editor.email, author.email],
    );
    t.equal(head(mirrors.a), head(mirrors.b), 'both mirrors at the same commit');
  },
);

t.test('concurrent edits of one skill through both processes: every one is a commit, none lost', async (t) => {
  const edits = Array.from({ length: 12 }, (_, i) => ({ app: i % 2 ? b : a, n: 100 + i }));
  const answers = await Promise.all(edits.map(({ app, n }) => modify(app, text(n), `Edit ${n}`)));
  t.same(
    answers.map((r) => r.body.accepted),
    edits.map(() => true),
  );
  const messages = (await history(a)).map((c) => c.commit_message);
  t.same(
    messages.filter((m) => m.startsWith('Edit ')).sort(),
    edits.map(({ n }) => `Edit ${n}`).sort(),
    'twelve commits, one per edit',
  );
  const last = Number(/^Edit (\d+)$/.exec(messages[0]!)![1]);
  t.equal(await textOf(a), text(last), 'the text is the newest commit’s');
  t.equal(await textOf(b), text(last));
  t.same(await history(b), await history(a));
  t.equal(git(mirrors.a, 'status', '--porcelain'), '', 'nothing left uncommitted');
  t.equal(git(mirrors.b, 'status', '--porcelain'), '');
});

t.test('a commit made by hand in a mirror is published with that process’s next change', async (t) => {
  commitDirectly(mirrors.a, { 'models/general/Science/en/Moons.txt': 'moons\nMany moons.' }, 'Moons by hand');
  t.equal((await modify(a, text(200), 'After the hand commit')).body.accepted, true);
  t.equal((await ajaxGet(b, '/cms/getSkill.json', { ...skill, skill: 'Moons' })).text, 'moons\nMany moons.');
  t.same(
    (await ajaxGet(b, '/cms/getSkillHistory.json', { ...skill, skill: 'Moons' })).commits.map(
      (c: { commit_message: string }) => c.commit_message,
    ),
    ['Moons by hand'],
  );
});

t.test('a change whose publication fails is not made anywhere', async (t) => {
  const before = { a: head(mirrors.a), text: await textOf(b) };
  await a.sql`create function refuse_bundle() returns trigger language plpgsql as $$ begin raise exception 'refused by the test'; end $$`;
  await a.sql`create trigger refuse before insert on skill_repo_bundles for each row execute function refuse_bundle()`;
  const refused = await modify(a, text(300), 'Never published');
  t.equal(refused.status, 500);
  await a.sql`drop trigger refuse on skill_repo_bundles`;
  t.equal(head(mirrors.a), before.a, 'the mirror went back to its commit');
  t.equal(git(mirrors.a, 'status', '--porcelain'), '');
  t.equal(await textOf(a), before.text);
  t.equal(await textOf(b), before.text);
  t.notOk((await history(a)).some((c) => c.commit_message === 'Never published'));
  t.equal((await modify(a, text(301), 'Published again')).body.accepted, true, 'the next change goes through');
  t.equal(await textOf(b), text(301));
});

t.test('a process with an empty folder starts from the newest full bundle; older rows are dropped', async (t) => {
  for (let n = 0; n < 100; n++) t.equal((await modify(n % 2 ? a : b, text(400 + n), `Bulk ${n}`)).status, 200);
  const rows = await a.sql<{ full: boolean }[]>`select "full" from skill_repo_bundles order by seq`;
  t.ok(rows.length < 100, `${rows.length} rows kept of the ${100 + 20} changes`);
  t.equal(rows[0]!.full, true, 'the first row kept holds the whole history');
  const c = await buildOtherApp(t, url, { SKILL_REPO_DIR: mirrors.c });
  t.same(await history(c), await history(a), 'the third process has the whole history');
  t.equal(await textOf(c), text(499));
  t.equal(head(mirrors.c), head(mirrors.a));
  t.equal(git(mirrors.c, 'status', '--porcelain'), '');
});
