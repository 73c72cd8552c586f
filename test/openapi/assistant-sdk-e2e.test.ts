/**
 * The assistant face through the typed SDK against a listening server: a user logs in at
 * /aaa/login.json, stores a personal entry, writes a skill and finds it in the lists and the metrics.
 */
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { createApiClient } from '../../openapi/client/index.js';
import { buildTestApp } from '../helpers/app.js';
import { seedUser } from '../helpers/users.js';

const { app } = await buildTestApp(t);
await app.listen({ port: 0, host: '127.0.0.1' });
const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
const user = await seedUser(app);

t.test('log in, store, write a skill, read it back', async (t) => {
  const anonymous = createApiClient(baseUrl);
  const login = await anonymous.GET('/aaa/login.json', {
    params: { query: { login: user.email, password: user.password } },
  });
  t.equal(login.response.status, 200);
  t.equal(login.response.headers.get('access-control-allow-origin'), '*');
  // Every assistant answer is JSON, or a JSONP script when `callback` is sent: without one it is the object.
  const token = (login.data as Exclude<typeof login.data, string>)?.access_token as string;
  t.match(login.data, {
    accepted: true,
    message: `You are logged in as ${user.email}`,
    session: { identity: { type: 'host', anonymous: true } },
  });

  const client = createApiClient(baseUrl, { token });
  const stored = await client.GET('/aaa/storePersonalInfo.json', {
    params: { query: { storeName: 'github', value: 'ada' } },
  });
  t.match(stored.data, {
    accepted: true,
    message: 'You successfully updated your account information!',
    session: { identity: { type: 'email', name: user.email, anonymous: false } },
  });
  const read = await client.GET('/aaa/storePersonalInfo.json', { params: { query: { fetchDetails: 'true' } } });
  t.match(read.data, { accepted: true, stores: { github: 'ada' }, message: 'details fetched successfully.' });

  const modified = await client.GET('/cms/modifySkill.json', {
    params: {
      query: {
        model: 'general',
        group: 'Knowledge',
        language: 'en',
        skill: 'greeting',
        content: 'hello|hi\nHello!',
        changelog: 'First version',
      } as never,
    },
  });
  t.match(modified.data, { accepted: true, message: 'Skill Modified Successfully' });
  const languages = await anonymous.GET('/cms/getLanguage.json', { params: { query: { skill: 'greeting' } } });
  t.match(languages.data, { accepted: true, languageJsonArray: ['en'] });
  const skill = await anonymous.GET('/cms/getSkill.json', { params: { query: { skill: 'greeting' } } });
  t.match(skill.data, { accepted: true, text: 'hello|hi\nHello!' });
  // A chat answer from the skill counts one use (reading it in the editor does not).
  const chat = await anonymous.GET('/susi/chat.json', { params: { query: { q: 'hi' } } });
  t.match(chat.data, { answers: [{ actions: [{ type: 'answer', expression: 'Hello!' }] }] });
  const metrics = await anonymous.GET('/cms/getSkillMetricsData.json', { params: { query: { language: 'en' } } });
  const newest = (
    (metrics.data as Exclude<typeof metrics.data, string | undefined>).metrics as {
      newest: { skill_name: string; usage_count: number; author: string }[];
    }
  ).newest;
  // No `::name` or `::author` lines: the file name, and no author (the reference's record).
  t.same(
    newest.map((s) => [s.skill_name, s.usage_count, s.author]),
    [['greeting', 1, '']],
  );

  const refused = await anonymous.GET('/aaa/listSettings.json');
  t.equal(refused.response.status, 401);
  t.match(refused.error, { accepted: false, message: /Base user role not sufficient/ });
});
