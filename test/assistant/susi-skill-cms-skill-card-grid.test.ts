/**
 * susi_skill_cms src/components/SkillCardGrid/SkillCardGrid.js: every skill card shows
 * `${API_URL}/cms/getImage.png?model=${skill.model}&language=${skill.language}&group=${skill.group}&image=${skill.image}`
 * (an <img>: no token), built from the records of getSkillMetricsData / getSkillList.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync, symlinkSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import t from 'tap';
import { buildTestApp } from '../helpers/app.js';
import { makeImage, multipart } from '../helpers/images.js';
import { browserUrl, cmsGet, commitDirectly } from '../helpers/susi-clients.js';
import { seedUser } from '../helpers/users.js';

const GAMES = 'Games, Trivia and Accessories';

t.test('susi_skill_cms src/components/SkillCardGrid/SkillCardGrid.js: card images from getImage.png', async (t) => {
  const base = await mkdtemp(join(tmpdir(), 'oe-card-grid-'));
  t.teardown(() => rm(base, { recursive: true, force: true }));
  const repo = join(base, 'repo');
  // The contract is checked once openapi/openapi.json is regenerated with the routes of this branch.
  const { app } = await buildTestApp(t, { SKILL_REPO_DIR: repo });
  const author = await seedUser(app);
  const other = await seedUser(app);

  // The editor's createSkill (SkillCreator): multipart, token in the form, `::image images/<name>` in the text.
  const png = await makeImage('png', 300, 200);
  const form = multipart([['image', 'quiz.png', png]], {
    model: 'general',
    group: GAMES,
    language: 'en',
    skill: 'quiz_time',
    image_name: 'quiz.jpg',
    access_token: author.token,
    content:
      '::name Quiz Time\n::author Ada\n::image images/quiz.jpg\n::description A quiz\n!example:start a quiz\nstart a quiz\nFirst question!\n',
  });
  const created = await app.inject({
    method: 'POST',
    url: '/cms/createSkill.json',
    payload: form.payload,
    headers: form.headers,
  });
  t.equal(created.json().accepted, true, JSON.stringify(created.json()));

  const metrics = await app.inject({
    method: 'GET',
    url: cmsGet('/cms/getSkillMetricsData.json', { language: 'en' }, author.token),
  });
  const card = metrics.json().metrics[GAMES].find((r: { skill_tag: string }) => r.skill_tag === 'quiz_time');
  t.match(card, { skill_name: 'Quiz Time', image: 'images/quiz.jpg', model: 'general', group: GAMES, language: 'en' });

  const cardUrl = browserUrl(
    `/cms/getImage.png?model=${card.model}&language=${card.language}&group=${card.group}&image=${card.image}`,
  );
  t.equal(
    cardUrl,
    '/cms/getImage.png?model=general&language=en&group=Games,%20Trivia%20and%20Accessories&image=images/quiz.jpg',
    'the URL as the browser sends it',
  );
  const image = await app.inject({ method: 'GET', url: cardUrl });
  t.equal(image.statusCode, 200);
  t.equal(image.headers['content-type'], 'image/jpeg');
  const stored = readFileSync(join(repo, 'models', 'general', GAMES, 'en', 'images', 'quiz.jpg'));
  t.same(image.rawPayload, stored, 'the bytes of the image in the repository');
  t.match(await sharp(image.rawPayload).metadata(), { format: 'jpeg', width: 512, height: 512 });
  t.match(image.headers['cache-control'], /max-age=\d+/);
  t.match(image.headers.etag, /^W\/"[\w-]+"$/);
  t.ok(Date.parse(String(image.headers['last-modified'])), 'Last-Modified');
  t.equal(image.headers['access-control-allow-origin'], '*');

  t.test('conditional GET', async (t) => {
    const byTag = await app.inject({
      method: 'GET',
      url: cardUrl,
      headers: { 'if-none-match': String(image.headers.etag) },
    });
    t.equal(byTag.statusCode, 304);
    t.equal(byTag.rawPayload.length, 0);
    t.equal(byTag.headers.etag, image.headers.etag);
    const weak = await app.inject({
      method: 'GET',
      url: cardUrl,
      headers: { 'if-none-match': `"other", ${String(image.headers.etag).slice(2)}` },
    });
    t.equal(weak.statusCode, 304, 'the opaque tag in a list matches (weak comparison)');
    const changed = await app.inject({
      method: 'GET',
      url: cardUrl,
      headers: { 'if-none-match': '"other"', 'if-modified-since': new Date(Date.now() + 60_000).toUTCString() },
    });
    t.equal(changed.statusCode, 200, 'If-None-Match wins over If-Modified-Since');
    const since = await app.inject({
      method: 'GET',
      url: cardUrl,
      headers: { 'if-modified-since': String(image.headers['last-modified']) },
    });
    t.equal(since.statusCode, 304);
    const older = await app.inject({
      method: 'GET',
      url: cardUrl,
      headers: { 'if-modified-since': new Date(0).toUTCString() },
    });
    t.equal(older.statusCode, 200);
    t.equal(older.headers['content-type'], 'image/jpeg');
  });

  t.test('a skill committed by git, its type from the bytes', async (t) => {
    const gif = await makeImage('gif', 10, 10);
    const webp = await makeImage('webp', 10, 10);
    commitDirectly(repo, {
      'models/general/Knowledge/en/images/anim.gif': gif,
      // A PNG under a .jpg name: the bytes decide.
      'models/general/Knowledge/en/images/misnamed.jpg': png,
      'models/general/Knowledge/en/images/pic.webp': webp,
      'models/general/Knowledge/en/images/notes.png': 'not an image at all',
    });
    const get = (image: string) =>
      app.inject({
        method: 'GET',
        url: browserUrl(`/cms/getImage.png?model=general&language=en&group=Knowledge&image=${image}`),
      });
    let res = await get('images/anim.gif');
    t.equal(res.headers['content-type'], 'image/gif');
    t.same(res.rawPayload, gif);
    res = await get('images/misnamed.jpg');
    t.equal(res.headers['content-type'], 'image/png');
    res = await get('images/pic.webp');
    t.equal(res.headers['content-type'], 'image/webp');
    commitDirectly(repo, {
      'models/general/Knowledge/en/images/logo.svg':
        '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
    });
    res = await get('images/logo.svg');
    t.equal(res.headers['content-type'], 'image/svg+xml');
    t.match(res.headers['content-security-policy'], /sandbox/, 'an SVG runs no script');
    t.equal(res.headers['x-content-type-options'], 'nosniff');
    res = await get('images/notes.png');
    t.equal(res.statusCode, 200);
    t.equal(res.headers['content-type'], 'image/png', 'not an image: the default image');
    t.match(await sharp(res.rawPayload).metadata(), { format: 'png', width: 128, height: 128 });
  });

  t.test('the default image, never a 404: missing images and bad names', async (t) => {
    const defaultBytes = (
      await app.inject({
        method: 'GET',
        url: '/cms/getImage.png?model=general&language=en&group=Knowledge&image=images/none.png',
      })
    ).rawPayload;
    t.match(await sharp(defaultBytes).metadata(), { format: 'png' });
    const urls = [
      '/cms/getImage.png',
      '/cms/getImage.png?model=undefined&language=undefined&group=undefined&image=undefined',
      '/cms/getImage.png?model=general&language=en&group=Knowledge&image=',
      '/cms/getImage.png?model=general&language=en&group=Knowledge',
      '/cms/getImage.png?model=general&language=en&group=Nope&image=images/quiz.jpg',
      '/cms/getImage.png?model=general&language=en&group=../../..&image=etc/passwd',
      '/cms/getImage.png?model=general&language=en&group=Knowledge&image=../../../../../etc/passwd',
      '/cms/getImage.png?model=general&language=en&group=Knowledge&image=images/../../../Games/en/images/quiz.jpg',
      '/cms/getImage.png?model=..&language=en&group=Knowledge&image=images/quiz.jpg',
      '/cms/getImage.png?model=general&language=en&group=Knowledge&image=%2Fetc%2Fpasswd',
      '/cms/getImage.png?model=general&language=en&group=Knowledge&image=images%2F..%2F..%2Fx',
      '/cms/getImage.png?model=general&language=en&group=Knowledge&image=images/a%00b.png',
      '/cms/getImage.png?image=../../.git/config',
      '/cms/getImage.png?image=a/b/c',
      '/cms/getImage.png?sliderImage=x.png',
      `/cms/getImage.png?model=general&language=en&group=${encodeURIComponent(GAMES)}&image=images/quiz.jpg&access_token=not-a-token`,
    ];
    for (const url of urls) {
      const res = await app.inject({ method: 'GET', url });
      t.equal(res.statusCode, 200, url);
      t.equal(res.headers['content-type'], 'image/png', url);
      t.same(res.rawPayload, defaultBytes, `${url}: the default image`);
    }
    const twice = await app.inject({ method: 'GET', url: '/cms/getImage.png?image=a&image=b' });
    t.equal(twice.statusCode, 400, 'a parameter given twice');
    t.equal(twice.json().accepted, false);
  });

  t.test('a link inside the repository is not followed', async (t) => {
    symlinkSync('/etc/hostname', join(repo, 'models', 'general', 'Knowledge', 'en', 'images', 'link.png'));
    const res = await app.inject({
      method: 'GET',
      url: '/cms/getImage.png?model=general&language=en&group=Knowledge&image=images/link.png',
    });
    t.equal(res.headers['content-type'], 'image/png');
    t.match(await sharp(res.rawPayload).metadata(), { width: 128, height: 128 });
  });

  t.test('uploaded images: image=<uuid>/<file> from uploads/', async (t) => {
    const folder = randomUUID();
    const upload = await makeImage('jpeg', 40, 30);
    commitDirectly(repo, { [`uploads/${folder}/photo.jpg`]: upload });
    const res = await app.inject({ method: 'GET', url: `/cms/getImage.png?image=${folder}/photo.jpg` });
    t.equal(res.headers['content-type'], 'image/jpeg');
    t.same(res.rawPayload, upload);
  });

  t.test("a private bot's image: access_token instead of model", async (t) => {
    const botImage = await makeImage('png', 20, 20);
    commitDirectly(repo, { [`private/${author.id}/Knowledge/en/images/bot.png`]: botImage });
    const own = await app.inject({
      method: 'GET',
      url: cmsGet('/cms/getImage.png', { group: 'Knowledge', language: 'en', image: 'images/bot.png' }, author.token),
    });
    t.same(own.rawPayload, botImage, "the caller's own bot image");
    t.match(own.headers['cache-control'], /^private/);
    const foreign = await app.inject({
      method: 'GET',
      url: cmsGet('/cms/getImage.png', { group: 'Knowledge', language: 'en', image: 'images/bot.png' }, other.token),
    });
    t.not(Buffer.compare(foreign.rawPayload, botImage), 0, "another user's token: not that image");
    t.equal(foreign.headers['content-type'], 'image/png');
    const asPublic = await app.inject({
      method: 'GET',
      url: '/cms/getImage.png?model=general&group=Knowledge&language=en&image=images/bot.png',
    });
    t.not(Buffer.compare(asPublic.rawPayload, botImage), 0, 'not under models/: the default image');
  });
});
