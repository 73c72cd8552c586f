/** POST /v1/users: open registration, its document, and its validation rules. */
import t from 'tap';
import { buildTestApp, call, JSONAPI } from '../helpers/app.js';
import { countUsers, createUser, expectError, login } from '../helpers/users.js';

const register = (attributes: Record<string, unknown>) => ({ data: { type: 'user', attributes } });

const ATTRIBUTES = [
  'email',
  'name',
  'first-name',
  'last-name',
  'details',
  'contact',
  'avatar-url',
  'facebook-url',
  'twitter-url',
  'facebook-id',
  'instagram-url',
  'google-plus-url',
  'original-image-url',
  'thumbnail-image-url',
  'small-image-url',
  'icon-image-url',
  'is-admin',
  'is-super-admin',
  'is-verified',
  'public-name',
  'was-registered-with-order',
  'created-at',
  'deleted-at',
  // open-event-frontend app/models/user.js
  'language-prefrence',
  'company',
  'billing-contact-name',
  'billing-phone',
  'billing-country',
  'billing-state',
  'billing-city',
  'billing-address',
  'billing-zip-code',
  'billing-tax-info',
  'billing-additional-info',
  'is-profile-public',
  'is-blocked',
  'is-sales-admin',
  'is-marketer',
  'last-accessed-at',
  'is-user-owner',
  'is-user-organizer',
  'is-user-coorganizer',
  'is-user-track-organizer',
  'is-user-moderator',
  'is-user-registrar',
].sort();

