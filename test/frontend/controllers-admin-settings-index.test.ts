/**
 * open-event-frontend app/controllers/admin/settings/index.js:9 `settings.save()`: the admin settings
 * pages (app/routes/admin/settings.js: `queryRecord('setting', {})`, with the admin's token) save the
 * whole record, every attribute of app/models/setting.js as ember-data's transforms serialize it (a
 * string attribute `String(value)`, so the port goes out as "2525"; a number `Number(value)`; a
 * boolean `Boolean(value)`). The boot read (app/services/settings.js, `public: true`: no token) never
 * carries an administrator member.
 */
import t from 'tap';
import { buildTestApp } from '../helpers/app.js';
import { frontEnd, listening } from '../helpers/front-end-client.js';
import { seedUser } from '../helpers/users.js';

/** app/models/setting.js:11-112, in model order: [attribute, s(tring) | n(umber) | b(oolean)]. */
const SETTING_ATTRIBUTES: [string, 's' | 'n' | 'b'][] = [
  ['app-environment', 's'],
  ['app-name', 's'],
  ['order-expiry-time', 'n'],
  ['tagline', 's'],
  ['storage-place', 's'],
  ['aws-key', 's'],
  ['aws-secret', 's'],
  ['aws-bucket-name', 's'],
  ['aws-region', 's'],
  ['gs-key', 's'],
  ['gs-secret', 's'],
  ['gs-bucket-name', 's'],
  ['google-client-id', 's'],
  ['google-client-secret', 's'],
  ['fb-client-id', 's'],
  ['fb-client-secret', 's'],
  ['tw-consumer-key', 's'],
  ['tw-consumer-secret', 's'],
  ['in-client-id', 's'],
  ['start-pg-event-id', 's'],
  ['in-client-secret', 's'],
  ['paypal-mode', 's'],
  ['paypal-client', 's'],
  ['paypal-secret', 's'],
  ['paypal-sandbox-client', 's'],
  ['paypal-sandbox-secret', 's'],
  ['alipay-secret-key', 's'],
  ['alipay-publishable-key', 's'],
  ['omise-mode', 's'],
  ['omise-test-public', 's'],
  ['omise-test-secret', 's'],
  ['omise-live-public', 's'],
  ['omise-live-secret', 's'],
  ['paytm-mode', 's'],
  ['paytm-live-merchant', 's'],
  ['paytm-live-secret', 's'],
  ['paytm-sandbox-merchant', 's'],
  ['paytm-sandbox-secret', 's'],
  ['stripe-client-id', 's'],
  ['stripe-secret-key', 's'],
  ['stripe-publishable-key', 's'],
  ['stripe-test-client-id', 's'],
  ['stripe-test-secret-key', 's'],
  ['stripe-test-publishable-key', 's'],
  ['stripe-mode', 's'],
  ['is-alipay-activated', 'b'],
  ['is-paypal-activated', 'b'],
  ['is-stripe-activated', 'b'],
  ['is-omise-activated', 'b'],
  ['is-paytm-activated', 'b'],
  ['is-billing-paypal-activated', 'b'],
  ['email-service', 's'],
  ['email-from', 's'],
  ['email-from-name', 's'],
  ['sendgrid-key', 's'],
  ['smtp-host', 's'],
  ['smtp-username', 's'],
  ['smtp-password', 's'],
  ['smtp-port', 's'],
  ['smtp-encryption', 's'],
  ['analytics-key', 's'],
  ['google-url', 's'],
  ['github-url', 's'],
  ['twitter-url', 's'],
  ['support-url', 's'],
  ['facebook-url', 's'],
  ['instagram-url', 's'],
  ['weblate-url', 's'],
  ['patreon-url', 's'],
  ['gitter-url', 's'],
  ['telegram-url', 's'],
  ['youtube-url', 's'],
  ['android-app-url', 's'],
  ['frontend-url', 's'],
  ['web-app-url', 's'],
  ['rocket-chat-url', 's'],
  ['rocket-chat-registration-secret', 's'],
  ['static-domain', 's'],
  ['cookie-policy', 's'],
  ['cookie-policy-link', 's'],
  ['invoice-sending-day', 'n'],
  ['invoice-sending-timezone', 's'],
  ['admin-billing-contact-name', 's'],
  ['admin-billing-phone', 's'],
  ['admin-billing-email', 's'],
  ['admin-billing-state', 's'],
  ['admin-billing-country', 's'],
  ['admin-billing-tax-info', 's'],
  ['admin-company', 's'],
  ['admin-billing-address', 's'],
  ['admin-billing-city', 's'],
  ['admin-billing-zip', 's'],
  ['admin-billing-additional-info', 's'],
  ['admin-billing-paypal-email', 's'],
  ['admin-billing-logo', 's'],
  ['is-google-recaptcha-enabled', 'b'],
  ['start-pg-enabled', 's'],
  ['google-recaptcha-site', 's'],
  ['google-recaptcha-secret', 's'],
  ['logo-size', 'n'],
  ['image-size', 'n'],
  ['slide-size', 'n'],
];

const { app } = await buildTestApp(t);
const apiHost = await listening(app);
const admin = frontEnd(apiHost, (await seedUser(app, { admin: true })).token);
const boot = () => frontEnd(apiHost).adapter('GET', '/v1/settings', { query: { cache: true, public: true } });

