/**
 * The skill page, feedback page and "My ratings" of susi_skill_cms, with its requests as
 * src/api/index.js and src/helper/ajax.js build them: GET, the cookie token first, then the payload,
 * joined as `key=value` without URL-encoding (the browser then percent-encodes only what a URL cannot
 * carry, such as spaces).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import type { FastifyInstance } from 'fastify';
import { recordUsage } from '../../src/assistant/usage.js';
import { buildTestApp } from '../helpers/app.js';
import { seedUser } from '../helpers/users.js';

/** ajax.get: `access_token` (when logged in) then the payload, `key=value` pairs as they are; the browser's URL parser does the rest. */
function cmsUrl(path: string, payload: Record<string, string | number>, token?: string) {
  const all = { ...(token ? { access_token: token } : {}), ...payload };
  const raw = `${path}?${Object.keys(all)
    .map((key) => `${key}=${all[key as keyof typeof all]}`)
    .join('&')}`;
  const url = new URL(raw, 'http://localhost');
  return url.pathname + url.search;
}
const cmsGet = async (app: FastifyInstance, path: string, payload: Record<string, string | number>, token?: string) => {
  const res = await app.inject({ method: 'GET', url: cmsUrl(path, payload, token) });
  return { status: res.statusCode, body: res.json() };
};

const SKILL = { model: 'general', group: 'Knowledge', language: 'en', skill: 'rated' };
/** A skill that exists only as a file in the repository (no database row until first used). */
const FILE_SKILL = { model: 'general', group: 'Games, Trivia and Accessories', language: 'en', skill: 'filed' };

const root = await mkdtemp(join(tmpdir(), 'oe-ratings-'));
t.teardown(() => rm(root, { recursive: true, force: true }));
const repoDir = join(root, 'skills');
// FILE_SKILL is the test's own `filed` skill, written before the app starts (it would have come with the repository).
await mkdir(join(repoDir, 'models', FILE_SKILL.model, FILE_SKILL.group, FILE_SKILL.language), { recursive: true });
await writeFile(
  join(repoDir, 'models', FILE_SKILL.model, FILE_SKILL.group, FILE_SKILL.language, 'filed.txt'),
  '::name Filed\n::author Ada Author\nhello\nworld\n',
);
const { app } = await buildTestApp(t, { SKILL_REPO_DIR: repoDir });
const author = await seedUser(app);
const created = await cmsGet(
  app,
  '/cms/modifySkill.json',
  { ...SKILL, content: '::name Rated\nhi\nhello there\n', changelog: 'Add rated' },
  author.token,
);
t.equal(created.status, 200, 'the author wrote the skill');
const skillId = async (name: string) =>
  (await app.sql<{ id: number }[]>`select id from skills where name = ${name}`)[0]?.id;

