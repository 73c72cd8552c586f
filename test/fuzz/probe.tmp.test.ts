import t from 'tap';
import { buildTestApp } from '../helpers/app.js';
import { seedUser } from '../helpers/users.js';
const { app } = await buildTestApp(t);
const u = await seedUser(app, { superAdmin: true });
const cases = JSON.parse(process.env.PROBE ?? '[]') as [string, string, string?, string?][];
t.test('probe', async (t) => {
for (const [m, url0, body, ct] of cases) {
  const url = url0.replace('TOKEN', u.token);
  const res = await app.inject({ method: m as 'GET', url, headers: { ...(url0.includes('TOKEN') ? {} : { authorization: `JWT ${u.token}` }), ...(ct ? { 'content-type': ct } : {}) }, ...(body !== undefined ? { payload: body } : {}) });
  t.comment(m, url0, res.statusCode, res.headers['content-type'], res.body.slice(0, 300));
}
t.pass();
});
