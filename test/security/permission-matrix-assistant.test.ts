/**
 * The permission matrix, the assistant face (/cms, /aaa, /data/settings): every route the app serves,
 * for every caller, against the outcome written once in permission-matrix.ts. The token travels as the
 * `access_token` parameter (query or form), as assistant clients send it; `owner` wrote the skill.
 */
import { eq } from 'drizzle-orm';
import t from 'tap';
import { recordUsage } from '../../src/assistant/usage.js';
import { users as userTable } from '../../db/schema/index.js';
import { makeImage, multipart } from '../helpers/images.js';
import { seedUser } from '../helpers/users.js';
import { appWithRoutes, checkCoverage, inject, runMatrix, type Recipe, type Send } from './matrix.js';
import { buildCallers } from './matrix-world.js';
import { CALLERS, type Caller } from './permission-matrix.js';

// Every signed-in caller but the administrators signs up twice (GET and POST): room for all of them.
const { app, routes } = await appWithRoutes(t, { SIGNUP_RATE_PER_IP: '50' });

t.test('every assistant route has an entry', async (t) => checkCoverage(t, routes, 'assistant'));

t.test('assistant routes x callers', async (t) => {
  const { users, tokens } = await buildCallers(app);
  const skill = { model: 'general', group: 'Knowledge', language: 'en', skill: 'matrix' };
  const withToken = (caller: Caller, params: Record<string, string>) => ({
    ...(tokens[caller] ? { access_token: tokens[caller]! } : {}),
    ...params,
  });
  const query =
    (params: Record<string, string>): Recipe =>
    (caller) => ({ query: withToken(caller, params) });
  const form =
    (params: Record<string, string>): Recipe =>
    (caller) => ({ form: withToken(caller, params) });
  const written = await inject(app, 'GET', '/cms/modifySkill.json', {
    query: withToken('owner', { ...skill, content: 'matrix text', changelog: 'Add matrix' }),
  });
  t.equal(written.body?.accepted, true, 'the owner wrote the skill the matrix reads and rates');

  const login =
    (as: 'query' | 'form'): Recipe =>
    (caller) => {
      const user = users[caller === 'anonymous' ? 'owner' : caller];
      return { [as]: { login: user.email, password: user.password } };
    };
  const target = await seedUser(app);
  const png = await makeImage('png', 600, 400);
  let n = 0;
  /** A new public skill written by `owner` (its author, also by `::author_email`). */
  const ownersSkill = async () => {
    const name = `owned${++n}`;
    const res = await inject(app, 'GET', '/cms/modifySkill.json', {
      query: withToken('owner', {
        ...skill,
        skill: name,
        content: `::author_email ${users.owner.email}\nhi|hello\nHello`,
        changelog: `Add ${name}`,
      }),
    });
    if (res.body?.accepted !== true) throw new Error(`modifySkill: ${JSON.stringify(res.body)}`);
    return name;
  };
  /** A role change on an account made for the cell. */
  const changeRole =
    (targetIsAdmin: boolean, role: string): Recipe =>
    async (caller) => {
      const account = await seedUser(app, { admin: targetIsAdmin });
      return { query: withToken(caller, { user: account.email, role }) };
    };

  const used = async () => {
    const [row] = await app.sql<{ id: number }[]>`select id from skills where name = ${skill.skill}`;
    await recordUsage(app, row!.id, { deviceType: 'Android', countryCode: 'DE' });
  };
  const RECIPES: Record<string, Recipe> = {
    'GET /aaa/login.json': login('query'),
    'POST /aaa/login.json': login('form'),
    'GET /aaa/storePersonalInfo.json': query({ storeName: 'github', value: 'octocat' }),
    'POST /aaa/storePersonalInfo.json': form({ storeName: 'mastodon', value: '@octocat' }),
    'GET /aaa/changeRoles.json': query({ user: target.email, role: 'reviewer' }),
    'POST /aaa/changeRoles.json': form({ user: target.email, role: 'operator' }),
    'GET /aaa/changeRoles.json [role=superadmin]': changeRole(false, 'superadmin'),
    'GET /aaa/changeRoles.json [user=an admin]': changeRole(true, 'reviewer'),
    'GET /aaa/listSettings.json': query({}),
    ...Object.fromEntries(
      (['GET', 'POST'] as const).flatMap((method) => {
        const send = (params: Record<string, string>) => (method === 'GET' ? query(params) : form(params));
        /** A fresh account (with one device) for each cell that deletes or edits one. */
        const fresh =
          (build: (email: string) => Record<string, string>): Recipe =>
          async (caller) => {
            const account = await seedUser(app);
            await app.db
              .update(userTable)
              .set({ assistantDevices: { '00:00:00:00:00:01': { name: 'a', room: 'b' } } })
              .where(eq(userTable.id, Number(account.id)));
            return send(build(account.email))(caller);
          };
        const unique = (name: string) => `${name}-${++n}-${process.pid}@example.com`;
        return [
          [`${method} /aaa/getApiKeys.json`, send({ type: 'public' })],
          [`${method} /aaa/showAdminService.json`, send({})],
          [
            `${method} /aaa/signup.json`,
            (caller: Caller) => send({ signup: unique('signup'), password: 'matrix password' })(caller),
          ],
          [`${method} /aaa/recoverpassword.json`, (caller: Caller) => send({ forgotemail: unique('forgot') })(caller)],
          [`${method} /aaa/checkRegistration.json`, send({ check_email: 'someone@example.com' })],
          [`${method} /aaa/listUserSettings.json`, send({})],
          [`${method} /aaa/changeUserSettings.json`, send({ theme: 'dark' })],
          [`${method} /aaa/listUserDevices.json`, send({})],
          [`${method} /aaa/addNewDevice.json`, send({ macid: '00:11:22:33:44:55', name: 'Speaker', room: 'Hall' })],
          [`${method} /aaa/getUsers.json`, send({ page: '1' })],
          // A wrong current password: the callers keep their passwords and tokens.
          [
            `${method} /aaa/changepassword.json`,
            send({ password: 'not the password', newpassword: 'a new matrix password' }),
          ],
          [`${method} /aaa/deleteUserAccount.json`, fresh((email) => ({ email }))],
          [`${method} /aaa/deleteUserAccount`, fresh((email) => ({ email }))],
          [
            `${method} /aaa/modifyUserDevices.json`,
            fresh((email) => ({ email, macid: '00:00:00:00:00:01', room: 'Kitchen' })),
          ],
        ];
      }),
    ),
    'GET /aaa/deleteUserAccount.json [email=an admin]': async (caller) => {
      const account = await seedUser(app, { admin: true });
      return { query: withToken(caller, { email: account.email }) };
    },
    'GET /data/settings': query({ file: 'accounting' }),
    'POST /cms/createSkill.json': (caller): Send =>
      multipart(
        [['image', 'logo.png', png]],
        withToken(caller, { ...skill, skill: `created${++n}`, image_name: `created${n}.jpg` }),
      ),
    'GET /cms/modifySkill.json': (caller) => ({
      query: withToken(caller, { ...skill, content: `text ${++n}`, changelog: `Change ${n}` }),
    }),
    'POST /cms/modifySkill.json': (caller) => ({
      form: withToken(caller, { ...skill, content: `text ${++n}`, changelog: `Change ${n}` }),
    }),
    'GET /cms/getModel.json': query({}),
    'GET /cms/getGroups.json': query({ model: 'general' }),
    'GET /cms/getAllLanguages.json': query({ model: 'general', group: 'All' }),
    'GET /cms/getLanguage.json': query({ model: 'general', group: 'Knowledge', skill: 'matrix' }),
    'GET /cms/getSkill.json': query(skill),
    'GET /cms/fiveStarRateSkill.json': query({ ...skill, stars: '4' }),
    'POST /cms/fiveStarRateSkill.json': form({ ...skill, stars: '5' }),
    'GET /cms/feedbackSkill.json': query({ ...skill, feedback: 'Useful' }),
    'POST /cms/feedbackSkill.json': form({ ...skill, feedback: 'Very useful' }),
    'GET /cms/changeSkillStatus.json': query({ ...skill, staffPick: 'true' }),
    'POST /cms/changeSkillStatus.json': form({ ...skill, reviewed: 'true' }),
    'GET /cms/getSkillMetricsData.json': query({ language: 'en' }),
    'GET /cms/getRatingByUser.json': query(skill),
    'GET /cms/getRatingsOverTime.json': query(skill),
    'GET /cms/getProfileDetails.json': query({}),
    'GET /cms/rateSkill.json': query({ ...skill, rating: 'positive' }),
    'POST /cms/rateSkill.json': form({ ...skill, rating: 'negative' }),
    'GET /cms/getSkillFeedback.json': query(skill),
    'GET /cms/removeFeedback.json': query(skill),
    'POST /cms/removeFeedback.json': form(skill),
    // One report per user and skill: each cell starts without one.
    'GET /cms/reportSkill.json': async (caller) => (
      await app.sql`delete from skill_reports`, { query: withToken(caller, { ...skill, feedback: 'Spam' }) }
    ),
    'POST /cms/reportSkill.json': async (caller) => (
      await app.sql`delete from skill_reports`, { form: withToken(caller, { ...skill, feedback: 'Spam' }) }
    ),
    'GET /cms/getReportSkill.json': query({}),
    // Each usage list after a chat that named its device and country (as /susi/chat.json records it), so
    // the list has an entry whatever cells ran before (a deletion takes the skill's usage with it).
    'GET /cms/getSkillUsage.json': async (caller) => (
      await used(), { query: withToken(caller, { ...skill, duration: '30' }) }
    ),
    'GET /cms/getCountryWiseSkillUsage.json': async (caller) => (await used(), { query: withToken(caller, skill) }),
    'GET /cms/getDeviceWiseSkillUsage.json': async (caller) => (await used(), { query: withToken(caller, skill) }),
    'GET /cms/getImage.png': query({
      model: 'general',
      group: 'Knowledge',
      language: 'en',
      image: 'images/matrix.png',
    }),
    'GET /cms/getSkillMetadata.json': query(skill),
    'GET /cms/getSkillList.json': query({
      applyFilter: 'true',
      filter_name: 'ascending',
      filter_type: 'lexicographical',
    }),
    'GET /cms/getSkillsByAuthor.json': query({ author_email: users.owner.email }),
    'GET /susi/chat.json': query({ q: 'hello', instant: 'hello\nhi there' }),
    'POST /susi/chat.json': form({ q: 'hello', instant: 'hello\nhi there' }),
    'POST /cms/uploadImage.json': (caller): Send =>
      multipart([['image', 'avatar.png', png]], withToken(caller, { image_name: `avatar${++n}.png` })),
    'GET /cms/getSkillHistory.json': query(skill),
    'GET /cms/getFileAtCommitID.json': async (caller) => {
      const history = await inject(app, 'GET', '/cms/getSkillHistory.json', { query: skill });
      return { query: withToken(caller, { ...skill, commitID: history.body.commits[0].commitID }) };
    },
    // Each cell deletes (or restores) a skill of its own that `owner` wrote.
    'GET /cms/deleteSkill.json': async (caller) => ({
      query: withToken(caller, { ...skill, skill: await ownersSkill() }),
    }),
    'GET /cms/undoDeleteSkill.json': async (caller) => {
      const name = await ownersSkill();
      const deleted = await inject(app, 'GET', '/cms/deleteSkill.json', {
        query: withToken('admin', { ...skill, skill: name }),
      });
      if (deleted.body?.accepted !== true) throw new Error(`deleteSkill: ${JSON.stringify(deleted.body)}`);
      return { query: withToken(caller, { ...skill, skill: name }) };
    },
    'GET /cms/skillsToBeDeleted.json': query({}),
    'GET /cms/storeDraft.json': query({ object: '{"name":"Draft bot"}' }),
    'POST /cms/storeDraft.json': form({ object: '{"name":"Draft bot"}', id: 'matrix' }),
    'GET /cms/readDraft.json': query({}),
    'GET /cms/deleteDraft.json': query({ id: 'matrix' }),
  };
  // The token is a parameter here, never the Authorization header.
  const noHeader = Object.fromEntries(CALLERS.map((c) => [c, undefined])) as Record<Caller, undefined>;
  await runMatrix(t, app, 'assistant', {}, noHeader, RECIPES);
});
