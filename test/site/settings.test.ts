/**
 * The settings record: one row (id 1) whatever id the path names, in two variants. Administrators
 * and super administrators read and change every field; anonymous callers and plain users read
 * the public fields only and change nothing. The OpenAPI document describes both variants.
 */
import { Ajv } from 'ajv';
import formats from 'ajv-formats';
import t from 'tap';
import { assertDocument, buildTestApp, call } from '../helpers/app.js';
import { expectRefused, snapshotOf } from '../helpers/events.js';
import { expectError, seedUser } from '../helpers/users.js';

const PUBLIC_KEYS = [
  'app-name',
  'tagline',
  'frontend-url',
  'support-url',
  'facebook-url',
  'twitter-url',
  'instagram-url',
  'github-url',
  'youtube-url',
  // the web front end's public settings (open-event-frontend app/models/setting.js; the reference's SettingSchemaPublic)
  'order-expiry-time',
  'start-pg-enabled',
  'start-pg-event-id',
  'analytics-key',
  'fb-client-id',
  'google-url',
  'weblate-url',
  'patreon-url',
  'gitter-url',
  'telegram-url',
  'android-app-url',
  'web-app-url',
  'rocket-chat-url',
  'cookie-policy',
  'cookie-policy-link',
  'is-paypal-activated',
  'is-stripe-activated',
  'is-omise-activated',
  'is-paytm-activated',
  'is-alipay-activated',
  'is-billing-paypal-activated',
  'stripe-mode',
  'stripe-client-id',
  'stripe-publishable-key',
  'stripe-test-client-id',
  'stripe-test-publishable-key',
  'paypal-mode',
  'paypal-client',
  'paypal-sandbox-client',
  'omise-mode',
  'omise-test-public',
  'omise-live-public',
  'alipay-publishable-key',
  'paytm-mode',
  'paytm-live-merchant',
  'paytm-sandbox-merchant',
  'admin-billing-contact-name',
  'admin-billing-phone',
  'admin-billing-email',
  'admin-billing-state',
  'admin-billing-country',
  'admin-billing-tax-info',
  'admin-company',
  'admin-billing-address',
  'admin-billing-city',
  'admin-billing-zip',
  'admin-billing-additional-info',
  'admin-billing-logo',
  'logo-size',
  'image-size',
  'slide-size',
];
const ADMIN_KEYS = [
  'storage-place',
  's3-endpoint',
  's3-bucket',
  's3-region',
  's3-access-key',
  's3-secret-key',
  'email-service',
  'email-from',
  'email-from-name',
  'smtp-host',
  'smtp-port',
  'smtp-username',
  'smtp-password',
  'smtp-encryption',
  'app-environment',
  'static-domain',
  'aws-key',
  'aws-secret',
  'aws-bucket-name',
  'aws-region',
  'gs-bucket-name',
  'gs-key',
  'gs-secret',
  'google-client-id',
  'google-client-secret',
  'fb-client-secret',
  'tw-consumer-key',
  'tw-consumer-secret',
  'in-client-id',
  'in-client-secret',
  'stripe-secret-key',
  'stripe-test-secret-key',
  'paypal-secret',
  'paypal-sandbox-secret',
  'omise-test-secret',
  'omise-live-secret',
  'alipay-secret-key',
  'paytm-live-secret',
  'paytm-sandbox-secret',
  'sendgrid-key',
  'rocket-chat-registration-secret',
  'is-google-recaptcha-enabled',
  'google-recaptcha-site',
  'google-recaptcha-secret',
  'invoice-sending-day',
  'invoice-sending-timezone',
  'admin-billing-paypal-email',
];
const FULL_KEYS = [...PUBLIC_KEYS, ...ADMIN_KEYS];

