/**
 * One editor session over real HTTP, each request built as susi_skill_cms builds it: src/index.js
 * (getApiKeys at start), src/components/Auth/Login/Login.js (login with the stale cookie token, then
 * showAdminService), src/api/index.js (groups, languages, skill page, history, file at a commit,
 * ratings, lists), src/components/SkillCreator/SkillCreator.js (createSkill and modifySkill as
 * FormData: the browser's multipart with the token in the form), SkillCardGrid.js (the card image URL).
 * Every slice of the face has its own tests; this one proves they make one working editor.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import t from 'tap';
import { buildTestApp } from '../helpers/app.js';
import { makeImage } from '../helpers/images.js';
import { cmsGet } from '../helpers/susi-clients.js';
import { seedUser } from '../helpers/users.js';

const base = await mkdtemp(join(tmpdir(), 'oe-editor-flow-'));
t.teardown(() => rm(base, { recursive: true, force: true }));
const { app } = await buildTestApp(t, { SKILL_REPO_DIR: join(base, 'repo') });
await app.listen({ port: 0, host: '127.0.0.1' });
const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
const user = await seedUser(app);

type Answer = { status: number; body: any; headers: Headers };
/** ajax.get: the cookie token first, the payload unencoded (src/helper/ajax.js). */
const get = async (path: string, payload: Record<string, unknown>, cookie?: string): Promise<Answer> => {
  const res = await fetch(origin + cmsGet(path, payload, cookie));
  return { status: res.status, body: await res.json(), headers: res.headers };
};
/** ajax.post of a FormData: axios leaves the multipart header with its boundary to the browser. */
const post = async (path: string, fields: Record<string, string | Blob>): Promise<Answer> => {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const res = await fetch(origin + path, { method: 'POST', body: form });
  return { status: res.status, body: await res.json(), headers: res.headers };
};

