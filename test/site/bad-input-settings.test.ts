/**
 * Bad input to PATCH /v1/settings/{id}, sent by an administrator so only validation decides: each
 * answer is a 4xx error document with the expected status and source, never a 500, and the settings
 * row is unchanged. Then valid S3 and SMTP configurations are accepted, and a change that would
 * leave them incomplete is refused against the stored values.
 */
import t from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import { expectRefused, snapshotOf, type RefusedCase } from '../helpers/events.js';
import { seedUser } from '../helpers/users.js';

const { app } = await buildTestApp(t);
const admin = await seedUser(app, { admin: true });
const snapshot = snapshotOf(app, ['settings']);

const at = (name: string) => `/data/attributes/${name}`;
/** A PATCH body (a string is sent as is) with these headers. */
const send = (body: unknown, headers: Record<string, string> = {}, path = '1') =>
  call(app, { method: 'PATCH', url: `/v1/settings/${path}`, token: admin.token, body, headers });
const withAttributes = (attributes: Record<string, unknown>) => ({ data: { type: 'setting', id: '1', attributes } });

/** [attribute, value, what]: refused with 422 pointing at the attribute. */
const WRONG: [string, unknown, string][] = [
  // unknown attributes
  ['favourite-colour', 'red', 'an unknown attribute'],
  ['id', '1', 'id among the attributes'],
  ['smtpPassword', 'x', 'a column name instead of the wire name'],
  // wrong types, per kind of field
  ['app-name', 42, 'a number for a string'],
  ['tagline', true, 'a boolean for a nullable string'],
  ['s3-region', {}, 'an object for a string'],
  ['smtp-username', ['a'], 'an array for a string'],
  ['frontend-url', 42, 'a number for a URL'],
  ['order-expiry-time', true, 'a boolean for an integer'],
  ['is-paypal-activated', 1, 'a number for a boolean'],
  ['smtp-port', ' 587', 'a port string with a blank'],
  ['smtp-port', '0', 'a port string 0'],
  ['smtp-port', '65536', 'a port string 65536'],
  ['smtp-port', '025', 'a port string with a leading zero'],
  ['smtp-port', '25.5', 'a fractional port string'],
  ['smtp-port', 'smtp', 'a port name'],
  ['storage-place', 1, 'a number for an enum'],
  ['smtp-encryption', true, 'a boolean for an enum'],
  ['email-service', 0, 'a number for the nullable enum'],
  // null where no null is allowed
  ['app-name', null, 'app-name cleared'],
  ['is-paypal-activated', null, 'is-paypal-activated cleared'],
  ['storage-place', null, 'storage-place cleared'],
  ['smtp-encryption', null, 'smtp-encryption cleared'],
  // ranges and lengths
  ['app-name', '', 'an empty app-name'],
  ['app-name', 'a'.repeat(256), 'app-name over 255'],
  ['tagline', 't'.repeat(256), 'tagline over 255'],
  ['order-expiry-time', 1.5, 'a fractional order expiry'],
  ['smtp-port', 0, 'port 0'],
  ['smtp-port', 65_536, 'port 65536'],
  ['smtp-port', 25.5, 'a fractional port'],
  // values outside the choices
  ['storage-place', 'ftp', 'storage-place ftp'],
  ['storage-place', 'S3', 'storage-place in capitals'],
  ['smtp-encryption', 'starttls', 'smtp-encryption starttls'],
  ['email-service', 'mailgun', 'email-service mailgun'],
  ['email-service', 'SMTP', 'email-service in capitals'],
  ['storage-place', 'azure', 'storage-place azure'],
  ['smtp-encryption', 'starttls-required', 'an unknown smtp-encryption'],
  // the web front end's settings (open-event-frontend app/models/setting.js)
  ['order-expiry-time', 0, 'order-expiry-time 0'],
  ['order-expiry-time', 61, 'order-expiry-time over an hour'],
  ['order-expiry-time', null, 'order-expiry-time cleared'],
  ['order-expiry-time', '15', 'a numeric string for order-expiry-time'],
  ['invoice-sending-day', 29, 'invoice-sending-day 29'],
  ['invoice-sending-day', 0, 'invoice-sending-day 0'],
  ['invoice-sending-timezone', 'Mars/Olympus', 'an unknown time zone'],
  ['invoice-sending-timezone', null, 'invoice-sending-timezone cleared'],
  ['app-environment', 'prod', 'an unknown app-environment'],
  ['app-environment', null, 'app-environment cleared'],
  ['start-pg-enabled', 'yes', 'an unknown start-pg-enabled'],
  ['stripe-mode', 'live', 'stripe-mode live (debug or production)'],
  ['paypal-mode', 'test', 'paypal-mode test (sandbox or live)'],
  ['omise-mode', 'sandbox', 'omise-mode sandbox'],
  ['paytm-mode', 1, 'a number for paytm-mode'],
  ['is-paypal-activated', 'true', 'a string for a payment flag'],
  ['is-google-recaptcha-enabled', null, 'is-google-recaptcha-enabled cleared'],
  ['logo-size', 0, 'logo-size 0'],
  ['slide-size', 1.5, 'a fractional slide-size'],
  ['image-size', null, 'image-size cleared'],
  ['admin-billing-email', 'billing', 'an admin-billing-email without @'],
  ['admin-billing-paypal-email', 'a@b', 'an admin-billing-paypal-email without a domain'],
  ['google-url', 'ftp://google.example', 'an ftp google-url'],
  ['admin-billing-logo', 'logo.png', 'a relative admin-billing-logo'],
  ['cookie-policy', 'c'.repeat(10_001), 'cookie-policy over 10000'],
  ['sendgrid-key', 'k'.repeat(256), 'sendgrid-key over 255'],
  ['stripe-secret-key', 42, 'a number for a secret'],
  ['aws-bucket-name', 'Bad_Bucket', 'an aws-bucket-name with capitals'],
  ['gs-bucket-name', 'G', 'a one-letter gs-bucket-name'],
  ['aws-region', 'r'.repeat(65), 'aws-region over 64'],
  ['email-service', '', 'an empty email-service'],
  // formats
  ['email-from', 'not-an-email', 'an email-from without @'],
  ['email-from', 'a@b', 'an email-from without a domain'],
  ['email-from', 'a@example.com\r\nBcc: x@example.com', 'an email-from with a header injected'],
  ['s3-bucket', 'Bad_Bucket', 'a bucket with capitals and underscore'],
  ['s3-bucket', 'ab', 'a bucket of two characters'],
  ['s3-bucket', 'b'.repeat(64), 'a bucket of 64 characters'],
  ['smtp-host', 'bad host', 'a host with a blank'],
  ['smtp-host', 'mail.example.com;rm -rf', 'a host with shell characters'],
  ['frontend-url', 'ftp://example.com', 'an ftp URL'],
  ['support-url', 'javascript:alert(1)', 'a javascript: URL'],
  ['facebook-url', 'not a url', 'not a URL'],
  ['twitter-url', '//twitter.com/x', 'a scheme-relative URL'],
  ['s3-endpoint', 'file:///etc/passwd', 'a file: endpoint'],
  ['github-url', `https://example.com/${'x'.repeat(2048)}`, 'a URL over 2048 characters'],
  // PostgreSQL's text cannot hold NUL (found by the contract fuzzer: it answered 500)
  ['paypal-client', '\u0000', 'a NUL character'],
  ['app-name', 'Open\u0000Event', 'a NUL character inside'],
];