t.test(
  'susi_skill_cms src/api/index.js: changeRating, postSkillFeedback, then the skill page reads them back',
  async (t) => {
    const [ann, bob] = [await seedUser(app), await seedUser(app)];
    await app.sql`update users set public_name = 'Bob B' where email = ${bob.email}`;

    let res = await cmsGet(app, '/cms/fiveStarRateSkill.json', { ...SKILL, stars: 4 }, ann.token);
    t.equal(res.status, 200);
    t.match(res.body, { accepted: true, message: 'Skill ratings updated' });
    t.same(res.body.ratings, {
      one_star: 0,
      two_star: 0,
      three_star: 0,
      four_star: 1,
      five_star: 0,
      avg_star: 4,
      total_star: 1,
    });
    res = await cmsGet(app, '/cms/fiveStarRateSkill.json', { ...SKILL, stars: 2 }, bob.token);
    t.same(res.body.ratings, {
      one_star: 0,
      two_star: 1,
      three_star: 0,
      four_star: 1,
      five_star: 0,
      avg_star: 3,
      total_star: 2,
    });

    res = await cmsGet(app, '/cms/feedbackSkill.json', { ...SKILL, feedback: 'Great skill, works well' }, ann.token);
    t.same(
      { ...res.body, session: undefined },
      { accepted: true, message: 'Skill feedback updated', feedback: 'Great skill, works well', session: undefined },
    );
    res = await cmsGet(app, '/cms/feedbackSkill.json', { ...SKILL, feedback: 'Meh' }, bob.token);
    t.equal(res.status, 200);

    // fetchUserSkillRating: the reducer reads ratings.stars.
    res = await cmsGet(app, '/cms/getRatingByUser.json', SKILL, ann.token);
    t.equal(res.status, 200);
    t.match(res.body, {
      accepted: true,
      message: 'Fetched user rating successfully',
      ratings: { email: ann.email, stars: 4 },
    });
    t.match(res.body.ratings.timestamp, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$/, 'the reference timestamp format');
    const stranger = await seedUser(app);
    res = await cmsGet(app, '/cms/getRatingByUser.json', SKILL, stranger.token);
    t.same(
      { ...res.body, session: undefined },
      { accepted: true, message: 'Skill not yet rated by the user', session: undefined },
    );

    // fetchSkillFeedbacks, anonymous: others' addresses only as `name@...`.
    res = await cmsGet(app, '/cms/getSkillFeedback.json', SKILL);
    t.equal(res.status, 200);
    t.match(res.body, { skill_name: 'rated', accepted: true, message: 'Skill feedback fetched' });
    t.equal(res.body.feedback.length, 2);
    const [first, second] = res.body.feedback;
    t.same(Object.keys(first).sort(), ['avatar', 'email', 'feedback', 'rating', 'timestamp', 'user_name']);
    t.match(first, {
      email: `${ann.email.split('@')[0]}@...`,
      feedback: 'Great skill, works well',
      rating: 4,
      user_name: '',
      avatar: '',
    });
    t.match(second, { email: `${bob.email.split('@')[0]}@...`, feedback: 'Meh', rating: 2, user_name: 'Bob B' });
    t.notOk(JSON.stringify(res.body).includes('example.com'), 'no whole address reaches an anonymous reader');
    // Signed in (the cookie token), the reader's own entry carries the whole address the page compares with its own.
    res = await cmsGet(app, '/cms/getSkillFeedback.json', SKILL, bob.token);
    t.equal(res.body.feedback[1].email, bob.email);
    t.equal(res.body.feedback[0].email, `${ann.email.split('@')[0]}@...`);

    // fetchRatingsOverTime: one month so far.
    res = await cmsGet(app, '/cms/getRatingsOverTime.json', SKILL);
    t.match(res.body, { skill_name: 'rated', accepted: true, message: 'Ratings over time fetched' });
    t.equal(res.body.ratings_over_time.length, 1);
    t.match(res.body.ratings_over_time[0], {
      rating: 3,
      count: 2,
      timestamp: /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$/,
    });
    await app.sql`update skill_ratings set stars_at = stars_at - interval '40 days' where user_id = ${Number(ann.id)}`;
    res = await cmsGet(app, '/cms/getRatingsOverTime.json', SKILL);
    t.same(
      res.body.ratings_over_time.map((m: { rating: number; count: number }) => [m.rating, m.count]),
      [
        [4, 1],
        [2, 1],
      ],
      'per month, oldest first',
    );

    // deleteSkillFeedback: own feedback only; the stars stay.
    res = await cmsGet(app, '/cms/removeFeedback.json', SKILL, bob.token);
    t.same(
      { ...res.body, session: undefined },
      { accepted: true, message: 'Skill feedback updated', session: undefined },
    );
    res = await cmsGet(app, '/cms/removeFeedback.json', SKILL, bob.token);
    t.equal(res.body.message, 'Skill feedback missing', 'nothing left to remove');
    res = await cmsGet(app, '/cms/getSkillFeedback.json', SKILL);
    t.same(
      res.body.feedback.map((f: { feedback: string }) => f.feedback),
      ['Great skill, works well'],
    );
    res = await cmsGet(app, '/cms/getRatingByUser.json', SKILL, bob.token);
    t.equal(res.body.ratings.stars, 2, 'removing feedback keeps the rating');
  },
);

