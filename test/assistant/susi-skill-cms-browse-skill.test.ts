/**
 * The editor's read paths (susi_skill_cms): the category and language lists of a fresh install, the
 * metric lists of the front page (src/redux/reducers/skills.js), a skill's page (SkillPage with
 * src/redux/reducers/skill.js), the browse lists (src/components/BrowseSkill/BrowseSkill.js), the
 * dashboard's skills by author and the bot builder's reads. Requests are built as src/api/index.js and
 * src/helper/ajax.js build them: unencoded GET queries with the `loggedIn` cookie's token first.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import t, { type Test } from 'tap';
import { DEFAULT_GROUPS } from '../../src/assistant/skill-repo.js';
import { buildTestApp } from '../helpers/app.js';
import { cmsGet, commitDirectly } from '../helpers/susi-clients.js';
import { seedUser, type TestUser } from '../helpers/users.js';

const GAMES = 'Games, Trivia and Accessories';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** lodash camelCase of a key, as the editor's camelizeKeys renames every member. */
const camel = (key: string) =>
  key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w, i) => (i === 0 ? w.toLowerCase() : w[0]!.toUpperCase() + w.slice(1).toLowerCase()))
    .join('');

const HANDMADE = [
  '::name Capital Cities',
  '::author Grace Hopper',
  '::author_url https://example.org/grace',
  '::author_email grace@example.org',
  '::description Names the capital of a country',
  '::image images/capitals.png',
  '::dynamic_content Yes',
  '::developer_privacy_policy https://example.org/privacy',
  '::terms_of_use https://example.org/terms',
  '',
  '!example:what is the capital of France',
  'what is the capital of *|capital of *',
  'I do not know the capital of $1$ yet.',
  '',
].join('\n');

async function setup(t: Test) {
  const base = await mkdtemp(join(tmpdir(), 'oe-browse-'));
  t.teardown(() => rm(base, { recursive: true, force: true }));
  const repo = join(base, 'repo');
  // The contract is checked once openapi/openapi.json is regenerated with the routes of this branch.
  const { app } = await buildTestApp(t, { SKILL_REPO_DIR: repo });
  return { app, repo };
}

const get = async (app: FastifyInstance, url: string) => {
  const res = await app.inject({ method: 'GET', url });
  return { status: res.statusCode, body: res.json() };
};
const modify = (app: FastifyInstance, user: TestUser, fields: Record<string, string>) =>
  app.inject({
    method: 'POST',
    url: '/cms/modifySkill.json',
    headers: FORM,
    payload: new URLSearchParams({
      model: 'general',
      language: 'en',
      changelog: 'write',
      ...fields,
      access_token: user.token,
    }).toString(),
  });

t.test(
  'susi_skill_cms src/redux/reducers/skills.js: a fresh install lists the reference groups and a language',
  async (t) => {
    const { app, repo } = await setup(t);
    // fetchGroupOptions: ajax.get(url, {}) -> the reducer sorts `groups` and puts `All` first.
    const groups = await get(app, cmsGet('/cms/getGroups.json', {}));
    t.equal(groups.status, 200);
    t.equal(groups.body.groups.length, 20);
    t.same(groups.body.groups, [...DEFAULT_GROUPS].sort());
    t.ok(groups.body.groups.includes(GAMES) && groups.body.groups.includes('Knowledge'));
    // fetchAllLanguageOptions (the editor: no group) -> the languages of Knowledge.
    const languages = await get(app, cmsGet('/cms/getAllLanguages.json', {}));
    t.same(languages.body.languagesArray, ['en']);
    // BrowseSkill before a category is chosen: fetchLanguageOptions({groupValue: undefined}) sends `group=undefined`.
    t.same((await get(app, cmsGet('/cms/getAllLanguages.json', { group: undefined }))).body.languagesArray, ['en']);
    // The placeholders are in the first commit and are no skills.
    const { execFileSync } = await import('node:child_process');
    const tracked = execFileSync('git', ['ls-files'], { cwd: repo }).toString().trim().split('\n');
    t.equal(tracked.length, 20);
    t.ok(tracked.every((p) => /^models\/general\/[^/]+\/en\/\.gitkeep$/.test(p)));
    t.same((await get(app, cmsGet('/cms/getSkillMetricsData.json', { language: 'en' }))).body.metrics.newest, []);
  },
);