/** Settings a service cannot run with, refused with 422 at the first missing field. */
const INCOMPLETE: [Record<string, unknown>, string, string][] = [
  [{ 'storage-place': 's3' }, 's3-bucket', 's3 without bucket or keys'],
  [{ 'storage-place': 's3', 's3-bucket': 'media-bucket' }, 's3-access-key', 's3 without keys'],
  [
    { 'storage-place': 's3', 's3-bucket': 'media-bucket', 's3-access-key': 'AKIA' },
    's3-secret-key',
    's3 without the secret',
  ],
  [
    { 'storage-place': 's3', 's3-bucket': 'media-bucket', 's3-access-key': '', 's3-secret-key': 'k' },
    's3-access-key',
    's3 with an empty key',
  ],
  [{ 'email-service': 'smtp' }, 'smtp-host', 'smtp without a host'],
  [{ 'email-service': 'smtp', 'smtp-host': null, 'smtp-port': 25 }, 'smtp-host', 'smtp with the host cleared'],
  [
    { 'storage-place': 's3', 'aws-bucket-name': 'media-bucket', 'aws-secret': 's' },
    'aws-key',
    's3 under the aws-* names without the key',
  ],
  [{ 'storage-place': 'gs' }, 'gs-bucket-name', 'gs without bucket or keys'],
  [{ 'storage-place': 'gs', 'gs-bucket-name': 'media', 'gs-key': 'GOOG1E' }, 'gs-secret', 'gs without the secret'],
  [{ 'email-service': 'sendgrid' }, 'sendgrid-key', 'sendgrid without a key'],
  [{ 'email-service': 'sendgrid', 'sendgrid-key': '' }, 'sendgrid-key', 'sendgrid with an empty key'],
  [{ 's3-access-key': 'AKIA1', 'aws-key': 'AKIA2' }, 'aws-key', 'one setting under both names with two values'],
];