t.test(
  'susi_skill_cms src/api/index.js: a skill that exists only as a file is rated, reviewed and listed',
  async (t) => {
    const carol = await seedUser(app);
    t.equal(await skillId('filed'), undefined, 'no row yet');
    let res = await cmsGet(app, '/cms/fiveStarRateSkill.json', { ...FILE_SKILL, stars: 5 }, carol.token);
    t.equal(res.status, 200);
    t.equal(res.body.ratings.five_star, 1);
    res = await cmsGet(app, '/cms/feedbackSkill.json', { ...FILE_SKILL, feedback: 'Fun' }, carol.token);
    t.equal(res.body.accepted, true);
    res = await cmsGet(app, '/cms/getSkillFeedback.json', { ...FILE_SKILL, skill: 'FILED' });
    t.match(res.body, { skill_name: 'filed', accepted: true }, 'the file found ignoring case, as the reference');
    t.equal(res.body.feedback[0].rating, 5);
  },
);

t.test('susi_skill_cms src/components/Dashboard/MyRatings.js: fetchUserRatings (getProfileDetails)', async (t) => {
  const dave = await seedUser(app);
  let res = await cmsGet(app, '/cms/getProfileDetails.json', {}, dave.token);
  t.equal(res.status, 200);
  t.same(
    { ...res.body, session: undefined },
    { accepted: false, message: 'User has not rated any Skills yet.', session: undefined },
  );
  await cmsGet(app, '/cms/fiveStarRateSkill.json', { ...SKILL, stars: 3 }, dave.token);
  await cmsGet(app, '/cms/feedbackSkill.json', { ...FILE_SKILL, feedback: 'No stars from me' }, dave.token);
  await cmsGet(app, '/cms/fiveStarRateSkill.json', { ...FILE_SKILL, stars: 1 }, dave.token);
  res = await cmsGet(app, '/cms/getProfileDetails.json', {}, dave.token);
  t.match(res.body, { accepted: true, message: 'User ratings fetched.' });
  // MyRatings reads Object.keys(i)[0] and i[name].{group, language, stars, timestamp}.
  t.same(
    res.body.rated_skills.map((i: object) => Object.keys(i)),
    [['filed'], ['rated']],
    'latest first',
  );
  t.match(res.body.rated_skills[0].filed, { stars: 1, group: FILE_SKILL.group, language: 'en', timestamp: /^\d{4}-/ });
  t.match(res.body.rated_skills[1].rated, { stars: 3, group: 'Knowledge', language: 'en' });
  res = await cmsGet(app, '/cms/getProfileDetails.json', {});
  t.equal(res.status, 401, 'anonymous');
  t.equal(
    res.body.message,
    "Base user role not sufficient. Your base user role is 'ANONYMOUS', minimum user role required is 'user'",
  );
});

