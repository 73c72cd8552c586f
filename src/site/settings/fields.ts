import { Type, type TSchema } from '@sinclair/typebox';
import { Email, Nullable, Text, Url } from '../../jsonapi/index.js';
import { choice } from '../../resources/attributes.js';
import { ADMIN_S3, ALIASES, FRONT_END_ADMIN_FIELDS, FRONT_END_PUBLIC_FIELDS, SMTP_PORT } from './front-end-fields.js';

const optionalUrl = (description: string) => Nullable(Url({ description }));

/** What everyone may read: the limited variant. */
export const PUBLIC_FIELDS: Record<string, TSchema> = {
  'app-name': Text(255, { minLength: 1, description: 'name of the site' }),
  tagline: Nullable(Text(255)),
  'frontend-url': optionalUrl('where the web front end runs; links in mails point there'),
  'support-url': optionalUrl('help and support'),
  'facebook-url': optionalUrl('the site on Facebook'),
  'twitter-url': optionalUrl('the site on Twitter'),
  'instagram-url': optionalUrl('the site on Instagram'),
  'github-url': optionalUrl('the source code'),
  'youtube-url': optionalUrl('the site on YouTube'),
  ...FRONT_END_PUBLIC_FIELDS,
};

/** Only administrators and super administrators see or change these: storage and mail, with their secrets. */
export const ADMIN_FIELDS: Record<string, TSchema> = {
  'storage-place': choice(
    ['local', 's3', 'gs'],
    'where uploads are stored (default local): local disk, the S3 bucket below, or Google Cloud Storage (gs-*, through its S3-compatible interface)',
  ),
  's3-endpoint': optionalUrl('S3-compatible endpoint; empty for AWS'),
  ...ADMIN_S3,
  'email-service': Type.Union([Type.Literal('disable'), Type.Literal('smtp'), Type.Literal('sendgrid'), Type.Null()], {
    description:
      'smtp: send through the SMTP server below; sendgrid: through SendGrid with sendgrid-key; disable: only write the ' +
      'outbox folder; null: SMTP_URL, else the outbox folder',
  }),
  'email-from': Nullable(Email({ description: 'sender address' })),
  'email-from-name': Nullable(Text(255, { description: 'sender name' })),
  'smtp-host': Nullable(
    Type.String({ pattern: '^[A-Za-z0-9.-]{1,253}$|^\\[[0-9A-Fa-f:.]+\\]$', description: 'host name or address' }),
  ),
  'smtp-port': Nullable(Type.Integer({ minimum: 1, maximum: 65535, description: SMTP_PORT })),
  'smtp-username': Nullable(Text(255)),
  'smtp-password': Nullable(Text(255, { description: 'secret; administrators only' })),
  'smtp-encryption': choice(
    ['none', 'no-encryption', 'ssl', 'tls', 'tls-optional'],
    'none or no-encryption (plain), ssl (implicit TLS), tls (STARTTLS required) or tls-optional (STARTTLS when offered)',
  ),
  ...FRONT_END_ADMIN_FIELDS,
  ...Object.fromEntries(
    Object.entries(ALIASES).map(([alias, of]) => [
      alias,
      Type.Unsafe({ ...ADMIN_S3[of]!, description: `the same as ${of}` }),
    ]),
  ),
};

/**
 * What a PATCH may send where it differs from what is read: the web front end sends the port as a
 * string (`"587"`, `""` when cleared); it is stored and read as an integer.
 */
export const INPUT_FIELDS: Record<string, TSchema> = {
  'smtp-port': Type.Union(
    [
      Type.Integer({ minimum: 1, maximum: 65535 }),
      Type.String({
        pattern: '^(6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[1-9][0-9]{0,3})$',
      }),
      Type.Literal(''),
      Type.Null(),
    ],
    { description: `${SMTP_PORT}; also a decimal string, and "" for none` },
  ),
};

/** The stored value of a sent one (see INPUT_FIELDS). */
export function storedValue(wire: string, value: unknown): unknown {
  if (wire === 'smtp-port' && typeof value === 'string') return value === '' ? null : Number(value);
  return value;
}

/** Wire name -> column key: `s3-access-key` -> `s3AccessKey`, `aws-key` -> `s3AccessKey`. */
export const columnOf = (wire: string) =>
  (ALIASES[wire] ?? wire).replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
