/**
 * susi_android's skill details page, with its requests as SusiService.kt, ClientBuilder.kt and
 * SkillDetailsFragment.kt build them: Retrofit `@QueryMap` values URL-encoded in the query, POSTs with
 * an empty body, and TokenInterceptor appending `access_token` to every request of a signed-in user
 * (so a map that carries it already sends it twice).
 */
import t from 'tap';
import type { FastifyInstance } from 'fastify';
import { buildTestApp } from '../helpers/app.js';
import { seedUser, type TestUser } from '../helpers/users.js';

/** Retrofit: the query map (a HashMap) encoded, then TokenInterceptor's `access_token` when signed in. */
function retrofitUrl(path: string, map: Record<string, string>, signedIn?: TestUser) {
  const query = new URLSearchParams(map);
  if (signedIn) query.append('access_token', signedIn.token);
  return `${path}?${query.toString().replace(/\+/g, '%20')}`;
}
/** A Retrofit @POST without @Body: `Content-Length: 0` and no content type. */
const retrofitPost = (app: FastifyInstance, path: string, map: Record<string, string>, signedIn?: TestUser) =>
  app.inject({ method: 'POST', url: retrofitUrl(path, map, signedIn), headers: { 'content-length': '0' } });
const retrofitGet = (app: FastifyInstance, path: string, map: Record<string, string>, signedIn?: TestUser) =>
  app.inject({ method: 'GET', url: retrofitUrl(path, map, signedIn) });

const SKILL = { model: 'general', group: 'Knowledge', language: 'en', skill: 'android' };

const { app } = await buildTestApp(t);
const author = await seedUser(app);
const made = await app.inject({
  method: 'GET',
  url: `/cms/modifySkill.json?${new URLSearchParams({ ...SKILL, content: 'hi\nhello\n', changelog: 'Add', access_token: author.token })}`,
});
t.equal(made.statusCode, 200, 'the skill exists');

t.test('susi_android SusiService.kt: fiveStarRateSkill POST with the query map and an empty body', async (t) => {
  const user = await seedUser(app);
  // SkillDetailsFragment.kt:331-338: model, group, language, skill, stars, access_token; the interceptor adds the token again.
  const res = await retrofitPost(
    app,
    '/cms/fiveStarRateSkill.json',
    { ...SKILL, stars: '5', access_token: user.token },
    user,
  );
  t.equal(res.statusCode, 200);
  t.match(res.json(), {
    accepted: true,
    message: 'Skill ratings updated',
    ratings: { five_star: 1, avg_star: 5, total_star: 1 },
  });
  // FiveStarSkillRatingResponse reads ratings.{one_star…five_star, avg_star, total_star}.
  t.same(Object.keys(res.json().ratings).sort(), [
    'avg_star',
    'five_star',
    'four_star',
    'one_star',
    'three_star',
    'total_star',
    'two_star',
  ]);

  // getRatingByUser GET with the same map (SkillDetailsFragment.kt:253-259): GetRatingByUserResponse reads ratings.stars.
  const mine = await retrofitGet(app, '/cms/getRatingByUser.json', { ...SKILL, access_token: user.token }, user);
  t.equal(mine.statusCode, 200);
  t.match(mine.json(), { accepted: true, ratings: { stars: 5, email: user.email } });

  const other = await seedUser(app);
  const twoTokens = await retrofitPost(
    app,
    '/cms/fiveStarRateSkill.json',
    { ...SKILL, stars: '1', access_token: other.token },
    user,
  );
  t.equal(twoTokens.statusCode, 400, 'two different tokens are refused, not guessed between');
});

t.test('susi_android SusiService.kt: postFeedback and fetchFeedback', async (t) => {
  const user = await seedUser(app);
  let res = await retrofitPost(
    app,
    '/cms/feedbackSkill.json',
    { ...SKILL, feedback: 'Nice & quick + helpful', access_token: user.token },
    user,
  );
  t.equal(res.statusCode, 200);
  t.match(res.json(), { accepted: true, feedback: 'Nice & quick + helpful' });
  // ClientBuilder.fetchFeedbackCall: model, group, language, skill (the token only when signed in).
  res = await retrofitGet(app, '/cms/getSkillFeedback.json', SKILL);
  t.equal(res.statusCode, 200);
  // GetSkillFeedbackResponse / Feedback.kt: skill_name, feedback[].{feedback, email, timestamp, user_name, avatar}.
  t.match(res.json(), {
    skill_name: 'android',
    accepted: true,
    feedback: [
      { feedback: 'Nice & quick + helpful', email: `${user.email.split('@')[0]}@...`, user_name: '', avatar: '' },
    ],
  });
  res = await retrofitGet(app, '/cms/getSkillFeedback.json', SKILL, user);
  t.equal(
    res.json().feedback[0].email,
    user.email,
    "Utils.setUsername shows the whole address of the user's own feedback",
  );
});

t.test('susi_android SusiService.kt: rateSkill, anonymous, one vote per caller', async (t) => {
  // ClientBuilder.rateSkillCall: model, group, language, skill, rating; a signed-out app has no token.
  let res = await retrofitPost(app, '/cms/rateSkill.json', { ...SKILL, rating: 'positive' });
  t.equal(res.statusCode, 200);
  t.match(res.json(), { accepted: true, message: 'Skill ratings added', session: { identity: { anonymous: true } } });
  res = await retrofitPost(app, '/cms/rateSkill.json', { ...SKILL, rating: 'negative' });
  t.match(res.json(), { accepted: true, message: 'Skill ratings updated' });
  const user = await seedUser(app);
  res = await retrofitPost(app, '/cms/rateSkill.json', { ...SKILL, rating: 'positive' }, user);
  t.equal(res.json().message, 'Skill ratings added');
  const votes = await app.sql<
    { voter: string; positive: boolean }[]
  >`select voter, positive from skill_votes order by voter`;
  t.same(
    votes.map((v) => [v.voter.split(':')[0], v.positive]),
    [
      ['ip', false],
      ['user', true],
    ],
    'one vote per address or user; a second replaces the first',
  );
  // The skill's record counts them (strings, as the reference's skill_rating.positive and negative).
  const metrics = await retrofitGet(
    app,
    '/cms/getSkillMetricsData.json',
    { model: SKILL.model, language: SKILL.language },
    user,
  );
  const record = metrics.json().metrics.newest.find((s: { skill_tag: string }) => s.skill_tag === SKILL.skill);
  t.match(record.skill_rating, { positive: '1', negative: '1' });
});

t.test('susi_android SusiService.kt: reportSkill (ClientBuilder.sendReportCall sends no language)', async (t) => {
  const user = await seedUser(app);
  const map = {
    access_token: user.token,
    feedback: 'Wrong answers',
    skill: SKILL.skill,
    group: SKILL.group,
    model: SKILL.model,
  };
  let res = await retrofitPost(app, '/cms/reportSkill.json', map, user);
  t.equal(res.statusCode, 200);
  // ReportSkillResponse: feedback, accepted, message.
  t.match(res.json(), { feedback: 'Wrong answers', accepted: true, message: 'Skill reported successfully' });
  res = await retrofitPost(app, '/cms/reportSkill.json', map, user);
  t.equal(res.statusCode, 422);
  t.same(res.json(), { accepted: false, message: 'Skill already reported by the user.' });
  res = await retrofitPost(app, '/cms/reportSkill.json', { ...map, access_token: 'expired' });
  t.equal(res.statusCode, 401, 'an expired token is anonymous, and reporting needs a user');
});
