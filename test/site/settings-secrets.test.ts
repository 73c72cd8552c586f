/**
 * No secret of the settings reaches anyone but administrators. An admin stores a unique marker in
 * every administrator field; then anonymous callers and a plain user call every route that could
 * carry them (the settings under any id, lists, details, includes, errors, the OpenAPI document) and
 * no answer holds any marker, while the admin's own read holds them all.
 */
import t from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import { create, eventAttributes, rel } from '../helpers/events.js';
import { expectError, seedUser } from '../helpers/users.js';

const { app } = await buildTestApp(t);
const user = await seedUser(app);
const admin = await seedUser(app, { admin: true });
const superAdmin = await seedUser(app, { superAdmin: true });

const tag = `${process.pid}x${Date.now().toString(36)}`;
/** Every administrator field with a value found nowhere else (the port is a number: checked by key). */
const SECRETS: Record<string, string> = {
  'storage-place': 's3',
  's3-endpoint': `https://secret-endpoint-${tag}.example`,
  's3-bucket': `secret-bucket-${tag}`,
  's3-region': `SECRET-REGION-${tag}`,
  's3-access-key': `SECRET-ACCESS-${tag}`,
  's3-secret-key': `SECRET-S3-${tag}`,
  'email-from': `secret-from-${tag}@example.com`,
  'email-from-name': `SECRET-FROM-NAME-${tag}`,
  'smtp-host': `secret-host-${tag}.example`,
  'smtp-username': `SECRET-SMTP-USER-${tag}`,
  'smtp-password': `SECRET-SMTP-${tag}`,
  // the web front end's administrator settings (open-event-frontend app/models/setting.js): every key and secret
  'static-domain': `secret-static-${tag}.example`,
  'gs-bucket-name': `secret-gs-bucket-${tag}`,
  'gs-key': `SECRET-GS-KEY-${tag}`,
  'gs-secret': `SECRET-GS-${tag}`,
  'google-client-id': `SECRET-GOOGLE-ID-${tag}`,
  'google-client-secret': `SECRET-GOOGLE-${tag}`,
  'fb-client-secret': `SECRET-FB-${tag}`,
  'tw-consumer-key': `SECRET-TW-KEY-${tag}`,
  'tw-consumer-secret': `SECRET-TW-${tag}`,
  'in-client-id': `SECRET-IN-ID-${tag}`,
  'in-client-secret': `SECRET-IN-${tag}`,
  'stripe-secret-key': `SECRET-STRIPE-${tag}`,
  'stripe-test-secret-key': `SECRET-STRIPE-TEST-${tag}`,
  'paypal-secret': `SECRET-PAYPAL-${tag}`,
  'paypal-sandbox-secret': `SECRET-PAYPAL-SANDBOX-${tag}`,
  'omise-test-secret': `SECRET-OMISE-TEST-${tag}`,
  'omise-live-secret': `SECRET-OMISE-LIVE-${tag}`,
  'alipay-secret-key': `SECRET-ALIPAY-${tag}`,
  'paytm-live-secret': `SECRET-PAYTM-LIVE-${tag}`,
  'paytm-sandbox-secret': `SECRET-PAYTM-SANDBOX-${tag}`,
  'sendgrid-key': `SECRET-SENDGRID-${tag}`,
  'rocket-chat-registration-secret': `SECRET-ROCKET-${tag}`,
  'google-recaptcha-site': `SECRET-RECAPTCHA-SITE-${tag}`,
  'google-recaptcha-secret': `SECRET-RECAPTCHA-${tag}`,
  'admin-billing-paypal-email': `secret-paypal-${tag}@example.com`,
};
/** Administrator settings that are not strings (or aliases of the S3 ones): checked by key. */
const OTHER_ADMIN_KEYS = [
  'email-service',
  'smtp-port',
  'smtp-encryption',
  'app-environment',
  'is-google-recaptcha-enabled',
  'invoice-sending-day',
  'invoice-sending-timezone',
  'aws-key',
  'aws-secret',
  'aws-bucket-name',
  'aws-region',
];
const MARKERS = Object.entries(SECRETS)
  .filter(([k]) => k !== 'storage-place')
  .map(([, v]) => v);
const ADMIN_KEYS = [...Object.keys(SECRETS), ...OTHER_ADMIN_KEYS];

t.before(async () => {
  const res = await call(app, {
    method: 'PATCH',
    url: '/v1/settings/1',
    token: admin.token,
    body: {
      data: { type: 'setting', id: '1', attributes: { ...SECRETS, 'smtp-port': 2525, 'smtp-encryption': 'ssl' } },
    },
  });
  if (res.status !== 200) throw new Error(`admin PATCH: ${res.status} ${JSON.stringify(res.body)}`);
});

/** Each marker the text holds. */
const leaked = (text: string) => MARKERS.filter((m) => text.toLowerCase().includes(m.toLowerCase()));