t.test('registration', async (t) => {
  const { app } = await buildTestApp(t);

  t.test('answers 201, Location and the whole user document', async (t) => {
    const res = await call(app, {
      method: 'POST',
      url: '/v1/users',
      body: register({
        email: 'ada@example.com',
        password: 'analytical engine',
        name: 'Ada',
        'first-name': 'Ada',
        'last-name': null,
        'twitter-url': 'https://twitter.com/ada',
      }),
    });
    t.equal(res.status, 201);
    t.equal(res.headers['content-type'], JSONAPI);
    const { data } = res.body;
    t.match(data.id, /^\d+$/, 'id is a string of digits');
    t.equal(res.headers.location, `/v1/users/${data.id}`);
    t.same(Object.keys(res.body).sort(), ['data', 'jsonapi', 'links']);
    t.same(res.body.links, { self: `/v1/users/${data.id}` });
    t.same(res.body.jsonapi, { version: '1.0' });
    t.equal(data.type, 'user');
    t.same(data.links, { self: `/v1/users/${data.id}` });
    t.same(Object.keys(data.attributes).sort(), ATTRIBUTES, 'every readable attribute, no password');
    t.match(data.attributes, {
      email: 'ada@example.com',
      name: 'Ada',
      'first-name': 'Ada',
      'last-name': null,
      'twitter-url': 'https://twitter.com/ada',
      'facebook-url': null,
      'is-admin': false,
      'facebook-id': null,
      'is-super-admin': false,
      'is-verified': false,
      'public-name': null,
      'was-registered-with-order': false,
      'deleted-at': null,
    });
    t.ok(Math.abs(Date.parse(data.attributes['created-at']) - Date.now()) < 60_000, 'created-at is now');
    t.type(await login(app, 'ada@example.com', 'analytical engine'), 'string', 'the new account logs in');
  });

  t.test('a duplicate email is 409 pointing at email, in any letter case', async (t) => {
    const existing = await createUser(app);
    for (const email of [existing.email, existing.email.toUpperCase()]) {
      const rows = await countUsers(app);
      const res = await call(app, {
        method: 'POST',
        url: '/v1/users',
        body: register({ email, password: 'another password' }),
      });
      expectError(t, res, 409, { pointer: '/data/attributes/email', detail: 'A user with this email already exists' });
      t.equal(await countUsers(app), rows, `nothing written for ${email}`);
    }
    t.type(await login(app, existing.email, existing.password), 'string', 'the first account keeps its password');
  });

  t.test('changing the email to one in use is 409 too', async (t) => {
    const a = await createUser(app);
    const b = await createUser(app);
    const res = await call(app, {
      method: 'PATCH',
      url: `/v1/users/${b.id}`,
      token: b.token,
      body: { data: { type: 'user', id: b.id, attributes: { email: a.email.toUpperCase() } } },
    });
    expectError(t, res, 409, { pointer: '/data/attributes/email' });
    const self = await call(app, { url: `/v1/users/${b.id}`, token: b.token });
    t.equal(self.body.data.attributes.email, b.email, 'unchanged');
  });

  t.test('a password shorter than 8 characters is 422', async (t) => {
    const rows = await countUsers(app);
    for (const password of ['', 'a', 'seven77']) {
      const res = await call(app, {
        method: 'POST',
        url: '/v1/users',
        body: register({ email: 'short@example.com', password }),
      });
      expectError(t, res, 422, { pointer: '/data/attributes/password' });
    }
    const ok = await call(app, {
      method: 'POST',
      url: '/v1/users',
      body: register({ email: 'eight@example.com', password: '8 chars!' }),
    });
    t.equal(ok.status, 201, 'exactly 8 is enough');
    t.equal(await countUsers(app), rows + 1);
  });

  t.test('a PATCH with a short password is 422 and keeps the old one', async (t) => {
    const user = await createUser(app);
    const res = await call(app, {
      method: 'PATCH',
      url: `/v1/users/${user.id}`,
      token: user.token,
      body: { data: { type: 'user', id: user.id, attributes: { password: 'short' } } },
    });
    expectError(t, res, 422, { pointer: '/data/attributes/password' });
    t.type(await login(app, user.email, user.password), 'string');
  });

  t.test('an invalid email is 422 pointing at email', async (t) => {
    const rows = await countUsers(app);
    for (const email of ['', 'plain', 'a@', '@b.com', 'a b@c.com', 'a@b@c.com', `${'x'.repeat(250)}@example.com`]) {
      const res = await call(app, {
        method: 'POST',
        url: '/v1/users',
        body: register({ email, password: 'long enough' }),
      });
      expectError(t, res, 422, { pointer: '/data/attributes/email' });
    }
    t.equal(await countUsers(app), rows);
  });

  t.test('email and password are required', async (t) => {
    const rows = await countUsers(app);
    const noEmail = await call(app, { method: 'POST', url: '/v1/users', body: register({ password: 'long enough' }) });
    expectError(t, noEmail, 422, { pointer: '/data/attributes/email' });
    const noPassword = await call(app, {
      method: 'POST',
      url: '/v1/users',
      body: register({ email: 'np@example.com' }),
    });
    expectError(t, noPassword, 422, { pointer: '/data/attributes/password' });
    t.equal(await countUsers(app), rows);
  });

  t.test('the email is trimmed before it is stored and compared', async (t) => {
    const res = await call(app, {
      method: 'POST',
      url: '/v1/users',
      body: register({ email: '  padded@example.com \t', password: 'long enough' }),
    });
    t.equal(res.status, 201);
    t.equal(res.body.data.attributes.email, 'padded@example.com');
    const [row] = await app.sql`select email from users where id = ${Number(res.body.data.id)}`;
    t.equal(row!.email, 'padded@example.com', 'stored trimmed');
    const again = await call(app, {
      method: 'POST',
      url: '/v1/users',
      body: register({ email: ' Padded@Example.com', password: 'long enough' }),
    });
    expectError(t, again, 409, { pointer: '/data/attributes/email' });
    t.type(await login(app, 'padded@example.com', 'long enough'), 'string');
  });

  t.test('read-only attributes and client ids are refused', async (t) => {
    const rows = await countUsers(app);
    for (const attr of ['created-at', 'deleted-at', 'thumbnail-image-url']) {
      const value = attr.endsWith('url') ? 'https://example.com/x.png' : new Date().toISOString();
      const res = await call(app, {
        method: 'POST',
        url: '/v1/users',
        body: register({ email: `ro-${attr}@example.com`, password: 'long enough', [attr]: value }),
      });
      expectError(t, res, 422, { pointer: `/data/attributes/${attr}` });
    }
    const withId = await call(app, {
      method: 'POST',
      url: '/v1/users',
      body: { data: { type: 'user', id: '12345', attributes: { email: 'id@example.com', password: 'long enough' } } },
    });
    expectError(t, withId, 403, { pointer: '/data/id' });
    const wrongType = await call(app, {
      method: 'POST',
      url: '/v1/users',
      body: { data: { type: 'person', attributes: { email: 'type@example.com', password: 'long enough' } } },
    });
    expectError(t, wrongType, 409, { pointer: '/data/type' });
    t.equal(await countUsers(app), rows);
  });
});
