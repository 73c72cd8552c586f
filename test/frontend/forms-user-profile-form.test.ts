/**
 * open-event-frontend app/components/forms/user-profile-form.js:64 `this.user.save()` (also the billing
 * form of app/routes/account/billing, the same record): the whole user record as ember-data sends it,
 * over real HTTP from the front end's origin. The profile and billing members are stored and read back;
 * the flags only administrators set are refused when changed and accepted when sent back unchanged.
 */
import t, { type Test } from 'tap';
import { buildTestApp } from '../helpers/app.js';
import { frontEnd, listening, type Answer } from '../helpers/front-end-client.js';
import { userSave } from '../helpers/front-end-user.js';
import { seedUser } from '../helpers/users.js';

const { app } = await buildTestApp(t);
const apiHost = await listening(app);
const user = await seedUser(app);
const client = frontEnd(apiHost, user.token);
/** What the front end shows of a refusal (app/adapters/application.js): the status and the member the error names. */
const refused = (t: Test, res: Answer, status: number, pointer: string) => {
  t.equal(res.status, status, `${pointer}: ${status}`);
  t.equal(res.headers.get('content-type'), 'application/vnd.api+json');
  t.equal(res.body.errors?.[0]?.source?.pointer, pointer, 'the error names the member');
};
const read = async () =>
  (await client.adapter('GET', `/v1/users/${user.id}`)).body.data.attributes as Record<string, unknown>;

const PROFILE = {
  'first-name': 'Grace',
  'last-name': 'Hopper',
  'public-name': 'Amazing Grace',
  details: 'Compilers.',
  'language-prefrence': 'de',
  company: 'Remington Rand',
  'billing-contact-name': 'Grace Hopper',
  'billing-phone': '+1 555 0100',
  'billing-country': 'US',
  'billing-state': 'NY',
  'billing-city': 'New York',
  'billing-address': '1 Harbor Road',
  'billing-zip-code': '10001',
  'billing-tax-info': 'US-123456',
  'billing-additional-info': 'Invoices to the department.',
  'is-profile-public': true,
};

t.test('the profile form saves every member; the new ones are stored and read back', async (t) => {
  const before = await read();
  for (const name of ['is-blocked', 'is-sales-admin', 'is-marketer', 'is-profile-public'])
    t.equal(before[name], false, `${name} false by default`);
  t.equal(before['language-prefrence'], null);
  t.equal(before['last-accessed-at'], null, 'last-accessed-at: null before any login');
  const res = await client.adapter('PATCH', `/v1/users/${user.id}`, { body: userSave(user.id, before, PROFILE) });
  t.equal(res.status, 200, JSON.stringify(res.body?.errors ?? []));
  t.match(res.body.data.attributes, PROFILE, 'answered');
  t.match(await read(), PROFILE, 'read back');
  const [row] =
    await app.sql`select language_prefrence, company, billing_zip_code, is_profile_public from users where id = ${Number(user.id)}`;
  t.strictSame(
    { ...row },
    { language_prefrence: 'de', company: 'Remington Rand', billing_zip_code: '10001', is_profile_public: true },
  );
});

t.test('clearing: unset strings go out as null and clear the members', async (t) => {
  const cleared = Object.fromEntries(
    Object.keys(PROFILE)
      .filter((k) => k !== 'is-profile-public')
      .map((k) => [k, null]),
  );
  const res = await client.adapter('PATCH', `/v1/users/${user.id}`, { body: userSave(user.id, await read(), cleared) });
  t.equal(res.status, 200, JSON.stringify(res.body?.errors ?? []));
  t.match(res.body.data.attributes, cleared);
});

t.test('a user cannot give themself the flags administrators set: 403 at the member, nothing written', async (t) => {
  for (const flag of ['is-blocked', 'is-sales-admin', 'is-marketer', 'is-verified', 'is-admin']) {
    const before = await app.sql`select * from users where id = ${Number(user.id)}`;
    const res = await client.adapter('PATCH', `/v1/users/${user.id}`, {
      body: userSave(user.id, await read(), { [flag]: true, company: 'Changed' }),
    });
    refused(t, res, 403, `/data/attributes/${flag}`);
    t.same(await app.sql`select * from users where id = ${Number(user.id)}`, before, `${flag}: nothing written`);
  }
});

t.test('read-only members sent back: last-accessed-at only unchanged', async (t) => {
  const current = await read();
  const body = userSave(user.id, current);
  const res = await client.adapter('PATCH', `/v1/users/${user.id}`, {
    body: {
      data: { ...body.data, attributes: { ...body.data.attributes, 'last-accessed-at': '2030-01-01T00:00:00.000Z' } },
    },
  });
  refused(t, res, 422, '/data/attributes/last-accessed-at');
});

t.test('registration as app/serializers/user.js:14 sends it, from a guest checkout', async (t) => {
  const res = await frontEnd(apiHost).adapter('POST', '/v1/users', {
    body: {
      data: {
        type: 'user',
        attributes: { email: 'guest@example.com', password: 'a long password', 'was-registered-with-order': true },
      },
    },
  });
  t.equal(res.status, 201);
  t.match(res.body.data.attributes, {
    'was-registered-with-order': true,
    'is-blocked': false,
    'is-sales-admin': false,
    'is-marketer': false,
  });
});