/** ember-data's string, number and boolean transforms (serialize). */
const serialize = (type: 's' | 'n' | 'b', value: unknown) => {
  if (type === 'b') return Boolean(value);
  if (value === null || value === undefined) return null;
  if (type === 's') return String(value);
  return value === '' ? null : Number(value);
};
/** `settings.save()` after the admin pages changed `changes` (form inputs hold strings). */
async function adminSave(changes: Record<string, unknown>) {
  const read = (await admin.adapter('GET', '/v1/settings')).body.data.attributes as Record<string, unknown>;
  const attributes = Object.fromEntries(
    SETTING_ATTRIBUTES.map(([name, type]) => [name, serialize(type, name in changes ? changes[name] : read[name])]),
  );
  return admin.adapter('PATCH', '/v1/settings/1', { body: { data: { type: 'setting', id: '1', attributes } } });
}

const CHANGES: Record<string, unknown> = {
  'app-environment': 'staging',
  'order-expiry-time': '30',
  'start-pg-enabled': 'event',
  'start-pg-event-id': 'b8324ae2',
  'email-service': 'smtp',
  'smtp-host': 'smtp.example.org',
  'smtp-port': '2525',
  'smtp-encryption': 'tls-optional',
  'smtp-username': 'mailer',
  'smtp-password': 'smtp-secret-value',
  'storage-place': 's3',
  'aws-key': 'AKIAFRONTEND',
  'aws-secret': 'aws-secret-value',
  'aws-bucket-name': 'eventyay-media',
  'aws-region': 'eu-central-1',
  'stripe-mode': 'debug',
  'stripe-test-publishable-key': 'pk_test_123',
  'stripe-test-secret-key': 'sk_test_secret_value',
  'is-stripe-activated': true,
  'paypal-mode': 'sandbox',
  'paypal-sandbox-client': 'sandbox-client',
  'paypal-sandbox-secret': 'paypal-secret-value',
  'is-paypal-activated': true,
  'invoice-sending-day': '2',
  'invoice-sending-timezone': 'Europe/Berlin',
  'admin-billing-email': 'billing@eventyay.example',
  'admin-billing-paypal-email': 'fees@eventyay.example',
  'is-google-recaptcha-enabled': true,
  'google-recaptcha-site': 'site-key',
  'google-recaptcha-secret': 'recaptcha-secret-value',
  'sendgrid-key': 'sendgrid-secret-value',
  'cookie-policy': 'We use cookies.',
  'cookie-policy-link': 'https://eventyay.example/cookies',
  'logo-size': '2000',
};
const SECRET_VALUES = Object.entries(CHANGES)
  .filter(([k]) => /secret|password|sendgrid|aws-key|paypal-email/.test(k))
  .map(([, v]) => String(v));

t.test('the boot read answers every public member the front end reads, and no administrator one', async (t) => {
  const res = await boot();
  t.equal(res.status, 200);
  const attributes = res.body.data.attributes;
  for (const name of [
    'app-name',
    'order-expiry-time',
    'start-pg-enabled',
    'is-stripe-activated',
    'stripe-mode',
    'paypal-mode',
    'logo-size',
    'cookie-policy-link',
  ]) {
    t.ok(name in attributes, `${name} at boot`);
  }
  for (const name of [
    'aws-secret',
    'smtp-password',
    'sendgrid-key',
    'email-service',
    'google-recaptcha-secret',
    'stripe-secret-key',
  ]) {
    t.notOk(name in attributes, `no ${name} at boot`);
  }
});

t.test('the admin settings save, every attribute of the model: 200, stored, read back', async (t) => {
  const res = await adminSave(CHANGES);
  t.equal(res.status, 200, JSON.stringify(res.body?.errors ?? []));
  const attributes = res.body.data.attributes;
  t.match(attributes, {
    ...CHANGES,
    'order-expiry-time': 30,
    'smtp-port': 2525,
    'invoice-sending-day': 2,
    'logo-size': 2000,
    's3-access-key': 'AKIAFRONTEND',
    's3-bucket': 'eventyay-media',
  });
  const [row] =
    await app.sql`select smtp_port, s3_access_key, s3_secret_key, s3_bucket, s3_region, app_environment, invoice_sending_timezone from settings`;
  t.strictSame(
    { ...row },
    {
      smtp_port: 2525,
      s3_access_key: 'AKIAFRONTEND',
      s3_secret_key: 'aws-secret-value',
      s3_bucket: 'eventyay-media',
      s3_region: 'eu-central-1',
      app_environment: 'staging',
      invoice_sending_timezone: 'Europe/Berlin',
    },
    'stored once, the port as a number',
  );
});

t.test('saving again unchanged (the port read back and sent as "2525"): 200, nothing changes', async (t) => {
  const before = await app.sql`select * from settings`;
  const res = await adminSave({});
  t.equal(res.status, 200, JSON.stringify(res.body?.errors ?? []));
  t.same(await app.sql`select * from settings`, before);
});

t.test('after the save the boot read shows the public choices and none of the secrets', async (t) => {
  const res = await boot();
  t.match(res.body.data.attributes, {
    'stripe-mode': 'debug',
    'is-stripe-activated': true,
    'stripe-test-publishable-key': 'pk_test_123',
    'start-pg-enabled': 'event',
  });
  const text = JSON.stringify(res.body);
  t.strictSame(
    SECRET_VALUES.filter((v) => text.includes(v)),
    [],
    'no secret value',
  );
});

t.test('a save the admin pages cannot make valid: one bad member refuses the whole save', async (t) => {
  const before = await app.sql`select * from settings`;
  const res = await adminSave({ 'smtp-port': '70000', 'app-name': 'Changed' });
  t.equal(res.status, 422);
  t.equal(res.body.errors[0].source.pointer, '/data/attributes/smtp-port');
  const incomplete = await adminSave({ 'aws-secret': '', 'app-name': 'Changed' });
  t.equal(incomplete.status, 422, 's3 without its secret');
  t.equal(incomplete.body.errors[0].source.pointer, '/data/attributes/aws-secret', 'named as the front end names it');
  t.same(await app.sql`select * from settings`, before, 'nothing written');
});