const PUBLIC_DEFAULTS: Record<string, unknown> = {
  'app-name': 'Open Event',
  tagline: null,
  'frontend-url': null,
  'support-url': null,
  'facebook-url': null,
  'twitter-url': null,
  'instagram-url': null,
  'github-url': null,
  'youtube-url': null,
  ...Object.fromEntries(PUBLIC_KEYS.slice(9).map((k) => [k, k.startsWith('is-') ? false : null])),
  'order-expiry-time': 15,
  'start-pg-enabled': 'default',
  'logo-size': 1000,
  'image-size': 10000,
  'slide-size': 20000,
};
const FULL_DEFAULTS: Record<string, unknown> = {
  ...PUBLIC_DEFAULTS,
  ...Object.fromEntries(ADMIN_KEYS.map((k) => [k, null])),
  'storage-place': 'local',
  'smtp-encryption': 'none',
  'app-environment': 'production',
  'is-google-recaptcha-enabled': false,
  'invoice-sending-day': 1,
  'invoice-sending-timezone': 'UTC',
};

const { app } = await buildTestApp(t);
const callers = {
  anonymous: undefined,
  user: (await seedUser(app)).token,
  admin: (await seedUser(app, { admin: true })).token,
  super: (await seedUser(app, { superAdmin: true })).token,
};
type Who = keyof typeof callers;
const STAFF: Who[] = ['admin', 'super'];
const OTHERS: Who[] = ['anonymous', 'user'];
const GETS = ['/v1/settings', '/v1/settings/1', '/v1/settings/77'];
const snapshot = snapshotOf(app, ['settings']);

/** The whole settings document a caller should get for those attributes. */
const documentWith = (attributes: Record<string, unknown>) => ({
  data: { type: 'setting', id: '1', attributes, links: { self: '/v1/settings/1' } },
  links: { self: '/v1/settings/1' },
  jsonapi: { version: '1.0' },
});
const limited = (full: Record<string, unknown>) => Object.fromEntries(PUBLIC_KEYS.map((k) => [k, full[k]]));

const patch = (who: Who, attributes: Record<string, unknown>, path = '1', id = path) =>
  call(app, {
    method: 'PATCH',
    url: `/v1/settings/${path}`,
    token: callers[who],
    body: { data: { type: 'setting', id, attributes } },
  });

t.test('defaults: staff get the full variant, everyone else the limited one, on every path', async (t) => {
  for (const url of GETS) {
    for (const who of [...OTHERS, ...STAFF]) {
      const res = await call(app, { url, token: callers[who] });
      assertDocument(t, res, 200);
      const staff = STAFF.includes(who);
      t.strictSame(
        Object.keys(res.body.data.attributes).sort(),
        (staff ? FULL_KEYS : PUBLIC_KEYS).slice().sort(),
        `${who} GET ${url}: keys`,
      );
      t.strictSame(
        res.body,
        documentWith(staff ? FULL_DEFAULTS : PUBLIC_DEFAULTS),
        `${who} GET ${url}: the whole document`,
      );
    }
  }
});

t.test('admins and super admins change the settings; every caller then reads the new values', async (t) => {
  let expected = { ...FULL_DEFAULTS };
  const changes: [Who, Record<string, unknown>][] = [
    [
      'admin',
      {
        'app-name': 'Eventyay',
        tagline: 'Events for all',
        'order-expiry-time': 30,
        'is-paypal-activated': true,
        'smtp-encryption': 'tls',
        'smtp-port': 587,
        'frontend-url': 'https://eventyay.example',
      },
    ],
    [
      'super',
      {
        'logo-size': 2000,
        'github-url': 'https://github.com/fossasia',
        'email-from-name': 'Eventyay',
        'email-from': 'noreply@eventyay.example',
        tagline: null,
      },
    ],
  ];
  for (const [who, attributes] of changes) {
    const res = await patch(who, attributes);
    expected = { ...expected, ...attributes };
    assertDocument(t, res, 200);
    t.strictSame(res.body, documentWith(expected), `${who}: PATCH answers the full variant with the change`);
    for (const reader of [...OTHERS, ...STAFF]) {
      const read = await call(app, { url: '/v1/settings', token: callers[reader] });
      const want = STAFF.includes(reader) ? expected : limited(expected);
      t.strictSame(read.body, documentWith(want), `after ${who}'s PATCH, ${reader} reads the new values`);
    }
  }
  const [row] =
    await app.sql`select app_name, order_expiry_time, is_paypal_activated, smtp_port, email_from from settings`;
  t.strictSame(
    { ...row },
    {
      app_name: 'Eventyay',
      order_expiry_time: 30,
      is_paypal_activated: true,
      smtp_port: 587,
      email_from: 'noreply@eventyay.example',
    },
    'stored in the one row',
  );
  t.equal((await app.sql`select count(*)::int as n from settings`)[0]!.n, 1, 'still exactly one row');
});