t.test('bad attribute values: 422 at the attribute, nothing written', async (t) => {
  const cases: RefusedCase<unknown>[] = [
    ...WRONG.map(
      ([name, value, what]): RefusedCase<unknown> => [
        `${name}: ${what}`,
        withAttributes({ [name]: value }),
        422,
        at(name),
      ],
    ),
    ...INCOMPLETE.map(
      ([attributes, missing, what]): RefusedCase<unknown> => [what, withAttributes(attributes), 422, at(missing)],
    ),
  ];
  await expectRefused(t, cases, (body) => send(body), snapshot, await snapshot());
});

t.test('bad documents: the right status and pointer, nothing written', async (t) => {
  const cases: RefusedCase<unknown>[] = [
    ['missing data', {}, 422, '/data'],
    ['data null', { data: null }, 422, '/data'],
    ['data an array', { data: [{ type: 'setting', id: '1', attributes: {} }] }, 422, '/data'],
    ['missing type', { data: { id: '1', attributes: { tagline: 'x' } } }, 422, '/data/type'],
    ['type settings', { data: { type: 'settings', id: '1', attributes: { tagline: 'x' } } }, 409, '/data/type'],
    ['type page', { data: { type: 'page', id: '1', attributes: { tagline: 'x' } } }, 409, '/data/type'],
    ['missing id', { data: { type: 'setting', attributes: { tagline: 'x' } } }, 422, '/data/id'],
    ['a numeric id', { data: { type: 'setting', id: 1, attributes: { tagline: 'x' } } }, 422, '/data/id'],
    ['another id', { data: { type: 'setting', id: '2', attributes: { tagline: 'x' } } }, 409, '/data/id'],
    ['attributes not an object', { data: { type: 'setting', id: '1', attributes: 'x' } }, 422, '/data/attributes'],
    [
      'client-sent relationships',
      {
        data: {
          type: 'setting',
          id: '1',
          attributes: { tagline: 'x' },
          relationships: { owner: { data: { type: 'user', id: admin.id } } },
        },
      },
      422,
      '/data/relationships',
    ],
    [
      'an unknown data member',
      { data: { type: 'setting', id: '1', attributes: { tagline: 'x' }, secret: 1 } },
      422,
      '/data/secret',
    ],
    ['malformed JSON', '{"data": {"type": "setting",', 400],
    ['an empty body', '', 400],
    ['a JSON string', '"settings"', 422, ''],
  ];
  await expectRefused(t, cases, (body) => send(body), snapshot, await snapshot());
});

t.test('wrong content types: 415, nothing written', async (t) => {
  const body = JSON.stringify(withAttributes({ tagline: 'x' }));
  const cases: RefusedCase<string>[] = [
    ['application/json', 'application/json', 415],
    ['a media type parameter', 'application/vnd.api+json; charset=utf-8', 415],
    ['text/plain', 'text/plain', 415],
    ['form data', 'application/x-www-form-urlencoded', 415],
  ];
  await expectRefused(t, cases, (type) => send(body, { 'content-type': type }), snapshot, await snapshot());
});

t.test('a complete S3 configuration is accepted; removing a part of it later is refused', async (t) => {
  const s3 = {
    'storage-place': 's3',
    's3-endpoint': 'https://s3.eu-central-1.example.com',
    's3-bucket': 'open-event-media',
    's3-region': 'eu-central-1',
    's3-access-key': 'AKIAEXAMPLE',
    's3-secret-key': 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  };
  const res = await send(withAttributes(s3), {}, '1');
  t.equal(res.status, 200, `accepted: ${JSON.stringify(res.body?.errors ?? [])}`);
  t.match(res.body.data.attributes, s3, 'answered');
  const [row] =
    await app.sql`select storage_place, s3_endpoint, s3_bucket, s3_region, s3_access_key, s3_secret_key from settings`;
  t.strictSame(
    { ...row },
    {
      storage_place: 's3',
      s3_endpoint: s3['s3-endpoint'],
      s3_bucket: s3['s3-bucket'],
      s3_region: s3['s3-region'],
      s3_access_key: s3['s3-access-key'],
      s3_secret_key: s3['s3-secret-key'],
    },
    'stored',
  );
  const cases: RefusedCase<Record<string, unknown>>[] = [
    ['the secret cleared', { 's3-secret-key': null }, 422, at('s3-secret-key')],
    ['the bucket cleared', { 's3-bucket': null }, 422, at('s3-bucket')],
    ['the access key emptied', { 's3-access-key': '' }, 422, at('s3-access-key')],
  ];
  await expectRefused(t, cases, (attributes) => send(withAttributes(attributes)), snapshot, await snapshot());
  const back = await send(withAttributes({ 'storage-place': 'local', 's3-secret-key': null }));
  t.equal(back.status, 200, 'back to local storage, the secret may go');
  t.match(back.body.data.attributes, { 'storage-place': 'local', 's3-secret-key': null });
});