t.test(
  'susi_skill_cms: log in, create a skill with an image, see it, edit, rename, roll back, rate and browse',
  async (t) => {
    // src/index.js: the keys at every start, with the cookie of a session long gone.
    const stale = 'expired-cookie-token';
    const keys = await get('/aaa/getApiKeys.json', {}, stale);
    t.equal(keys.status, 200, 'a stale cookie token is an anonymous caller');
    t.equal(keys.body.accepted, true);

    // Login.js: login with the stale cookie attached, then showAdminService with the new token.
    const login = await get(
      '/aaa/login.json',
      { login: encodeURIComponent(user.email), password: encodeURIComponent(user.password), type: 'access-token' },
      stale,
    );
    t.equal(login.status, 200, JSON.stringify(login.body));
    t.match(login.body, { accepted: true, access_token: String, uuid: /^[0-9a-f]{32}$/, valid_seconds: Number });
    const token = login.body.access_token as string;
    const admin = await get('/aaa/showAdminService.json', {}, token);
    t.same([admin.status, admin.body.accepted, admin.body.showAdmin], [200, true, false], 'the login dialog closes');

    // The create page: groups and languages of a fresh install.
    const groups = await get('/cms/getGroups.json', {}, token);
    t.ok(groups.body.groups.length >= 20, `the reference's groups (${groups.body.groups.length})`);
    t.ok(groups.body.groups.includes('Knowledge'));
    const languages = await get('/cms/getAllLanguages.json', {}, token);
    t.ok(languages.body.languagesArray.includes('en'));

    // SkillCreator.js create mode.
    const png = await makeImage('png', 300, 200);
    const code =
      '::name Wetter für Köln\n::author Ada\n::description The weather in Cologne\n::image images/koeln.png\n\nwie ist das wetter in *\n!example:wie ist das wetter in Köln\nSonnig in $1$.\n';
    const created = await post('/cms/createSkill.json', {
      model: 'general',
      group: 'Knowledge',
      language: 'en',
      skill: 'Wetter für Köln'.trim().replace(/\s/g, '_'),
      image: new Blob([new Uint8Array(png)], { type: 'image/png' }),
      content: code,
      image_name: 'images/koeln.png'.replace('images/', ''),
      access_token: token,
    });
    t.same([created.status, created.body.accepted], [200, true], JSON.stringify(created.body));
    const skill = { model: 'general', group: 'Knowledge', language: 'en', skill: 'Wetter_für_Köln' };

    // The page opened next: the metadata from the file.
    const meta = await get('/cms/getSkillMetadata.json', skill, token);
    t.equal(meta.status, 200);
    t.match(meta.body.skill_metadata, {
      skill_name: 'Wetter für Köln',
      author: 'Ada',
      descriptions: 'The weather in Cologne',
      image: 'images/koeln.png',
      examples: ['wie ist das wetter in Köln'],
    });

    // SkillCardGrid.js: the card image.
    const image = await fetch(
      `${origin}${cmsGet('/cms/getImage.png', { model: 'general', language: 'en', group: 'Knowledge', image: meta.body.skill_metadata.image })}`,
    );
    t.equal(image.status, 200);
    const stored = await sharp(Buffer.from(await image.arrayBuffer())).metadata();
    t.same([stored.format, stored.width, stored.height], ['jpeg', 512, 512], 'the stored 512 x 512 image');

    // SkillCreator.js edit mode: save an edited text (no new image: the form carries the text `undefined`).
    const edit = (fields: Record<string, string>) =>
      post('/cms/modifySkill.json', {
        OldModel: 'general',
        OldGroup: 'Knowledge',
        OldLanguage: 'en',
        OldSkill: 'Wetter_für_Köln',
        NewModel: 'general',
        NewGroup: 'Knowledge',
        NewLanguage: 'en',
        NewSkill: 'Wetter_für_Köln',
        changelog: 'Rainy',
        content: code.replace('Sonnig', 'Regnerisch'),
        imageChanged: 'false',
        old_image_name: 'koeln.png',
        new_image_name: 'koeln.png',
        image_name_changed: 'false',
        access_token: token,
        ...fields,
      });
    const saved = await edit({});
    t.same(
      [saved.status, saved.body.accepted, saved.body.message],
      [200, true, 'Skill updated'],
      JSON.stringify(saved.body),
    );
    t.match((await get('/cms/getSkill.json', skill, token)).body.text, /Regnerisch in \$1\$/);

    // Rename (the name field changed): the skill, its history and its image move along.
    const renamed = await edit({ NewSkill: 'Kölner_Wetter', changelog: 'Rename', content: code });
    t.same([renamed.status, renamed.body.accepted], [200, true], JSON.stringify(renamed.body));
    const moved = { ...skill, skill: 'Kölner_Wetter' };
    t.equal((await get('/cms/getSkill.json', skill, token)).body.accepted, false, 'the old name is gone');

    // SkillHistory / SkillRollBack: the commits of the skill across the rename, the text at the first,
    // and the roll back posted as a modifySkill with that text.
    const history = await get('/cms/getSkillHistory.json', moved, token);
    t.equal(history.status, 200);
    t.same(
      history.body.commits.map((c: { commit_message: string }) => c.commit_message),
      ['Rename', 'Rainy', 'Created Wetter_für_Köln'],
    );
    const first = history.body.commits.at(-1).commitID as string;
    const old = await get('/cms/getFileAtCommitID.json', { ...moved, commitID: first }, token);
    t.equal(old.body.file, code);
    const rolledBack = await edit({
      OldSkill: 'Kölner_Wetter',
      NewSkill: 'Kölner_Wetter',
      changelog: `Rollback to ${first}`,
      content: old.body.file,
    });
    t.equal(rolledBack.body.accepted, true);

    // SkillPage: rate and leave feedback, then read both back.
    const rated = await get('/cms/fiveStarRateSkill.json', { ...moved, stars: 4 }, token);
    t.match(rated.body, { accepted: true, ratings: { four_star: 1, total_star: 1 } });
    t.equal((await get('/cms/feedbackSkill.json', { ...moved, feedback: 'Sehr gut' }, token)).body.accepted, true);
    const mine = await get('/cms/getRatingByUser.json', moved, token);
    t.equal(mine.body.ratings.stars, 4);
    const feedback = await get('/cms/getSkillFeedback.json', moved);
    t.same(
      feedback.body.feedback.map((f: { feedback: string }) => f.feedback),
      ['Sehr gut'],
    );

    // BrowseSkill: the metrics and the list show the skill by its ::name.
    const metrics = await get('/cms/getSkillMetricsData.json', { language: 'en' }, token);
    t.ok(
      metrics.body.metrics.newest.some(
        (s: { skill_tag: string; skill_name: string }) =>
          s.skill_tag === 'Kölner_Wetter' && s.skill_name === 'Wetter für Köln',
      ),
    );
    const list = await get(
      '/cms/getSkillList.json',
      {
        group: 'Knowledge',
        language: 'en',
        applyFilter: 'true',
        filter_name: 'descending',
        filter_type: 'rating',
        reviewed: false,
        staff_picks: false,
        q: '',
      },
      token,
    );
    t.equal(list.status, 200, JSON.stringify(list.body));
    t.ok(
      list.body.filteredData.some((s: { skill_tag: string }) => s.skill_tag === 'Kölner_Wetter'),
      'listed in its group',
    );

    // The preview of the editor: the example answered from the stored skill.
    const chat = await get('/susi/chat.json', { q: 'wie ist das wetter in Bonn' });
    t.equal(chat.body.answers[0].actions[0].expression, 'Sonnig in Bonn.');
  },
);