t.test('susi_skill_cms src/components/SkillPage/SkillListing.js: reportSkill, once per user', async (t) => {
  const [erin, admin] = [await seedUser(app), await seedUser(app, { admin: true })];
  let res = await cmsGet(app, '/cms/reportSkill.json', { ...SKILL, feedback: 'Offensive answer' }, erin.token);
  t.equal(res.status, 200);
  t.same(
    { ...res.body, session: undefined },
    { accepted: true, message: 'Skill reported successfully', feedback: 'Offensive answer', session: undefined },
  );
  res = await cmsGet(app, '/cms/reportSkill.json', { ...SKILL, feedback: 'Again' }, erin.token);
  t.equal(res.status, 422);
  t.same(res.body, { accepted: false, message: 'Skill already reported by the user.' });
  // susi.ai's admin "Reported skills" list (fetchReportedSkills).
  res = await cmsGet(app, '/cms/getReportSkill.json', {}, admin.token);
  t.equal(res.status, 200);
  t.match(res.body, { accepted: true, message: 'Success: Fetched all Reported Skills' });
  t.same(res.body.list, [
    {
      skill_name: 'rated',
      group: 'Knowledge',
      language: 'en',
      model: 'general',
      editable: true,
      reviewed: false,
      author: null,
      type: 'Public',
      reports: [{ feedback: 'Offensive answer', email: erin.email }],
    },
  ]);
  res = await cmsGet(app, '/cms/getReportSkill.json', { search: 'filed' }, admin.token);
  t.same(res.body.list, [], 'search names one skill');
  await cmsGet(app, '/cms/reportSkill.json', { ...FILE_SKILL, feedback: 'Broken' }, erin.token);
  res = await cmsGet(app, '/cms/getReportSkill.json', { search: 'filed' }, admin.token);
  t.match(
    res.body.list,
    [{ skill_name: 'filed', author: 'Ada Author', reports: [{ feedback: 'Broken' }] }],
    "the file's ::author",
  );
  res = await cmsGet(app, '/cms/getReportSkill.json', {}, erin.token);
  t.equal(res.status, 401, 'operators only');
});

t.test('susi_skill_cms src/components/SkillPage/SkillListing.js: usage cards after recordUsage calls', async (t) => {
  let res = await cmsGet(app, '/cms/getSkillUsage.json', FILE_SKILL);
  t.same(
    { ...res.body, session: undefined },
    { skill_name: 'filed', accepted: false, message: 'Skill has not been used yet', session: undefined },
  );
  res = await cmsGet(app, '/cms/getDeviceWiseSkillUsage.json', FILE_SKILL);
  t.equal(res.body.accepted, false);
  res = await cmsGet(app, '/cms/getCountryWiseSkillUsage.json', FILE_SKILL);
  t.equal(res.body.accepted, false);

  const id = (await skillId('filed'))!;
  // As /susi/chat.json calls it: each answer a skill gave, with the chat request's device type and country.
  await recordUsage(app, id, { deviceType: 'Android', countryCode: 'DE' });
  await recordUsage(app, id, { deviceType: 'Android', countryCode: 'de' });
  await recordUsage(app, id, { deviceType: 'Web Client', countryCode: 'IN' });
  await recordUsage(app, id, { countryCode: 'not a country' });
  await recordUsage(app, id);
  await app.sql`insert into skill_usage (skill_id, day, count) values (${id}, current_date - 3, 7), (${id}, current_date - 30, 2)`;

  res = await cmsGet(app, '/cms/getSkillUsage.json', FILE_SKILL);
  t.match(res.body, { skill_name: 'filed', accepted: true, message: 'Skill usage fetched' });
  const day = (ago: number) => new Date(Date.now() - ago * 86400000).toISOString().slice(0, 10);
  // The reducer parses `date` as YYYY-MM-DD and parseInt()s `count` (a string in the reference).
  t.same(res.body.skill_usage, [
    { date: day(30), count: '2' },
    { date: day(3), count: '7' },
    { date: day(0), count: '5' },
  ]);
  res = await cmsGet(app, '/cms/getSkillUsage.json', { ...FILE_SKILL, duration: 2 });
  t.same(
    res.body.skill_usage.map((d: { count: string }) => d.count),
    ['7', '5'],
    'the latest `duration` days with uses',
  );

  res = await cmsGet(app, '/cms/getDeviceWiseSkillUsage.json', FILE_SKILL);
  t.match(res.body, { accepted: true, message: 'Device wise skill usage fetched' });
  t.same(res.body.skill_usage, [
    { device_type: 'Android', count: 2 },
    { device_type: 'Others', count: 2 },
    { device_type: 'Web Client', count: 1 },
  ]);
  res = await cmsGet(app, '/cms/getCountryWiseSkillUsage.json', FILE_SKILL);
  t.match(res.body, { accepted: true, message: 'Country wise skill usage fetched' });
  t.same(res.body.skill_usage, [
    { country_code: 'DE', country_name: 'Germany', count: 2 },
    { country_code: 'IN', country_name: 'India', count: 1 },
  ]);
});