t.test('a complete SMTP configuration is accepted; clearing its host later is refused', async (t) => {
  const smtp = {
    'email-service': 'smtp',
    'smtp-host': 'mail.example.com',
    'smtp-port': 465,
    'smtp-encryption': 'ssl',
    'smtp-username': 'mailer',
    'smtp-password': 'p4ss',
    'email-from': '  events@example.com ',
    'email-from-name': 'Open Event',
  };
  const res = await send(withAttributes(smtp));
  t.equal(res.status, 200, `accepted: ${JSON.stringify(res.body?.errors ?? [])}`);
  t.match(res.body.data.attributes, { ...smtp, 'email-from': 'events@example.com' }, 'answered, the address trimmed');
  t.equal((await app.sql`select email_from from settings`)[0]!.email_from, 'events@example.com', 'stored trimmed');
  await expectRefused(
    t,
    [['the host cleared', { 'smtp-host': null }, 422, at('smtp-host')]],
    (attributes) => send(withAttributes(attributes)),
    snapshot,
    await snapshot(),
  );
});

t.test(
  'the port as the web front end sends it: a decimal string, "" for none; stored and answered as an integer',
  async (t) => {
    for (const [sent, stored] of [
      ['2525', 2525],
      [587, 587],
      ['65535', 65535],
      ['1', 1],
      ['', null],
      [null, null],
    ] as const) {
      const res = await send(withAttributes({ 'smtp-port': sent }));
      t.equal(res.status, 200, `${JSON.stringify(sent)} accepted`);
      t.equal(res.body.data.attributes['smtp-port'], stored, `${JSON.stringify(sent)} answered as ${stored}`);
      t.equal(
        (await app.sql`select smtp_port from settings`)[0]!.smtp_port,
        stored,
        `${JSON.stringify(sent)} stored as ${stored}`,
      );
    }
  },
);

t.test('aws-* and s3-* name one setting each; gs and sendgrid configurations are accepted when complete', async (t) => {
  const aws = {
    'storage-place': 's3',
    'aws-key': 'AKIAFE',
    'aws-secret': 'fe-secret',
    'aws-bucket-name': 'fe-bucket',
    'aws-region': 'eu-west-1',
  };
  const res = await send(withAttributes({ ...aws, 's3-region': 'eu-west-1' }));
  t.equal(res.status, 200, `accepted: ${JSON.stringify(res.body?.errors ?? [])}`);
  t.match(
    res.body.data.attributes,
    {
      ...aws,
      's3-access-key': 'AKIAFE',
      's3-secret-key': 'fe-secret',
      's3-bucket': 'fe-bucket',
      's3-region': 'eu-west-1',
    },
    'both names answer the value',
  );
  const [row] = await app.sql`select s3_access_key, s3_secret_key, s3_bucket, s3_region from settings`;
  t.strictSame(
    { ...row },
    { s3_access_key: 'AKIAFE', s3_secret_key: 'fe-secret', s3_bucket: 'fe-bucket', s3_region: 'eu-west-1' },
    'stored once',
  );
  const gs = {
    'storage-place': 'gs',
    'gs-bucket-name': 'fe-media',
    'gs-key': 'GOOG1EXAMPLE',
    'gs-secret': 'gs-secret',
  };
  t.equal((await send(withAttributes(gs))).status, 200, 'a complete gs configuration');
  const sendgrid = { 'email-service': 'sendgrid', 'sendgrid-key': 'SG.example' };
  t.equal((await send(withAttributes(sendgrid))).status, 200, 'a complete sendgrid configuration');
  for (const encryption of ['tls', 'tls-optional', 'ssl', 'no-encryption', 'none']) {
    const back = await send(withAttributes({ 'smtp-encryption': encryption }));
    t.equal(back.body.data.attributes['smtp-encryption'], encryption, `smtp-encryption ${encryption} kept as sent`);
  }
  const disabled = await send(withAttributes({ 'email-service': 'disable', 'storage-place': 'local' }));
  t.match(disabled.body.data.attributes, { 'email-service': 'disable', 'storage-place': 'local' });
});