t.test(
  'susi_skill_cms src/redux/reducers/skills.js: the metric lists show skills committed by git and none of the private ones',
  async (t) => {
    const { app, repo } = await setup(t);
    const user = await seedUser(app);
    const admin = await seedUser(app, { admin: true });
    commitDirectly(repo, {
      'models/general/Knowledge/en/capitals.txt': HANDMADE,
      [`private/${user.id}/Knowledge/en/secretbot.txt`]: '::name Secret Bot\nhi\nhello\n',
      // Names no request could address (too long, a leading dash) are left out, not a failure of the lists.
      [`models/general/Knowledge/en/${'x'.repeat(150)}.txt`]: 'long\nname\n',
      'models/general/Knowledge/en/-dash.txt': 'dash\nname\n',
    });
    t.equal(
      (
        await modify(app, user, {
          group: GAMES,
          skill: 'dice',
          content: '::name Dice\n::author Ada\nroll a die\nYou rolled a $1$.\n',
        })
      ).statusCode,
      200,
    );

    // fetchMetricsSkills({languageValue}) -> ajax.get(url, {language}) with the cookie's token.
    const res = await get(app, cmsGet('/cms/getSkillMetricsData.json', { language: 'en' }, user.token));
    t.equal(res.status, 200);
    const metrics = res.body.metrics;
    // The reducer reads these lists (camelized: `Games, Trivia and Accessories` -> gamesTriviaAndAccessories).
    const read = Object.fromEntries(Object.entries(metrics).map(([k, v]) => [camel(k), v])) as Record<
      string,
      { skill_tag: string }[]
    >;
    for (const list of [
      'staffPicks',
      'rating',
      'usage',
      'latest',
      'newest',
      'feedback',
      'gamesTriviaAndAccessories',
      'systemSkills',
    ])
      t.ok(Array.isArray(read[list]), list);
    t.same(
      read.gamesTriviaAndAccessories!.map((r) => r.skill_tag),
      ['dice'],
    );
    const capitals = metrics.newest.find((r: { skill_tag: string }) => r.skill_tag === 'capitals');
    t.same(
      { ...capitals, creationTime: undefined, lastModifiedTime: undefined, lastAccessTime: undefined },
      {
        model: 'general',
        group: 'Knowledge',
        language: 'en',
        developer_privacy_policy: 'https://example.org/privacy',
        descriptions: 'Names the capital of a country',
        image: 'images/capitals.png',
        author: 'Grace Hopper',
        author_url: 'https://example.org/grace',
        author_email: 'grace@example.org',
        skill_name: 'Capital Cities',
        protected: false,
        reviewed: false,
        editable: true,
        staffPick: false,
        systemSkill: false,
        terms_of_use: 'https://example.org/terms',
        dynamic_content: true,
        examples: ['what is the capital of France'],
        skill_rating: {
          negative: '0',
          positive: '0',
          feedback_count: 0,
          bookmark_count: 0,
          stars: { one_star: 0, two_star: 0, three_star: 0, four_star: 0, five_star: 0, avg_star: 0, total_star: 0 },
        },
        usage_count: 0,
        skill_tag: 'capitals',
        supported_languages: [{ language: 'en', name: 'capitals' }],
        creationTime: undefined,
        lastModifiedTime: undefined,
        lastAccessTime: undefined,
      },
      'the record of a skill committed by git, from its file',
    );
    for (const k of ['creationTime', 'lastModifiedTime', 'lastAccessTime']) t.ok(Date.parse(capitals[k]), k);
    const all = JSON.stringify(metrics);
    t.notOk(all.includes('secretbot') || all.includes('Secret Bot'), 'a private bot is never listed');
    t.notOk(all.includes('xxxxxxxxxx') || all.includes('-dash'), 'unaddressable names are not listed');
    const anonymous = await get(app, cmsGet('/cms/getSkillMetricsData.json', { language: 'en' }));
    t.notOk(JSON.stringify(anonymous.body).includes('secretbot'));

    // The skill committed by git can be rated: it has a row now.
    const rate = await app.inject({
      method: 'GET',
      url: cmsGet(
        '/cms/fiveStarRateSkill.json',
        { model: 'general', group: 'Knowledge', language: 'en', skill: 'capitals', stars: 4 },
        user.token,
      ),
    });
    t.equal(rate.json().accepted, true);

    // changeSkillStatus with systemSkill (the admin's skill list sends all four flags).
    const status = (params: Record<string, unknown>, token = admin.token) =>
      get(
        app,
        cmsGet(
          '/cms/changeSkillStatus.json',
          { model: 'general', group: 'Knowledge', language: 'en', skill: 'capitals', ...params },
          token,
        ),
      );
    t.equal(
      (await status({ reviewed: true, editable: true, staffPick: false, systemSkill: true })).body.accepted,
      true,
    );
    t.equal((await status({ systemSkill: 'maybe' })).status, 400, 'systemSkill must be true or false');
    t.equal((await status({ systemSkill: true }, user.token)).status, 401);
    const after = (await get(app, cmsGet('/cms/getSkillMetricsData.json', { language: 'en' }))).body.metrics;
    t.same(
      after.systemSkills.map((r: { skill_tag: string }) => r.skill_tag),
      ['capitals'],
    );
    t.match(after.systemSkills[0], {
      systemSkill: true,
      reviewed: true,
      skill_rating: { stars: { four_star: 1, total_star: 1, avg_star: 4 } },
    });

    // The list is parsed once per commit: a file changed without a commit is not read again...
    const { writeFileSync } = await import('node:fs');
    writeFileSync(
      join(repo, 'models/general/Knowledge/en/capitals.txt'),
      HANDMADE.replace('Capital Cities', 'Uncommitted Name'),
    );
    const cached = (await get(app, cmsGet('/cms/getSkillMetricsData.json', { language: 'en' }))).body.metrics.newest;
    t.ok(
      cached.some((r: { skill_name: string }) => r.skill_name === 'Capital Cities'),
      'the cached list of this commit',
    );
    // ...and a new commit is seen at once (the catalog follows HEAD).
    commitDirectly(repo, {
      'models/general/Knowledge/en/capitals.txt': HANDMADE.replace('Capital Cities', 'World Capitals'),
    });
    const renamed = (await get(app, cmsGet('/cms/getSkillMetricsData.json', { language: 'en' }))).body.metrics.newest;
    t.ok(renamed.some((r: { skill_name: string }) => r.skill_name === 'World Capitals'));

    // Bad input keeps the reference's answers.
    t.equal((await get(app, cmsGet('/cms/getSkillMetricsData.json', { language: '../x' }))).status, 400);
    t.equal((await get(app, cmsGet('/cms/getSkillMetricsData.json', { language: 'en', count: -1 }))).status, 422);
  },
);

