import t from 'tap';
import type { FastifyInstance } from 'fastify';
import { buildTestApp } from '../helpers/app.js';
import { seedUser, type TestUser } from '../helpers/users.js';

const GAMES = 'Games, Trivia and Accessories';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

const post = (app: FastifyInstance, url: string, params: Record<string, string>, token?: string) =>
  app.inject({
    method: 'POST',
    url,
    headers: FORM,
    payload: new URLSearchParams({ ...params, ...(token ? { access_token: token } : {}) }).toString(),
  });

const metrics = async (app: FastifyInstance, query: Record<string, string> = {}) => {
  const res = await app.inject({ method: 'GET', url: `/cms/getSkillMetricsData.json?${new URLSearchParams(query)}` });
  return { status: res.statusCode, body: res.json() };
};

const names = (list: any[]) => list.map((r) => r.skill_name);

// The skills: name -> [group, language]; created in this order (so newest is the reverse).
const SKILLS: [string, string, string][] = [
  ['alpha', 'Knowledge', 'en'],
  ['bravo', GAMES, 'en'],
  ['charlie', GAMES, 'de'],
  ['delta', 'Knowledge', 'de'],
  ['echo', 'Entertainment', 'en'],
];
const where = (skill: string) => {
  const [, group, language] = SKILLS.find(([n]) => n === skill)!;
  return { model: 'general', group, language, skill };
};

