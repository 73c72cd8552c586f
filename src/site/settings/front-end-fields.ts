/**
 * The settings the web front end's admin pages carry (open-event-frontend app/models/setting.js),
 * split as the reference splits them (open-event-server app/api/schema/settings.py): what the public
 * pages read (payment modes and publishable keys, links, sizes) and what only administrators see
 * (every secret: storage, OAuth, payment, mail, chat and captcha keys).
 */
import { Type, type TSchema } from '@sinclair/typebox';
import { Email, Nullable, Text, TimeZone, Url } from '../../jsonapi/index.js';
import { choice } from '../../resources/attributes.js';

const url = (description: string) => Nullable(Url({ description }));
const text = (description: string, maxLength = 255) => Nullable(Text(maxLength, { description }));
const secret = (description: string) =>
  Nullable(Text(255, { description: `${description}; secret, administrators only` }));
const mode = (values: string[], description: string) =>
  Type.Union([...values.map((v) => Type.Literal(v)), Type.Null()], { description });
const kilobytes = (description: string, fallback: number) =>
  Type.Integer({
    minimum: 1,
    maximum: 1_000_000,
    description: `largest ${description} upload in kilobytes (default ${fallback})`,
  });

export const SMTP_PORT = 'default 465 with ssl, 587 otherwise';

/** The S3 members of the full variant; the front end's `aws-*` names are aliases of them. */
export const ADMIN_S3: Record<string, TSchema> = {
  's3-bucket': Nullable(Type.String({ pattern: '^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$', description: 'bucket name' })),
  's3-region': Nullable(Text(64)),
  's3-access-key': Nullable(Text(255)),
  's3-secret-key': Nullable(Text(255, { description: 'secret; administrators only' })),
};

/** The front end's names of the S3 settings -> ours: one value, readable and writable under both names. */
export const ALIASES: Record<string, string> = {
  'aws-key': 's3-access-key',
  'aws-secret': 's3-secret-key',
  'aws-bucket-name': 's3-bucket',
  'aws-region': 's3-region',
};

export const FRONT_END_PUBLIC_FIELDS: Record<string, TSchema> = {
  'order-expiry-time': Type.Integer({
    minimum: 1,
    maximum: 60,
    description: 'minutes an unpaid order holds its tickets (default 15)',
  }),
  'start-pg-enabled': choice(['default', 'event'], 'the start page: the default one, or the event start-pg-event-id'),
  'start-pg-event-id': text('identifier of the event shown as the start page'),
  'analytics-key': text('Google Analytics key'),
  'fb-client-id': text('Facebook login client id'),
  'google-url': url('the site on Google'),
  'weblate-url': url('translations'),
  'patreon-url': url('the site on Patreon'),
  'gitter-url': url('the site on Gitter'),
  'telegram-url': url('the site on Telegram'),
  'android-app-url': url('the Android app generator'),
  'web-app-url': url('the web app generator'),
  'rocket-chat-url': url('the Rocket.Chat server of event chats'),
  'cookie-policy': text('the cookie notice text', 10_000),
  'cookie-policy-link': url('the full cookie policy'),
  'is-paypal-activated': Type.Boolean({ description: 'PayPal payments offered' }),
  'is-stripe-activated': Type.Boolean({ description: 'Stripe payments offered' }),
  'is-omise-activated': Type.Boolean({ description: 'Omise payments offered' }),
  'is-paytm-activated': Type.Boolean({ description: 'Paytm payments offered' }),
  'is-alipay-activated': Type.Boolean({ description: 'Alipay payments offered' }),
  'is-billing-paypal-activated': Type.Boolean({ description: 'organizers pay the platform fees through PayPal' }),
  'stripe-mode': mode(['debug', 'production'], 'debug: the stripe-test-* keys; production: the others'),
  'stripe-client-id': text('Stripe Connect client id'),
  'stripe-publishable-key': text('Stripe publishable key'),
  'stripe-test-client-id': text('Stripe Connect client id in debug mode'),
  'stripe-test-publishable-key': text('Stripe publishable key in debug mode'),
  'paypal-mode': mode(['sandbox', 'live'], 'sandbox: the paypal-sandbox-* credentials; live: the others'),
  'paypal-client': text('PayPal client id'),
  'paypal-sandbox-client': text('PayPal sandbox client id'),
  'omise-mode': mode(['test', 'live'], 'test: the omise-test-* keys; live: the others'),
  'omise-test-public': text('Omise public test key'),
  'omise-live-public': text('Omise public live key'),
  'alipay-publishable-key': text('Alipay publishable key'),
  'paytm-mode': mode(['test', 'live'], 'test: the paytm-sandbox-* credentials; live: the others'),
  'paytm-live-merchant': text('Paytm merchant id'),
  'paytm-sandbox-merchant': text('Paytm sandbox merchant id'),
  'admin-billing-contact-name': text("the platform's billing contact, on invoices to organizers"),
  'admin-billing-phone': text("the platform's billing phone", 64),
  'admin-billing-email': Nullable(Email({ description: "the platform's billing address" })),
  'admin-billing-state': text("the platform's billing state"),
  'admin-billing-country': text("the platform's billing country"),
  'admin-billing-tax-info': text("the platform's tax number", 1000),
  'admin-company': text("the platform's company"),
  'admin-billing-address': text("the platform's billing address", 1000),
  'admin-billing-city': text("the platform's billing city"),
  'admin-billing-zip': text("the platform's billing postal code", 64),
  'admin-billing-additional-info': text('anything else invoices to organizers say', 10_000),
  'admin-billing-logo': url('the logo on invoices to organizers'),
  'logo-size': kilobytes('event logo', 1000),
  'image-size': kilobytes('image', 10000),
  'slide-size': kilobytes('slides', 20000),
};