t.test('susi_skill_cms src/components/SkillPage (src/redux/reducers/skill.js): getSkillMetadata', async (t) => {
  const { app, repo } = await setup(t);
  const user = await seedUser(app);
  commitDirectly(repo, {
    'models/general/Knowledge/en/capitals.txt': HANDMADE,
    'models/general/Knowledge/de/capitals.txt': '::name Hauptstädte\nhauptstadt von *\nKeine Ahnung.\n',
  });
  // fetchSkillMetaData({model, group, language, skill}) from the page's route.
  const page = await get(
    app,
    cmsGet(
      '/cms/getSkillMetadata.json',
      { model: 'general', group: 'Knowledge', language: 'en', skill: 'capitals' },
      user.token,
    ),
  );
  t.equal(page.status, 200);
  t.match(page.body, {
    accepted: true,
    message: "Success: Fetched Skill's Metadata",
    session: { identity: { type: 'email', name: user.email } },
  });
  const meta = page.body.skill_metadata;
  t.match(meta, {
    skill_name: 'Capital Cities',
    skill_tag: 'capitals',
    author: 'Grace Hopper',
    author_url: 'https://example.org/grace',
    image: 'images/capitals.png',
    descriptions: 'Names the capital of a country',
    examples: ['what is the capital of France'],
    dynamic_content: true,
    editable: true,
    staffPick: false,
    skill_rating: { stars: { avg_star: 0 } },
    usage_count: 0,
  });
  t.same(
    meta.supported_languages,
    [
      { language: 'de', name: 'capitals' },
      { language: 'en', name: 'capitals' },
    ],
    'the same skill in other languages',
  );
  // The reference finds the file ignoring case.
  const upper = await get(
    app,
    cmsGet('/cms/getSkillMetadata.json', { model: 'general', group: 'Knowledge', language: 'en', skill: 'CAPITALS' }),
  );
  t.equal(upper.body.skill_metadata.skill_tag, 'capitals');

  // A skill that is not there: the reference's defaults (accepted true, nulls).
  const missing = await get(
    app,
    cmsGet('/cms/getSkillMetadata.json', { model: 'general', group: 'Knowledge', language: 'en', skill: 'nothing' }),
  );
  t.equal(missing.status, 200);
  t.match(missing.body, {
    accepted: true,
    skill_metadata: {
      model: 'general',
      group: 'Knowledge',
      language: 'en',
      skill_name: null,
      image: null,
      skill_rating: null,
      usage_count: 0,
      editable: true,
    },
  });
  // Missing parameters (sent as `undefined`): "Error: Bad parameter call".
  for (const params of [
    { model: 'general', group: 'Knowledge', language: 'en', skill: undefined },
    { model: undefined, group: 'Knowledge', language: 'en', skill: 'capitals' },
    {},
  ]) {
    const bad = await get(app, cmsGet('/cms/getSkillMetadata.json', params));
    t.equal(bad.status, 200);
    t.match(bad.body, { accepted: false, message: 'Error: Bad parameter call' });
  }
  const traversal = await get(
    app,
    cmsGet('/cms/getSkillMetadata.json', { model: 'general', group: '..', language: 'en', skill: 'capitals' }),
  );
  t.equal(traversal.status, 400);
  t.equal(traversal.body.accepted, false);
  const jsonp = await app.inject({
    method: 'GET',
    url: cmsGet('/cms/getSkillMetadata.json', {
      model: 'general',
      group: 'Knowledge',
      language: 'en',
      skill: 'capitals',
      callback: 'cb',
    }),
  });
  t.match(jsonp.body, /^cb\(\{"skill_metadata":/);
});

t.test('susi_skill_cms src/components/BrowseSkill/BrowseSkill.js: getSkillList with filters', async (t) => {
  const { app, repo } = await setup(t);
  const user = await seedUser(app);
  const admin = await seedUser(app, { admin: true });
  const raters = [await seedUser(app), await seedUser(app)];
  commitDirectly(repo, {
    'models/general/Knowledge/en/capitals.txt': HANDMADE,
    'models/general/Knowledge/en/zebra.txt':
      '::name Zebra Facts\n::author Bob\n!example:tell me about zebras\nzebra\nStripes.\n',
    [`models/general/${GAMES}/en/dice.txt`]: '::name Dice\n::author Ada\n!example:roll a die\nroll a die\n4\n',
    'models/general/Knowledge/de/hallo.txt': '::name Hallo\nhallo\nHallo!\n',
  });
  const where = (skill: string, group = 'Knowledge') => ({ model: 'general', group, language: 'en', skill });
  for (const [i, stars] of [
    [0, 5],
    [1, 4],
  ] as const) {
    await app.inject({
      method: 'GET',
      url: cmsGet('/cms/fiveStarRateSkill.json', { ...where('dice', GAMES), stars }, raters[i]!.token),
    });
  }
  await app.inject({
    method: 'GET',
    url: cmsGet('/cms/fiveStarRateSkill.json', { ...where('zebra'), stars: 1 }, raters[0]!.token),
  });
  await app.inject({
    method: 'GET',
    url: cmsGet('/cms/changeSkillStatus.json', { ...where('zebra'), reviewed: true, staffPick: true }, admin.token),
  });

  // fetchSkills(payload) as loadCards builds it: the store's defaults (filterType '', searchQuery '').
  const list = (payload: Record<string, unknown>, token: string | undefined = user.token) =>
    get(
      app,
      cmsGet(
        '/cms/getSkillList.json',
        {
          group: 'All',
          language: 'en',
          applyFilter: 'true',
          filter_name: 'ascending',
          filter_type: '',
          reviewed: false,
          staff_picks: false,
          q: '',
          ...payload,
        },
        token,
      ),
    );
  const tags = (body: { filteredData: { skill_tag: string }[] }) => body.filteredData.map((r) => r.skill_tag);

  let res = await list({});
  t.equal(res.status, 200);
  t.match(res.body, {
    accepted: true,
    message: 'Success: Fetched skill list',
    model: 'general',
    group: 'All',
    language: 'en',
  });
  t.same(tags(res.body).sort(), ['capitals', 'dice', 'zebra']);
  t.same(Object.keys(res.body.skills).sort(), ['capitals', 'dice', 'zebra'], '`skills` by tag');
  t.equal(res.body.skillStats, undefined, 'no statistics for a plain user');

  res = await list({ filter_type: 'lexicographical' });
  t.same(
    res.body.filteredData.map((r: { skill_name: string }) => r.skill_name),
    ['Capital Cities', 'Dice', 'Zebra Facts'],
  );
  res = await list({ filter_type: 'lexicographical', filter_name: 'descending' });
  t.same(tags(res.body), ['zebra', 'dice', 'capitals']);
  res = await list({ filter_type: 'rating', filter_name: 'descending' });
  t.same(tags(res.body), ['dice', 'zebra', 'capitals'], 'by rating');
  res = await list({ filter_type: 'top_rated', filter_name: 'descending' });
  t.same(tags(res.body), ['dice', 'zebra', 'capitals']);
  res = await list({ group: GAMES, filter_type: 'rating' });
  t.same(tags(res.body), ['dice'], 'a category');
  res = await list({ language: 'de', filter_type: 'lexicographical' });
  t.same(tags(res.body), ['hallo'], 'another language');
  res = await list({ reviewed: true });
  t.same(tags(res.body), ['zebra'], 'reviewed only');
  res = await list({ staff_picks: true });
  t.same(tags(res.body), ['zebra'], 'staff picks only');
  // The search box: q over names, authors, descriptions and examples.
  res = await list({ q: 'zebra' });
  t.same(tags(res.body), ['zebra']);
  res = await list({ q: 'grace' });
  t.same(tags(res.body), ['capitals'], 'by author');
  res = await list({ q: 'roll a' });
  t.same(tags(res.body), ['dice'], 'by example');
  res = await list({ q: 'capital', search_type: 'author' });
  t.same(tags(res.body), [], 'search_type limits the fields');
  res = await list({ q: 'nothing like it' });
  t.same(tags(res.body), []);
  // Pages.
  res = await list({ filter_type: 'lexicographical', count: 2 });
  t.same(tags(res.body), ['capitals', 'dice']);
  t.equal(res.body.pageCount, 2);
  res = await list({ filter_type: 'lexicographical', count: 2, page: 1 });
  t.same(tags(res.body), ['zebra']);
  // An administrator also gets the statistics.
  res = await list({}, admin.token);
  t.same(res.body.skillStats, {
    totalSkills: 3,
    reviewedSkills: 1,
    nonReviewedSkills: 2,
    editableSkills: 3,
    nonEditableSkills: 0,
    staffPicks: 1,
    systemSkills: 0,
  });
  // The admin's skill list (jQuery JSONP): applyFilter=true&filter_name=ascending&filter_type=lexicographical.
  const jsonp = await app.inject({
    method: 'GET',
    url: '/cms/getSkillList.json?applyFilter=true&filter_name=ascending&filter_type=lexicographical&callback=pxcd',
  });
  t.match(jsonp.body, /^pxcd\(\{/);
  // fetchUserSkill: no group nor language.
  res = await get(
    app,
    cmsGet(
      '/cms/getSkillList.json',
      { filter_name: 'ascending', filter_type: 'creation_date', applyFilter: 'true' },
      user.token,
    ),
  );
  t.equal(res.body.filteredData.length, 3);

  t.test('bad input', async (t) => {
    const cases: [Record<string, unknown>, number, string][] = [
      [{ count: -1 }, 422, 'Invalid count value. It should be positive.'],
      [{ count: 'abc' }, 422, 'Invalid count value.'],
      [{ page: 'x', count: 2 }, 422, 'Invalid page value.'],
      [{ reviewed: 'maybe' }, 400, 'Bad service call.'],
      [{ staff_picks: 'yes' }, 400, 'Bad service call.'],
      [{ group: '../../x' }, 400, 'Bad group name'],
      [{ model: '..' }, 400, 'Bad model name'],
    ];
    for (const [params, status, message] of cases) {
      const bad = await list(params);
      t.equal(bad.status, status, JSON.stringify(params));
      t.same({ accepted: bad.body.accepted, message: bad.body.message }, { accepted: false, message });
    }
    const noFilters = await get(app, '/cms/getSkillList.json?applyFilter=true');
    t.equal(noFilters.status, 422);
    t.equal(noFilters.body.message, 'Bad Filters.');
    const unknownType = await list({ filter_type: 'undefined' });
    t.equal(unknownType.status, 200, 'an unknown filter type: unsorted, as the reference');
    const language = await list({ language: 'xx' });
    t.same(language.body.filteredData, [], 'a language without skills');
  });

  t.test('the bot builder: private=1', async (t) => {
    // fetchChatBots: ajax.get(url, {private: 1}).
    let bots = await get(app, cmsGet('/cms/getSkillList.json', { private: 1 }, user.token));
    t.same(
      { accepted: bots.body.accepted, message: bots.body.message },
      { accepted: false, message: 'User has no chatbots.' },
    );
    commitDirectly(repo, {
      [`private/${user.id}/Knowledge/en/mybot.txt`]: '::name My Bot\nhi\nhello\n',
      [`private/${admin.id}/Knowledge/en/adminbot.txt`]: 'x\ny\n',
    });
    bots = await get(app, cmsGet('/cms/getSkillList.json', { private: 1 }, user.token));
    t.same(bots.body.chatbots, [{ name: 'mybot', language: 'en', group: 'Knowledge' }]);
    t.equal(bots.body.accepted, true);
    // Anonymous: the reference falls through to the public list.
    const anonymous = await get(app, cmsGet('/cms/getSkillList.json', { private: 1 }));
    t.equal(anonymous.body.chatbots, undefined);
    t.notOk(JSON.stringify(anonymous.body).includes('mybot'));
    // fetchBotDetails: getSkill with private=1 reads the caller's own tree.
    const details = await get(
      app,
      cmsGet(
        '/cms/getSkill.json',
        { model: 'general', group: 'Knowledge', language: 'en', skill: 'mybot', private: 1 },
        user.token,
      ),
    );
    t.same(
      { accepted: details.body.accepted, text: details.body.text },
      { accepted: true, text: '::name My Bot\nhi\nhello\n' },
    );
    const foreign = await get(
      app,
      cmsGet('/cms/getSkill.json', { group: 'Knowledge', language: 'en', skill: 'adminbot', private: 1 }, user.token),
    );
    t.same([foreign.status, foreign.body.accepted], [200, false], "another user's bot is not there for the caller");
    const byAdmin = await get(
      app,
      cmsGet(
        '/cms/getSkill.json',
        { group: 'Knowledge', language: 'en', skill: 'mybot', private: 1, email: user.email },
        admin.token,
      ),
    );
    t.equal(byAdmin.body.text, '::name My Bot\nhi\nhello\n', 'an administrator names the owner by e-mail');
    const notAdmin = await get(
      app,
      cmsGet(
        '/cms/getSkill.json',
        { group: 'Knowledge', language: 'en', skill: 'adminbot', private: 1, email: admin.email },
        user.token,
      ),
    );
    t.equal(notAdmin.body.accepted, false, 'e-mail is for administrators only');
    const anon = await get(
      app,
      cmsGet('/cms/getSkill.json', { group: 'Knowledge', language: 'en', skill: 'mybot', private: 1 }),
    );
    t.same([anon.status, anon.body.accepted], [200, false]);
    const publicRead = await get(
      app,
      cmsGet(
        '/cms/getSkill.json',
        { model: 'general', group: 'Knowledge', language: 'en', skill: 'mybot' },
        user.token,
      ),
    );
    t.equal(publicRead.body.accepted, false, 'a bot is no public skill');
  });

  t.test('getSkill as the reference', async (t) => {
    const code = await get(
      app,
      cmsGet(
        '/cms/getSkill.json',
        { model: 'general', group: 'Knowledge', language: 'en', skill: 'capitals' },
        user.token,
      ),
    );
    t.same({ accepted: code.body.accepted, text: code.body.text }, { accepted: true, text: HANDMADE });
    const missing = await get(
      app,
      cmsGet('/cms/getSkill.json', { model: 'general', group: 'Knowledge', language: 'en', skill: 'nope' }),
    );
    t.same([missing.status, missing.body.accepted], [200, false]);
    const noSkill = await get(app, cmsGet('/cms/getSkill.json', {}));
    t.same([noSkill.status, noSkill.body.accepted], [200, false], 'skill defaults to wikipedia, not there');
    const bad = await get(
      app,
      cmsGet('/cms/getSkill.json', { group: 'Knowledge', language: 'en', skill: '../../../etc/passwd' }),
    );
    t.same([bad.status, bad.body.accepted], [400, false]);
    const [{ n }] = await app.sql<{ n: number }[]>`select count(*)::int as n from skill_usage`;
    t.equal(n, 0, 'reading counts no usage');
  });

  t.test('src/components/Dashboard/MyAnalytics.js: getSkillsByAuthor', async (t) => {
    const written = await modify(app, user, { group: 'Knowledge', skill: 'mine', content: '::name Mine\nmine\nyes\n' });
    t.equal(written.statusCode, 200);
    // fetchSkillsByAuthor({author_email: email}) with the cookie's token.
    let res = await get(app, cmsGet('/cms/getSkillsByAuthor.json', { author_email: user.email }, user.token));
    t.match(res.body, {
      accepted: true,
      message: 'Successfully fetched all Skills created by author.',
      author_avatar: '',
    });
    t.same(
      res.body.author_skills.map((r: { skill_tag: string }) => r.skill_tag),
      ['mine'],
      'the skills the account wrote',
    );
    res = await get(app, cmsGet('/cms/getSkillsByAuthor.json', { author_email: 'grace@example.org' }));
    t.same(
      res.body.author_skills.map((r: { skill_tag: string }) => r.skill_tag),
      ['capitals'],
      'by ::author_email',
    );
    res = await get(app, cmsGet('/cms/getSkillsByAuthor.json', { author_email: 'nobody@example.org' }));
    t.same(
      { accepted: res.body.accepted, message: res.body.message },
      { accepted: true, message: "Author hasn't created any Skill yet." },
    );
    res = await get(app, cmsGet('/cms/getSkillsByAuthor.json', { author: 'Ada' }));
    t.match(res.body, { accepted: true, message: 'Success', 0: `models/general/${GAMES}/en/dice.txt` });
    res = await get(app, cmsGet('/cms/getSkillsByAuthor.json', {}));
    t.same([res.status, res.body.message], [400, 'Bad service call, missing arguments.']);
    res = await get(app, cmsGet('/cms/getSkillsByAuthor.json', { author_email: undefined }));
    t.same([res.status, res.body.message], [400, 'Bad service call, missing arguments.'], '`undefined` is no value');
    res = await get(app, cmsGet('/cms/getSkillsByAuthor.json', { author_email: 'not-an-email' }));
    t.same([res.status, res.body.message], [400, 'Invalid email address.']);
    res = await get(app, cmsGet('/cms/getSkillsByAuthor.json', { author_email: user.email, group: '..' }));
    t.equal(res.status, 400);
  });
});
