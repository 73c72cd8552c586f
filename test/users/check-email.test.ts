/**
 * POST /v1/users/check_email: whether an address is registered (the reference's availability check, which
 * the web front end's guest checkout and role invites use). It tells anyone; each client address may ask
 * CHECK_EMAIL_RATE_PER_IP times per window.
 */
import t from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import { post } from '../helpers/auth.js';
import { expectError, seedUser } from '../helpers/users.js';

const { app } = await buildTestApp(t, { CHECK_EMAIL_RATE_PER_IP: '8' });

t.test('answers exists for live accounts, in any letter case and with blanks around', async (t) => {
  const user = await seedUser(app);
  for (const email of [user.email, user.email.toUpperCase(), `  ${user.email} `]) {
    const res = await post(app, '/v1/users/check_email', { email });
    t.equal(res.status, 200);
    t.strictSame(res.body, { exists: true }, JSON.stringify(email));
  }
  t.strictSame((await post(app, '/v1/users/check_email', { email: 'nobody@example.com' })).body, { exists: false });
  const doomed = await seedUser(app);
  t.equal((await call(app, { method: 'DELETE', url: `/v1/users/${doomed.id}`, token: doomed.token })).status, 200);
  t.strictSame(
    (await post(app, '/v1/users/check_email', { email: doomed.email })).body,
    { exists: false },
    'a deleted account frees its address',
  );
});

t.test('bad input is a 4xx error document', async (t) => {
  expectError(t, await post(app, '/v1/users/check_email', {}), 422, { pointer: '/email' });
  expectError(t, await post(app, '/v1/users/check_email', { email: 'not an address' }), 422, { pointer: '/email' });
  expectError(t, await post(app, '/v1/users/check_email', { email: 'a@b.c', other: 1 }), 422, { pointer: '/other' });
});

t.test('each client address may ask CHECK_EMAIL_RATE_PER_IP times per window', async (t) => {
  const from = (remoteAddress: string) =>
    app.inject({
      method: 'POST',
      url: '/v1/users/check_email',
      remoteAddress,
      headers: { 'content-type': 'application/json' },
      payload: { email: 'probe@example.com' },
    });
  for (let i = 0; i < 8; i++) t.equal((await from('198.51.100.7')).statusCode, 200, `lookup ${i + 1}`);
  const limited = await from('198.51.100.7');
  expectError(t, { status: limited.statusCode, headers: limited.headers, body: limited.json() }, 429, {
    detail: /^Too many lookups from this client address/,
  });
  t.match(limited.headers['retry-after'], /^\d+$/);
  t.equal((await from('198.51.100.8')).statusCode, 200, 'another client is not limited');
});