t.test('every member only administrators see is covered here', async (t) => {
  const full = Object.keys((await call(app, { url: '/v1/settings', token: admin.token })).body.data.attributes);
  const limited = Object.keys((await call(app, { url: '/v1/settings' })).body.data.attributes);
  const adminOnly = full.filter((k) => !limited.includes(k)).sort();
  t.strictSame(adminOnly, [...ADMIN_KEYS].sort(), 'a marker or a key check for each');
});

t.test('the admin and the super admin read every secret back', async (t) => {
  for (const [who, token] of [
    ['admin', admin.token],
    ['super admin', superAdmin.token],
  ] as const) {
    for (const url of ['/v1/settings', '/v1/settings/1', '/v1/settings/9']) {
      const res = await call(app, { url, token });
      t.equal(res.status, 200);
      t.strictSame(leaked(JSON.stringify(res.body)), MARKERS, `${who} GET ${url}: every marker`);
      t.match(res.body.data.attributes, {
        ...SECRETS,
        'smtp-port': 2525,
        'smtp-encryption': 'ssl',
        'aws-key': SECRETS['s3-access-key'],
        'aws-secret': SECRETS['s3-secret-key'],
      });
    }
  }
});

t.test('no marker in any answer to anonymous callers or plain users', async (t) => {
  const owner = await seedUser(app);
  const topic = await create(app, admin.token, 'event-topics', 'event-topic', { name: 'Technology' });
  const event = await create(app, owner.token, 'events', 'event', eventAttributes('Open Summit'), {
    'event-topic': rel('event-topic', topic),
    organizers: { data: [{ type: 'user', id: user.id }] },
  });
  const page = await create(app, admin.token, 'pages', 'page', {
    name: 'about',
    url: '/about',
    description: 'About us',
    place: 'footer',
  });

  const urls = (self?: string) => [
    '/v1/settings',
    '/v1/settings/1',
    '/v1/settings/9',
    '/v1/settings/not-a-number',
    '/v1/settings?include=owner',
    '/v1/settings?fields[setting]=s3-secret-key,smtp-password',
    '/v1/users',
    ...(self ? [`/v1/users/${self}`, `/v1/users/${self}?include=events`] : []),
    `/v1/users/${admin.id}`,
    '/v1/events?include=owner,organizers,event-topic,sessions,speakers',
    `/v1/events/${event}?include=owner,organizers,coorganizers,event-topic`,
    `/v1/events/${event}/owner`,
    '/v1/event-topics',
    '/v1/pages',
    `/v1/pages/${page}`,
    '/v1/pages?filter=[{"name":"place","op":"eq","val":"footer"}]',
    '/v1/admin/statistics/mails',
    '/v1/admin/statistics/sessions',
    '/v1/orders',
    '/v1/no-such-route',
  ];
  for (const [who, token, self] of [
    ['anonymous', undefined, undefined],
    ['plain user', user.token, user.id],
  ] as const) {
    for (const url of urls(self)) {
      const res = await call(app, { url, token });
      t.ok(res.status < 500, `${who} GET ${url}: no 500 (${res.status})`);
      const text = JSON.stringify({ headers: res.headers, body: res.body });
      t.strictSame(leaked(text), [], `${who} GET ${url}: no marker`);
      t.strictSame(
        ADMIN_KEYS.filter((k) => text.includes(`"${k}"`)),
        [],
        `${who} GET ${url}: no administrator member`,
      );
    }
    for (const url of ['/v1/settings', '/v1/settings/1', '/v1/settings/9']) {
      const res = await call(app, { url, token });
      t.equal(res.status, 200, `${who} GET ${url}`);
      t.notOk(
        ADMIN_KEYS.some((k) => k in res.body.data.attributes),
        `${who} GET ${url}: the limited variant`,
      );
    }
    const docs = await app.inject({ url: '/docs/json', headers: token ? { authorization: `JWT ${token}` } : {} });
    t.equal(docs.statusCode, 200, `${who} GET /docs/json`);
    t.strictSame(leaked(docs.body), [], `${who}: the OpenAPI document holds no marker`);
  }
});

t.test('a refused PATCH by a non-admin echoes no secret and writes nothing', async (t) => {
  const before = await app.sql`select * from settings`;
  const attempts: [string, string | undefined, number, Record<string, unknown>][] = [
    ['plain user', user.token, 403, { 'app-name': 'Hijacked' }],
    ['plain user', user.token, 403, { 'storage-place': 's3', 's3-bucket': null }],
    ['plain user', user.token, 403, { 'email-service': 'smtp', 'smtp-host': null }],
    ['anonymous', undefined, 401, { 'smtp-password': 'guess' }],
    ['anonymous', undefined, 401, { 'email-service': 'smtp', 'smtp-host': null }],
  ];
  for (const [who, token, status, attributes] of attempts) {
    const res = await call(app, {
      method: 'PATCH',
      url: '/v1/settings/1',
      token,
      body: { data: { type: 'setting', id: '1', attributes } },
    });
    expectError(t, res, status);
    const text = JSON.stringify({ headers: res.headers, body: res.body });
    t.strictSame(leaked(text), [], `${who} PATCH ${JSON.stringify(attributes)}: no marker in the error`);
  }
  t.same(await app.sql`select * from settings`, before, 'nothing written');
});
