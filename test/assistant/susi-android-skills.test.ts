/**
 * susi_android app/src/main/java/org/fossasia/susi/ai/rest/services/SusiService.kt: the skill lists
 * (fetchSkillMetricsData, fetchListGroups, fetchListSkills) and the chat (getSusiResponse), with the
 * queries Retrofit builds (every value encoded) and the members Gson reads into SkillData, whose
 * strings are Kotlin non-null: a JSON null there breaks the app.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { buildTestApp } from '../helpers/app.js';
import { commitDirectly, retrofitGet } from '../helpers/susi-clients.js';
import { seedUser } from '../helpers/users.js';

const GAMES = 'Games, Trivia and Accessories';
/** SkillData's String members (rest/responses/susi/SkillData.kt). */
const STRINGS = [
  'model',
  'group',
  'language',
  'image',
  'author_url',
  'developer_privacy_policy',
  'author',
  'skill_name',
  'terms_of_use',
  'descriptions',
  'skill_tag',
];

function checkSkillData(t: Test, record: any, where: string) {
  for (const key of STRINGS) t.type(record[key], 'string', `${where}: ${key} is a string`);
  t.ok(Array.isArray(record.examples), `${where}: examples`);
  t.type(record.dynamic_content, 'boolean');
  // SkillRating: positive/negative Int (Gson reads a numeric string), Stars of numbers.
  t.ok(
    Number.isInteger(Number(record.skill_rating.positive)) && Number.isInteger(Number(record.skill_rating.negative)),
  );
  for (const star of ['one_star', 'two_star', 'three_star', 'four_star', 'five_star', 'total_star', 'avg_star'])
    t.type(record.skill_rating.stars[star], 'number');
}

t.test('susi_android SusiService.kt: skill metrics, groups, lists and chat', async (t) => {
  const base = await mkdtemp(join(tmpdir(), 'oe-android-'));
  t.teardown(() => rm(base, { recursive: true, force: true }));
  const repo = join(base, 'repo');
  // The contract is checked once openapi/openapi.json is regenerated with the routes of this branch.
  const { app } = await buildTestApp(t, { SKILL_REPO_DIR: repo });
  const user = await seedUser(app);
  // A bare skill (no metadata lines at all) and a full one, both committed by git.
  commitDirectly(repo, {
    'models/general/Knowledge/en/bare.txt': 'ping\npong\n',
    [`models/general/${GAMES}/en/coin.txt`]:
      '::name Coin Flip\n::author Ada\n::description Flips a coin\n::image images/coin.png\n!example:flip a coin\nflip a coin\nHeads.|Tails.\n',
    'models/general/Knowledge/de/bare.txt': 'ping\npong\n',
  });

  // SkillListingPresenter.getMetrics: fetchSkillMetricsData("general", language).
  const metrics = await app.inject({
    method: 'GET',
    url: retrofitGet('/cms/getSkillMetricsData.json', { model: 'general', language: 'en' }),
  });
  t.equal(metrics.statusCode, 200);
  const body = metrics.json();
  t.match(body, { accepted: true, model: 'general', language: 'en', group: 'All' });
  for (const list of ['staffPicks', 'feedback', 'usage', 'rating', 'latest', 'newest', GAMES]) {
    t.ok(Array.isArray(body.metrics[list]), list);
    for (const record of body.metrics[list]) checkSkillData(t, record, `${list}/${record.skill_tag}`);
  }
  const bare = body.metrics.newest.find((r: { skill_tag: string }) => r.skill_tag === 'bare');
  t.match(
    bare,
    {
      skill_name: 'bare',
      author: '',
      descriptions: '',
      image: '',
      author_url: '',
      terms_of_use: '',
      developer_privacy_policy: '',
      examples: [],
    },
    'no metadata: empty strings, the file name',
  );
  t.same(bare.supported_languages, [
    { language: 'de', name: 'bare' },
    { language: 'en', name: 'bare' },
  ]);
  t.match(body.metrics[GAMES][0], {
    skill_name: 'Coin Flip',
    author: 'Ada',
    descriptions: 'Flips a coin',
    image: 'images/coin.png',
    examples: ['flip a coin'],
  });

  // fetchListGroups, then per group fetchListSkills(group, language, "true", FILTER_NAME, FILTER_TYPE, DURATION).
  const groups = await app.inject({ method: 'GET', url: '/cms/getGroups.json' });
  t.ok(groups.json().groups.includes(GAMES));
  const list = await app.inject({
    method: 'GET',
    url: retrofitGet('/cms/getSkillList.json', {
      group: GAMES,
      language: 'en',
      applyFilter: 'true',
      filter_name: 'descending',
      filter_type: 'rating',
      duration: '7',
    }),
  });
  t.equal(list.statusCode, 200);
  const skills = list.json();
  t.equal(skills.group, GAMES);
  t.same(
    skills.filteredData.map((r: { skill_tag: string }) => r.skill_tag),
    ['coin'],
  );
  for (const record of [...skills.filteredData, ...Object.values(skills.skills)]) checkSkillData(t, record, 'list');
  for (const filterType of ['lexicographical', 'top_rated', 'creation_date']) {
    for (const filterName of ['ascending', 'descending']) {
      const res = await app.inject({
        method: 'GET',
        url: retrofitGet('/cms/getSkillList.json', {
          group: 'Knowledge',
          language: 'en',
          applyFilter: 'true',
          filter_name: filterName,
          filter_type: filterType,
          duration: '7',
        }),
      });
      t.same(
        res.json().filteredData.map((r: { skill_tag: string }) => r.skill_tag),
        ['bare'],
        `${filterType} ${filterName}`,
      );
    }
  }

  // ChatPresenter.computeOtherMessage: getSusiResponse(data).
  const chat = async (q: string, token?: string) => {
    const data: Record<string, string> = {
      timezoneOffset: '-330',
      longitude: '77.2',
      latitude: '28.6',
      geosource: 'ip',
      language: 'en',
      country_code: 'IN',
      country_name: 'India',
      device_type: 'Android',
      q,
    };
    const res = await app.inject({
      method: 'GET',
      url: retrofitGet('/susi/chat.json', data),
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    return { status: res.statusCode, body: res.json() };
  };
  const flip = await chat('Flip a coin', user.token);
  t.equal(flip.status, 200);
  t.ok(['Heads.', 'Tails.'].includes(flip.body.answers[0].actions[0].expression));
  t.match(flip.body, {
    query: 'Flip a coin',
    answers: [{ data: [{}], metadata: { count: 1 } }],
    session: { identity: { name: user.email } },
  });
  t.equal((await chat('ping')).body.answers[0].actions[0].expression, 'pong');
  const usage = await app.inject({
    method: 'GET',
    url: retrofitGet('/cms/getSkillMetricsData.json', { model: 'general', language: 'en' }),
  });
  t.equal(usage.json().metrics.usage[0].usage_count, 1, 'each answer counted one usage');
  t.same(
    usage
      .json()
      .metrics.usage.map((r: { usage_count: number }) => r.usage_count)
      .sort(),
    [1, 1],
  );
});