t.test('skill metrics: feeders and lists', async (t) => {
  const { app } = await buildTestApp(t);
  const author = await seedUser(app);
  const admin = await seedUser(app, { admin: true });
  const pool: TestUser[] = [];
  for (let i = 0; i < 10; i++) pool.push(await seedUser(app));

  for (const [skill] of SKILLS) {
    const res = await post(
      app,
      '/cms/modifySkill.json',
      {
        ...where(skill),
        content: `::name ${skill}\n::author Author of ${skill}\n!example:hello ${skill}\nhello ${skill}\nHi from ${skill}\n`,
        changelog: `add ${skill}`,
      },
      author.token,
    );
    t.equal(res.statusCode, 200, `create ${skill}`);
    t.equal(res.json().message, 'Skill Modified Successfully');
    await new Promise((r) => setTimeout(r, 5));
  }
  const ids = Object.fromEntries(
    (await app.sql<{ id: number; name: string }[]>`select id, name from skills`).map((r) => [r.name, r.id]),
  );

  // --- fiveStarRateSkill ---
  const rate = (user: TestUser | undefined, skill: string, stars?: string, extra: Record<string, string> = {}) =>
    post(
      app,
      '/cms/fiveStarRateSkill.json',
      { ...where(skill), ...(stars === undefined ? {} : { stars }), ...extra },
      user?.token,
    );
  let res = await rate(undefined, 'bravo', '5');
  t.equal(res.statusCode, 401, 'anonymous may not rate');
  res = await rate(pool[0], 'bravo', '5', { skill: 'nosuchskill' });
  t.equal(res.statusCode, 422);
  t.same(res.json(), { accepted: false, message: 'Skill does not exist.' }, 'unknown skill');
  res = await rate(pool[0], 'bravo', '5', { language: 'de' });
  t.equal(res.statusCode, 422, 'the skill exists only in en');
  t.equal(res.json().message, 'Skill does not exist.');
  res = await rate(pool[0], 'bravo');
  t.equal(res.statusCode, 422);
  t.same(res.json(), { accepted: false, message: 'Rating not provided.' }, 'no stars');
  for (const bad of ['0', '6', '2.5', 'abc', '-1']) {
    res = await rate(pool[0], 'bravo', bad);
    t.equal(res.statusCode, 422, `stars=${bad} -> 422`);
    t.equal(res.json().accepted, false);
  }
  const [{ n: none }] = await app.sql<{ n: number }[]>`select count(*)::int as n from skill_ratings`;
  t.equal(none, 0, 'failed ratings store nothing');

  res = await rate(pool[0], 'bravo', '5');
  t.equal(res.statusCode, 200);
  t.match(res.json(), {
    accepted: true,
    message: 'Skill ratings updated',
    session: { identity: { type: 'email', name: pool[0]!.email, anonymous: false } },
  });
  t.same(
    res.json().ratings,
    { one_star: 0, two_star: 0, three_star: 0, four_star: 0, five_star: 1, avg_star: 5, total_star: 1 },
    'first rating',
  );
  res = await rate(pool[1], 'bravo', '4');
  t.same(
    res.json().ratings,
    { one_star: 0, two_star: 0, three_star: 0, four_star: 1, five_star: 1, avg_star: 4.5, total_star: 2 },
    'second user',
  );
  res = await rate(pool[2], 'charlie', '1');
  t.same(res.json().ratings, {
    one_star: 1,
    two_star: 0,
    three_star: 0,
    four_star: 0,
    five_star: 0,
    avg_star: 1,
    total_star: 1,
  });
  res = await rate(pool[2], 'charlie', '5');
  t.same(
    res.json().ratings,
    { one_star: 0, two_star: 0, three_star: 0, four_star: 0, five_star: 1, avg_star: 5, total_star: 1 },
    'a changed rating: total_star stays 1',
  );
  res = await rate(pool[3], 'echo', '2');
  t.equal(res.json().ratings.avg_star, 2);
  // alpha: 10 ratings of 3 stars straight into the table (total_star >= 10 comes first in `rating`).
  for (const u of pool)
    await app.sql`insert into skill_ratings (skill_id, user_id, stars) values (${ids.alpha!}, ${Number(u.id)}, 3)`;

  // --- feedbackSkill: echo 4, alpha 3, delta 2, bravo 1, charlie 0 ---
  const feedback = (user: TestUser | undefined, skill: string, text?: string, extra: Record<string, string> = {}) =>
    post(
      app,
      '/cms/feedbackSkill.json',
      { ...where(skill), ...(text === undefined ? {} : { feedback: text }), ...extra },
      user?.token,
    );
  res = await feedback(undefined, 'echo', 'nice');
  t.equal(res.statusCode, 401, 'anonymous may not give feedback');
  res = await feedback(pool[0], 'echo', 'nice', { skill: 'nosuchskill' });
  t.equal(res.statusCode, 422);
  t.same(res.json(), { accepted: false, message: 'Skill does not exist.' });
  res = await feedback(pool[0], 'echo');
  t.equal(res.statusCode, 422, 'missing feedback');
  res = await feedback(pool[0], 'echo', 'first text');
  t.equal(res.statusCode, 200);
  t.match(res.json(), { accepted: true, message: 'Skill feedback updated', feedback: 'first text' });
  res = await feedback(pool[0], 'echo', 'changed text');
  t.equal(res.json().feedback, 'changed text', 'feedback is replaced');
  for (const [skill, n] of [
    ['echo', 4],
    ['alpha', 3],
    ['delta', 2],
    ['bravo', 1],
  ] as const) {
    for (let i = 0; i < n; i++) t.equal((await feedback(pool[i], skill, `fb ${i}`)).statusCode, 200);
  }

  // --- usage: bravo 3 and alpha 1 today (chat answers count them: test/assistant/susi-skill-cms-conversation-view.test.ts); reading a skill counts none ---
  t.equal(
    (await app.inject({ method: 'GET', url: '/cms/getSkill.json?skill=alpha' })).json().accepted,
    true,
    'getSkill',
  );
  await app.sql`insert into skill_usage (skill_id, day, count) values (${ids.bravo!}, current_date, 3), (${ids.alpha!}, current_date, 1)`;
  await app.sql`insert into skill_usage (skill_id, day, count) values
    (${ids.echo!}, current_date - 30, 5), (${ids.charlie!}, current_date, 2), (${ids.delta!}, current_date - 10, 4)`;

  // --- staff picks ---
  const status = (user: TestUser, skill: string, params: Record<string, string>) =>
    post(app, '/cms/changeSkillStatus.json', { ...where(skill), ...params }, user.token);
  res = await status(pool[0]!, 'alpha', { staffPick: 'true' });
  t.equal(res.statusCode, 401, 'a plain user may not change the status');
  t.equal(
    res.json().message,
    "Base user role not sufficient. Your base user role is 'USER', minimum user role required is 'admin'",
  );
  for (const [skill, pick] of [
    ['echo', 'true'],
    ['charlie', 'true'],
    ['alpha', 'true'],
    ['alpha', 'false'],
  ] as const) {
    res = await status(admin, skill, { staffPick: pick });
    t.equal(res.statusCode, 200);
    t.equal(res.json().message, 'Skill status changed successfully.');
  }
  t.equal((await status(admin, 'alpha', { skill: 'nosuchskill', staffPick: 'true' })).statusCode, 422, 'unknown skill');

  // bravo is modified last: first in `latest`, creation time unchanged.
  const before = (await metrics(app)).body.metrics.newest.find((r: { skill_name: string }) => r.skill_name === 'bravo');
  await new Promise((r) => setTimeout(r, 5));
  res = await post(
    app,
    '/cms/modifySkill.json',
    {
      ...where('bravo'),
      content: '::name bravo\n::author Author of bravo\n!example:hello bravo\nchanged',
      changelog: 'change bravo',
    },
    author.token,
  );
  t.equal(res.statusCode, 200);

  // --- the lists, en and de ---
  let m = await metrics(app, { language: 'en,de' });
  t.equal(m.status, 200);
  t.match(m.body, {
    accepted: true,
    model: 'general',
    group: 'All',
    language: 'en,de',
    message: 'Success: Fetched skill data based on metrics',
    session: { identity: { anonymous: true } },
  });
  t.same(
    Object.keys(m.body.metrics).sort(),
    ['feedback', 'latest', 'newest', 'rating', 'staffPicks', 'systemSkills', 'usage', GAMES].sort(),
    'the lists',
  );
  const all = m.body.metrics;
  t.same(names(all.newest), ['echo', 'delta', 'charlie', 'bravo', 'alpha'], 'newest');
  t.same(names(all.latest), ['bravo', 'echo', 'delta', 'charlie', 'alpha'], 'latest');
  t.same(
    names(all.rating),
    ['alpha', 'charlie', 'bravo', 'echo', 'delta'],
    'rating: total_star >= 10 first, then avg_star',
  );
  t.same(names(all.usage), ['echo', 'delta', 'bravo', 'charlie', 'alpha'], 'usage');
  t.same(names(all.feedback), ['echo', 'alpha', 'delta', 'bravo', 'charlie'], 'feedback');
  t.same(names(all.staffPicks), ['charlie', 'echo'], 'staffPicks in rating order');
  t.same(names(all[GAMES]), ['charlie', 'bravo'], 'games group in rating order');

  // The record fields.
  const bravo = all.rating.find((r: { skill_name: string }) => r.skill_name === 'bravo');
  t.match(bravo, {
    skill_name: 'bravo',
    author: 'Author of bravo',
    author_email: '',
    model: 'general',
    group: GAMES,
    language: 'en',
    image: '',
    usage_count: 3,
    staffPick: false,
    systemSkill: false,
    examples: ['hello bravo'],
    skill_tag: 'bravo',
  });
  t.same(bravo.skill_rating.stars, {
    one_star: 0,
    two_star: 0,
    three_star: 0,
    four_star: 1,
    five_star: 1,
    avg_star: 4.5,
    total_star: 2,
  });
  t.equal(bravo.skill_rating.feedback_count, 1);
  for (const key of ['descriptions', 'examples', 'creationTime', 'lastModifiedTime'])
    t.ok(key in bravo, `record has ${key}`);
  t.ok(Array.isArray(bravo.examples), 'examples is an array');
  t.equal(bravo.creationTime, before.creationTime, 'creationTime unchanged by a modification');
  t.ok(bravo.lastModifiedTime > bravo.creationTime, 'lastModifiedTime moved on');
  const alpha = all.rating[0];
  t.same(
    alpha.skill_rating.stars,
    { one_star: 0, two_star: 0, three_star: 10, four_star: 0, five_star: 0, avg_star: 3, total_star: 10 },
    'feedback rows do not add stars',
  );
  t.equal(alpha.skill_rating.feedback_count, 3);
  t.equal(all.staffPicks[1].staffPick, true);
  t.equal(all.usage[0].usage_count, 5);
  t.equal(all.feedback[0].skill_rating.feedback_count, 4, 'changed feedback counted once');

  // en only (the default language).
  m = await metrics(app);
  t.equal(m.body.language, 'en');
  t.same(names(m.body.metrics.newest), ['echo', 'bravo', 'alpha']);
  t.same(names(m.body.metrics.rating), ['alpha', 'bravo', 'echo']);
  t.same(names(m.body.metrics.usage), ['echo', 'bravo', 'alpha']);
  t.same(names(m.body.metrics.staffPicks), ['echo']);
  t.same(names(m.body.metrics[GAMES]), ['bravo']);

  // count limits every list.
  m = await metrics(app, { language: 'en,de', count: '2' });
  t.same(names(m.body.metrics.newest), ['echo', 'delta']);
  t.same(names(m.body.metrics.latest), ['bravo', 'echo']);
  t.same(names(m.body.metrics.rating), ['alpha', 'charlie']);
  t.same(names(m.body.metrics.usage), ['echo', 'delta']);
  t.same(names(m.body.metrics.feedback), ['echo', 'alpha']);
  t.same(names(m.body.metrics.staffPicks), ['charlie', 'echo']);
  t.same(names(m.body.metrics[GAMES]), ['charlie', 'bravo']);
  m = await metrics(app, { language: 'en,de', count: '1' });
  for (const [k, v] of Object.entries(m.body.metrics))
    t.equal((v as unknown[]).length, k === 'systemSkills' ? 0 : 1, `count=1: ${k}`);

  // group filter.
  m = await metrics(app, { language: 'en,de', group: 'Knowledge' });
  t.equal(m.body.group, 'Knowledge');
  t.same(names(m.body.metrics.newest), ['delta', 'alpha']);
  t.same(names(m.body.metrics.rating), ['alpha', 'delta']);
  t.same(names(m.body.metrics.feedback), ['alpha', 'delta']);
  t.same(m.body.metrics.staffPicks, []);
  t.same(m.body.metrics[GAMES], [], 'no games skills inside Knowledge');

  // Custom metrics lists replace the default one.
  m = await metrics(app, { language: 'en,de', metrics: 'Knowledge;Entertainment' });
  t.same(
    Object.keys(m.body.metrics).sort(),
    [
      'Entertainment',
      'Knowledge',
      'feedback',
      'latest',
      'newest',
      'rating',
      'staffPicks',
      'systemSkills',
      'usage',
    ].sort(),
  );
  t.same(names(m.body.metrics.Knowledge), ['alpha', 'delta']);
  t.same(names(m.body.metrics.Entertainment), ['echo']);

  // duration: usage of the last N days only.
  m = await metrics(app, { duration: '7' });
  t.same(names(m.body.metrics.usage), ['bravo', 'alpha', 'echo'], 'duration=7');
  t.same(
    m.body.metrics.usage.map((r: { usage_count: number }) => r.usage_count),
    [3, 1, 0],
  );
  m = await metrics(app, { language: 'en,de', duration: '15' });
  t.same(names(m.body.metrics.usage), ['delta', 'bravo', 'charlie', 'alpha', 'echo'], 'duration=15');

  // Bad count.
  for (const count of ['-1', 'abc', '2.5']) {
    m = await metrics(app, { count });
    t.equal(m.status, 422, `count=${count}`);
    t.same(
      { accepted: m.body.accepted, message: m.body.message },
      { accepted: false, message: 'Invalid count value. It should be positive.' },
    );
  }

  // With 9 ratings alpha loses its place: then only avg_star counts.
  await app.sql`delete from skill_ratings where skill_id = ${ids.alpha!} and user_id = ${Number(pool[9]!.id)}`;
  m = await metrics(app, { language: 'en,de' });
  t.same(names(m.body.metrics.rating), ['charlie', 'bravo', 'alpha', 'echo', 'delta'], 'total_star 9: by avg_star');

  // Default count is 10.
  for (let i = 0; i < 12; i++) {
    const written = await post(
      app,
      '/cms/modifySkill.json',
      {
        model: 'general',
        group: 'Knowledge',
        language: 'fr',
        skill: `extra${i}`,
        content: `bonjour ${i}\nsalut\n`,
        changelog: `extra ${i}`,
      },
      author.token,
    );
    t.equal(written.statusCode, 200);
  }
  // A row without a skill file is no skill (the lists come from the files).
  await app.sql`insert into skills (model, group_name, language, name) values ('general', 'Knowledge', 'fr', 'rowonly')`;
  m = await metrics(app, { language: 'fr', metrics: 'Knowledge' });
  for (const k of ['newest', 'latest', 'rating', 'usage', 'feedback', 'Knowledge'])
    t.equal(m.body.metrics[k].length, 10, `default count: ${k}`);
  m = await metrics(app, { language: 'fr', count: '20' });
  t.equal(m.body.metrics.newest.length, 12, 'the row without a file is not listed');
});
