/**
 * POST /cms/createSkill.json as the assistant spec defines it (shared/spec/assistant-and-app-generator.md,
 * "Create a skill image"): a multipart form with the file part `image`, the image name and the language
 * folder, no skill name. Its rules in its order: no `image` part, then no name or a name already present in
 * the language folder's `images`, each `accepted` false; otherwise a 512 x 512 JPEG under that name. The
 * skill editors' full create (susi_skill_cms SkillCreator.js, susi.ai SkillWizard.js: `skill` and the rest)
 * keeps working on the same endpoint. Every request goes over real HTTP as a browser's FormData.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import t from 'tap';
import { makeImage } from '../helpers/images.js';
import { git as gitIn, listeningEditorApp, postFormData } from '../helpers/skill-editor.js';
import { cmsGet } from '../helpers/susi-clients.js';
import { seedUser } from '../helpers/users.js';

const NAME_REFUSED = 'The Image name are not given or Image with same name is already present ';

const { app, repo, origin } = await listeningEditorApp(t);
const user = await seedUser(app);

const git = (...args: string[]) => gitIn(repo, ...args).trim();
const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );
const file = (bytes: Buffer, type = 'image/png') => new Blob([new Uint8Array(bytes)], { type });

const post = (fields: Record<string, string | Blob>) => postFormData(origin, '/cms/createSkill.json', fields);

t.test("the spec's request: the image, its name and the language folder, no skill", async (t) => {
  const before = git('rev-parse', 'HEAD');
  const res = await post({
    image: file(await makeImage('png', 300, 120)),
    image_name: 'tower.png',
    model: 'general',
    group: 'Knowledge',
    language: 'de',
    access_token: user.token,
  });
  t.equal(res.status, 200);
  t.equal(res.headers.get('content-type'), 'application/json; charset=utf-8', 'JSON, UTF-8 (rule 5)');
  t.equal(res.headers.get('access-control-allow-origin'), '*', 'CORS (rule 1)');
  t.equal(res.body.accepted, true, JSON.stringify(res.body));
  t.equal(typeof res.body.message, 'string');

  const folder = join(repo, 'models/general/Knowledge/de');
  const stored = await sharp(await readFile(join(folder, 'images/tower.png'))).metadata();
  t.same([stored.format, stored.width, stored.height], ['jpeg', 512, 512], 'a 512 x 512 JPEG under the name (rule 4)');
  t.same(
    (await readdir(folder)).filter((name) => name.endsWith('.txt')),
    [],
    'no skill file: the spec names no skill',
  );
  t.equal(git('rev-list', '--count', `${before}..HEAD`), '1', 'one commit');
  t.equal(git('log', '-1', '--format=%ae'), user.email, 'by the caller');
  t.equal(git('status', '--porcelain'), '', 'nothing left uncommitted');

  // The stored image is what the editors' card image URL serves.
  const served = await fetch(
    origin +
      cmsGet('/cms/getImage.png', { model: 'general', language: 'de', group: 'Knowledge', image: 'images/tower.png' }),
  );
  t.equal(served.status, 200);
  t.equal(served.headers.get('content-type'), 'image/jpeg');
});

t.test('without the image part: "Image not given", whatever else is missing (rule 2 comes first)', async (t) => {
  const head = git('rev-parse', 'HEAD');
  const cases: [string, Record<string, string>][] = [
    ['a name and the folder', { image_name: 'nothing.png', group: 'Knowledge', language: 'de' }],
    ['no name either', { group: 'Knowledge', language: 'de' }],
    ['a name already present', { image_name: 'tower.png', group: 'Knowledge', language: 'de' }],
    // susi.ai's text `image` (SkillWizard.js without a picture) is no file part.
    ['`image` as text', { image: 'images/default.png', image_name: 'default.png', language: 'de' }],
  ];
  for (const [what, fields] of cases) {
    const res = await post({ ...fields, access_token: user.token });
    t.equal(res.status, 200, what);
    t.equal(res.headers.get('content-type'), 'application/json; charset=utf-8', `${what}: JSON`);
    t.equal(res.headers.get('access-control-allow-origin'), '*', `${what}: CORS`);
    t.same([res.body.accepted, res.body.message], [false, 'Image not given'], what);
  }
  t.equal(git('rev-parse', 'HEAD'), head, 'nothing committed');
});

t.test('the name missing, or already present in the folder: refused (rule 3), nothing replaced', async (t) => {
  const head = git('rev-parse', 'HEAD');
  const path = join(repo, 'models/general/Knowledge/de/images/tower.png');
  const before = await readFile(path);
  const noName = await post({ image: file(await makeImage('png')), language: 'de', access_token: user.token });
  t.equal(noName.status, 200);
  t.same([noName.body.accepted, noName.body.message], [false, NAME_REFUSED], 'no image name');
  const taken = await post({
    image: file(await makeImage('jpeg', 40, 40), 'image/jpeg'),
    image_name: 'tower.png',
    group: 'Knowledge',
    language: 'de',
    access_token: user.token,
  });
  t.equal(taken.status, 200);
  t.same([taken.body.accepted, taken.body.message], [false, NAME_REFUSED], 'the name is present');
  t.equal(Buffer.compare(await readFile(path), before), 0, 'the stored picture is unchanged');
  t.equal(git('rev-parse', 'HEAD'), head, 'nothing committed');

  // The same name in another language folder is another image.
  const elsewhere = await post({
    image: file(await makeImage('png')),
    image_name: 'tower.png',
    group: 'Knowledge',
    language: 'fr',
    access_token: user.token,
  });
  t.equal(elsewhere.body.accepted, true, JSON.stringify(elsewhere.body));
  t.ok(await exists(join(repo, 'models/general/Knowledge/fr/images/tower.png')));
});

t.test('concurrent uploads of one name: exactly one is stored', async (t) => {
  const png = await makeImage('png', 50, 50);
  const answers = await Promise.all(
    [1, 2, 3, 4].map(() =>
      post({ image: file(png), image_name: 'race.png', language: 'de', access_token: user.token }),
    ),
  );
  t.same(answers.map((a) => a.body.accepted).sort(), [false, false, false, true]);
  t.same(
    answers.filter((a) => !a.body.accepted).map((a) => a.body.message),
    [NAME_REFUSED, NAME_REFUSED, NAME_REFUSED],
  );
});

t.test('a caller who is not logged in stores nothing', async (t) => {
  const res = await post({ image: file(await makeImage('png')), image_name: 'anonymous.png', language: 'de' });
  t.equal(res.status, 401);
  t.equal(res.body.accepted, false);
  t.notOk(await exists(join(repo, 'models/general/Knowledge/de/images/anonymous.png')));
});

t.test("the skill editors' create works alongside", async (t) => {
  // susi_skill_cms SkillCreator.js handleSubmit (create): the skill with its picture, replacing the picture of
  // that name as the reference does (the skill shows it).
  const created = await post({
    model: 'general',
    group: 'Knowledge',
    language: 'de',
    skill: 'Berliner_Fernsehturm',
    image: file(await makeImage('png', 80, 60)),
    content: '::name Berliner Fernsehturm\n::image images/tower.png\nfernsehturm\nIn Berlin.',
    image_name: 'tower.png',
    access_token: user.token,
  });
  t.equal(created.status, 200);
  t.equal(created.body.accepted, true, JSON.stringify(created.body));
  t.equal(
    await readFile(join(repo, 'models/general/Knowledge/de/Berliner_Fernsehturm.txt'), 'utf8'),
    '::name Berliner Fernsehturm\n::image images/tower.png\nfernsehturm\nIn Berlin.',
  );
  t.equal(git('log', '-1', '--format=%s'), 'Created Berliner_Fernsehturm');

  // susi.ai SkillWizard.js without a picture: `image` is the text of the default image.
  const wizard = await post({
    model: 'general',
    group: 'Knowledge',
    language: 'de',
    skill: 'Ohne_Bild',
    image: 'images/default.png',
    content: 'ohne bild\nKein Bild.',
    image_name: 'default.png',
    access_token: user.token,
  });
  t.equal(wizard.body.accepted, true, JSON.stringify(wizard.body));

  // The editor's form with the name field left empty still says so.
  const unnamed = await post({
    model: 'general',
    group: 'Knowledge',
    language: 'de',
    skill: '',
    image: file(await makeImage('png')),
    content: 'x',
    image_name: 'unnamed.png',
    access_token: user.token,
  });
  t.same([unnamed.status, unnamed.body.accepted, unnamed.body.message], [200, false, 'Skill name is not given']);
  t.notOk(await exists(join(repo, 'models/general/Knowledge/de/images/unnamed.png')), 'no image stored');
});