t.test('susi_skill_cms src/api/index.js: bad input to every ratings, feedback and usage endpoint', async (t) => {
  const user = await seedUser(app);
  const GETS = [
    'getRatingByUser',
    'getSkillFeedback',
    'getRatingsOverTime',
    'getSkillUsage',
    'getCountryWiseSkillUsage',
    'getDeviceWiseSkillUsage',
    'removeFeedback',
    'reportSkill',
    'rateSkill',
    'feedbackSkill',
    'fiveStarRateSkill',
  ];
  for (const name of GETS) {
    const url = `/cms/${name}.json`;
    let res = await cmsGet(
      app,
      url,
      { ...SKILL, skill: 'nosuchskill', stars: 3, feedback: 'x', rating: 'positive' },
      user.token,
    );
    t.equal(res.status, 422, `${name}: unknown skill`);
    t.same(res.body, { accepted: false, message: 'Skill does not exist.' });
    res = await cmsGet(app, url, { ...SKILL, skill: '../etc', stars: 3 }, user.token);
    t.equal(res.status, 400, `${name}: a path as skill name`);
    t.equal(res.body.accepted, false);
    res = await cmsGet(app, url, { ...SKILL, model: 'x', skill: 'rated' }, user.token);
    t.equal(res.status, 422, `${name}: the skill in another model`);
    const twice = await app.inject({ method: 'GET', url: `${url}?skill=rated&skill=other&access_token=${user.token}` });
    t.equal(twice.statusCode, 400, `${name}: a parameter twice with different values`);
    t.equal(twice.json().accepted, false);
    res = await cmsGet(app, url, SKILL, 'stale.token.here');
    t.ok([200, 401, 422].includes(res.status), `${name}: a stale token is anonymous`);
  }
  let res = await cmsGet(app, '/cms/getSkillUsage.json', { ...SKILL, duration: 'week' });
  t.same(res.body, { accepted: false, message: 'Invalid duration value.' });
  for (const duration of ['-1', '1.5', '99999999999']) {
    res = await cmsGet(app, '/cms/getSkillUsage.json', { ...SKILL, duration });
    t.equal(res.status, 422, `duration=${duration}`);
  }
  res = await cmsGet(app, '/cms/reportSkill.json', SKILL, user.token);
  t.same(res.body, { accepted: false, message: 'Feedback not provided.' });
  res = await cmsGet(app, '/cms/reportSkill.json', { ...SKILL, feedback: '%20%20' }, user.token);
  t.equal(res.status, 422, 'blank report');
  const long = await app.inject({
    method: 'POST',
    url: '/cms/reportSkill.json',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ ...SKILL, feedback: 'x'.repeat(5001), access_token: user.token }).toString(),
  });
  t.equal(long.statusCode, 422, 'a report over 5000 characters');
  for (const rating of [undefined, 'up', 'POSITIVE', '']) {
    res = await cmsGet(app, '/cms/rateSkill.json', { ...SKILL, ...(rating === undefined ? {} : { rating }) });
    t.equal(res.status, 422, `rating=${rating}`);
    t.same(res.body, { accepted: false, message: 'Rating must be positive or negative.' });
  }
  res = await cmsGet(app, '/cms/getReportSkill.json', { search: '../x' }, (await seedUser(app, { admin: true })).token);
  t.equal(res.status, 400, 'search is a skill name');
  const [{ n }] = await app.sql<{ n: number }[]>`select count(*)::int as n from skill_votes`;
  t.equal(n, 0, 'refused votes store nothing');
  for (const name of ['getRatingByUser', 'removeFeedback', 'reportSkill', 'getProfileDetails', 'getReportSkill']) {
    res = await cmsGet(app, `/cms/${name}.json`, { ...SKILL, feedback: 'x' });
    t.equal(res.status, 401, `${name}: anonymous`);
  }
});