t.test('an empty attributes object changes nothing and answers the full variant', async (t) => {
  const before = await snapshot();
  const res = await patch('admin', {});
  assertDocument(t, res, 200);
  t.strictSame(Object.keys(res.body.data.attributes).sort(), FULL_KEYS.slice().sort());
  t.same(await snapshot(), before);
});

t.test('plain users (403) and anonymous callers (401) change nothing', async (t) => {
  const before = await snapshot();
  await expectRefused(
    t,
    [
      ['plain user', 'user' as Who, 403],
      ['anonymous', 'anonymous' as Who, 401],
    ],
    (who) => patch(who, { 'app-name': 'Hijacked', 'smtp-host': 'evil.example' }),
    snapshot,
    before,
  );
  const res = await patch('user', { 'app-name': 'Hijacked' });
  expectError(t, res, 403, { detail: 'Admin access is required' });
  // Refused before the body is validated: a non-admin learns nothing about what the settings accept.
  expectError(t, await patch('user', { 'no-such-field': 1, 'smtp-port': 'x' }), 403, {
    detail: 'Admin access is required',
  });
  expectError(t, await patch('anonymous', { 'no-such-field': 1 }), 401);
});

t.test('the id in the body against the id in the path', async (t) => {
  const ok1 = await patch('admin', { tagline: 'one' }, '1', '1');
  t.equal(ok1.status, 200, 'PATCH /v1/settings/1 with id 1');
  t.equal(ok1.body.data.id, '1');
  const ok5 = await patch('admin', { tagline: 'five' }, '5', '5');
  t.equal(ok5.status, 200, 'PATCH /v1/settings/5 with id 5');
  t.equal(ok5.body.data.id, '1', 'still record 1');
  t.equal(ok5.body.data.attributes.tagline, 'five');
  const ok7 = await patch('admin', { tagline: 'seven' }, '7', '1');
  t.equal(ok7.status, 200, 'PATCH /v1/settings/7 with id 1');
  t.strictSame(
    (await app.sql`select id, tagline from settings`).map((r) => ({ ...r })),
    [{ id: 1, tagline: 'seven' }],
  );
  const before = await snapshot();
  await expectRefused(
    t,
    [
      ['path 1, body id 2', ['1', '2'], 409, '/data/id'],
      ['path 5, body id 6', ['5', '6'], 409, '/data/id'],
    ],
    ([path, id]) => patch('admin', { tagline: 'conflict' }, path, id),
    snapshot,
    before,
  );
});

t.test('query parameters the settings do not support are refused, as on every other route', async (t) => {
  for (const who of ['anonymous', 'admin'] as Who[]) {
    expectError(t, await call(app, { url: '/v1/settings?foo=bar', token: callers[who] }), 400, { parameter: 'foo' });
    expectError(t, await call(app, { url: '/v1/settings/1?include=owner', token: callers[who] }), 400, {
      parameter: 'include',
    });
    const sparse = await call(app, { url: '/v1/settings?fields[setting]=app-name', token: callers[who] });
    // A sparse fieldset is either honoured or refused; never answered with every field.
    t.ok(
      sparse.status === 400 ||
        (sparse.status === 200 && Object.keys(sparse.body.data.attributes).join() === 'app-name'),
      `${who}: fields[setting]=app-name is honoured or refused (got ${sparse.status})`,
    );
  }
});