export const FRONT_END_ADMIN_FIELDS: Record<string, TSchema> = {
  'app-environment': choice(['development', 'staging', 'production'], 'the deployment stage (default production)'),
  'static-domain': text('the domain static files are served from'),
  'gs-bucket-name': Nullable(
    Type.String({ pattern: '^[a-z0-9][a-z0-9._-]{1,220}[a-z0-9]$', description: 'Google Cloud Storage bucket' }),
  ),
  'gs-key': text('Google Cloud Storage interoperable (HMAC) access key'),
  'gs-secret': secret('Google Cloud Storage interoperable (HMAC) secret'),
  'google-client-id': text('Google login client id'),
  'google-client-secret': secret('Google login client secret'),
  'fb-client-secret': secret('Facebook login client secret'),
  'tw-consumer-key': text('Twitter login consumer key'),
  'tw-consumer-secret': secret('Twitter login consumer secret'),
  'in-client-id': text('Instagram login client id'),
  'in-client-secret': secret('Instagram login client secret'),
  'stripe-secret-key': secret('Stripe secret key'),
  'stripe-test-secret-key': secret('Stripe secret key in debug mode'),
  'paypal-secret': secret('PayPal secret'),
  'paypal-sandbox-secret': secret('PayPal sandbox secret'),
  'omise-test-secret': secret('Omise secret test key'),
  'omise-live-secret': secret('Omise secret live key'),
  'alipay-secret-key': secret('Alipay secret key'),
  'paytm-live-secret': secret('Paytm merchant key'),
  'paytm-sandbox-secret': secret('Paytm sandbox merchant key'),
  'sendgrid-key': secret('SendGrid API key (email-service sendgrid)'),
  'rocket-chat-registration-secret': secret('shared secret for registering users on Rocket.Chat'),
  'is-google-recaptcha-enabled': Type.Boolean({ description: 'reCAPTCHA on the forms that offer it' }),
  'google-recaptcha-site': text('reCAPTCHA site key'),
  'google-recaptcha-secret': secret('reCAPTCHA secret key'),
  'invoice-sending-day': Type.Integer({
    minimum: 1,
    maximum: 28,
    description: 'day of the month invoices to organizers go out (default 1)',
  }),
  'invoice-sending-timezone': TimeZone({ description: 'time zone of invoice-sending-day (default UTC)' }),
  'admin-billing-paypal-email': Nullable(
    Email({ description: 'the PayPal account organizers pay the platform fees to' }),
  ),
};
