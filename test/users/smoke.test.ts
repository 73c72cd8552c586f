import t from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import { createUser } from '../helpers/users.js';

t.test('register, log in, read self', async (t) => {
  const { app } = await buildTestApp(t);
  const user = await createUser(app);
  const res = await call(app, { url: `/v1/users/${user.id}`, token: user.token });
  t.equal(res.status, 200);
  t.equal(res.body.data.attributes.email, user.email);
  t.notOk('password' in res.body.data.attributes);
});