t.test('a list query (page, sort, filter) on the one settings record is accepted and changes nothing', async (t) => {
  for (const who of ['anonymous', 'admin'] as Who[]) {
    const plain = await call(app, { url: '/v1/settings', token: callers[who] });
    for (const url of [
      '/v1/settings?page[size]=10&page[number]=1&sort=app-name&filter=[]',
      '/v1/settings/1?sort=-app-name&page[size]=0',
    ]) {
      const res = await call(app, { url, token: callers[who] });
      t.equal(res.status, 200, `${who}: ${url}`);
      t.same(res.body.data, plain.body.data, `${who}: the same record`);
    }
    expectError(t, await call(app, { url: '/v1/settings?page[size]=-1', token: callers[who] }), 400, {
      parameter: 'page[size]',
    });
  }
});

t.test(
  'OpenAPI: SettingFull and SettingLimited, and the GET answers are anyOf them and SettingSparse (fields[setting])',
  async (t) => {
    const doc = app.swagger() as any;
    const schemas = doc.components.schemas;
    t.ok(schemas.SettingFull, 'SettingFull component');
    t.ok(schemas.SettingLimited, 'SettingLimited component');
    const deref = (s: { $ref?: string }) => (s.$ref ? schemas[s.$ref.replace('#/components/schemas/', '')] : s);
    for (const [path, op] of [
      ['/v1/settings', 'get'],
      ['/v1/settings/{id}', 'get'],
      ['/v1/settings/{id}', 'patch'],
    ] as const) {
      // The answer is declared once under components/responses, the operations reference it.
      const declared = doc.paths[path][op].responses['200'];
      const answer = declared.$ref ? doc.components.responses[declared.$ref.split('/').pop()] : declared;
      const response = answer.content['application/vnd.api+json'].schema;
      const document = deref(response);
      t.strictSame(
        document.properties.data.anyOf,
        [
          { $ref: '#/components/schemas/SettingFull' },
          { $ref: '#/components/schemas/SettingLimited' },
          { $ref: '#/components/schemas/SettingSparse' },
        ],
        `${op} ${path}: data is anyOf SettingFull, SettingLimited, SettingSparse`,
      );
    }
    // The full variant requires every attribute SettingAttributes (the sparse answer's) declares.
    const requirement = schemas.SettingFull.properties.attributes;
    t.strictSame(requirement.allOf, [{ $ref: '#/components/schemas/SettingAttributes' }]);
    t.strictSame(Object.keys(schemas.SettingAttributes.properties).sort(), FULL_KEYS.slice().sort());
    t.strictSame(requirement.required.slice().sort(), FULL_KEYS.slice().sort());
    t.strictSame(
      Object.keys(schemas.SettingLimited.properties.attributes.properties).sort(),
      PUBLIC_KEYS.slice().sort(),
    );

    const ajv = new Ajv({ strict: false, allErrors: true });
    (formats as unknown as typeof formats.default)(ajv);
    ajv.addSchema({ $id: 'openapi', components: doc.components });
    const validator = (name: string) => ajv.compile({ $ref: `openapi#/components/schemas/${name}` });
    const [full, lim, wholeDoc] = [validator('SettingFull'), validator('SettingLimited'), validator('SettingDocument')];
    const fullRes = await call(app, { url: '/v1/settings', token: callers.admin });
    const limRes = await call(app, { url: '/v1/settings', token: callers.user });
    t.ok(full(fullRes.body.data), `a full answer validates against SettingFull ${ajv.errorsText(full.errors)}`);
    t.notOk(lim(fullRes.body.data), 'a full answer does not validate against SettingLimited');
    t.ok(lim(limRes.body.data), `a limited answer validates against SettingLimited ${ajv.errorsText(lim.errors)}`);
    t.notOk(full(limRes.body.data), 'a limited answer does not validate against SettingFull');
    t.ok(wholeDoc(fullRes.body), 'the full document validates against SettingDocument (exactly one branch)');
    t.ok(wholeDoc(limRes.body), 'the limited document validates against SettingDocument (exactly one branch)');
  },
);
