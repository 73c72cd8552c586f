/**
 * `PATCH /v1/settings` (no id), as the reference's blueprint sends it: administrators only, the one record, the
 * full variant in the answer; everyone else reads only the public members; bad input writes nothing. The image
 * sizes are no settings any more: they live in the image-size records (test/console/image-sizes.test.ts).
 */
import t from 'tap';
import { assertDocument, assertError, buildTestApp, call } from '../helpers/app.js';
import { seedUser } from '../helpers/users.js';

const { app } = await buildTestApp(t);
const user = await seedUser(app);
const admin = await seedUser(app, { admin: true });
const superAdmin = await seedUser(app, { superAdmin: true });

const patch = (token: string | undefined, attributes: Record<string, unknown>, id = '1', query = '') =>
  call(app, {
    method: 'PATCH',
    url: `/v1/settings${query}`,
    token,
    body: { data: { type: 'setting', id, attributes } },
  });

t.test('administrators change the settings at /v1/settings; the answer is the full variant', async (t) => {
  const res = await patch(admin.token, { 'app-name': 'Eventyay', 'smtp-username': 'mailer', 'order-expiry-time': 20 });
  assertDocument(t, res, 200);
  t.equal(res.body.data.id, '1');
  t.equal(res.body.data.attributes['app-name'], 'Eventyay');
  t.equal(res.body.data.attributes['smtp-username'], 'mailer', 'admin members in the answer');
  const bySuper = await patch(superAdmin.token, { tagline: 'For all' });
  t.equal(bySuper.status, 200);
  const [row] = await app.sql`select app_name, tagline, smtp_username, order_expiry_time from settings`;
  t.strictSame(
    { ...row },
    { app_name: 'Eventyay', tagline: 'For all', smtp_username: 'mailer', order_expiry_time: 20 },
    'stored',
  );
  for (const token of [undefined, user.token]) {
    const read = await call(app, { url: '/v1/settings', token });
    t.equal(read.body.data.attributes['app-name'], 'Eventyay');
    t.equal(read.body.data.attributes['order-expiry-time'], 20);
    t.notOk('smtp-username' in read.body.data.attributes, 'no admin members for others');
  }
  const sparse = await patch(admin.token, { tagline: 'Sparse' }, '1', '?fields[setting]=tagline');
  t.strictSame(sparse.body.data.attributes, { tagline: 'Sparse' }, 'fields[setting] narrows the answer');
});

t.test('others are refused before anything is written; the image sizes are no settings', async (t) => {
  assertError(t, await patch(undefined, { tagline: 'Mine' }), 401);
  assertError(t, await patch(user.token, { tagline: 'Mine' }), 403);
  assertError(t, await patch(admin.token, { tagline: 'Two' }, '2'), 409, { pointer: '/data/id' });
  assertError(t, await patch(admin.token, { 'order-expiry-time': 0 }), 422, {
    pointer: '/data/attributes/order-expiry-time',
  });
  for (const gone of ['large-image-width', 'image-keep-aspect', 'profile-icon-size']) {
    assertError(t, await patch(admin.token, { [gone]: 100 }), 422, { pointer: `/data/attributes/${gone}` });
  }
  const bad = await call(app, { url: '/v1/settings?fields[setting]=large-image-width', token: admin.token });
  assertError(t, bad, 400, { parameter: 'fields[setting]' });
  const [row] = await app.sql`select tagline, order_expiry_time from settings`;
  t.strictSame({ ...row }, { tagline: 'Sparse', order_expiry_time: 20 }, 'nothing written');
});
