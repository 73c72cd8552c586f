import { Type, type TSchema } from '@sinclair/typebox';
import { Email, Nullable, Text, Url } from '../../jsonapi/types.js';
import { choice } from '../attributes.js';

const optionalUrl = (description: string) => Nullable(Url({ description }));
const size = (description: string, fallback: number) =>
  Type.Integer({ minimum: 1, maximum: 10_000, description: `${description} in pixels (default ${fallback})` });

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
  'large-image-width': size('width of the large event image', 1300),
  'large-image-height': size('height of the large event image when the aspect is not kept', 500),
  'thumbnail-image-width': size('width of the event thumbnail', 500),
  'thumbnail-image-height': size('height of the event thumbnail when the aspect is not kept', 200),
  'icon-image-width': size('width of the event icon', 75),
  'icon-image-height': size('height of the event icon when the aspect is not kept', 30),
  'image-keep-aspect': Type.Boolean({
    description: 'true: image variants keep the original ratio (height from width); false: exactly width x height',
  }),
  'profile-thumbnail-size': size('width (and height when the aspect is not kept) of user avatar and speaker photo thumbnails', 500),
  'profile-small-size': size('width (and height when the aspect is not kept) of small user avatars and speaker photos', 50),
  'profile-icon-size': size('width (and height when the aspect is not kept) of user avatar and speaker photo icons', 35),
};

/** Only administrators and super administrators see or change these: storage and mail, with their secrets. */
export const ADMIN_FIELDS: Record<string, TSchema> = {
  'storage-place': choice(['local', 's3'], 'where uploads are stored (default local)'),
  's3-endpoint': optionalUrl('S3-compatible endpoint; empty for AWS'),
  's3-bucket': Nullable(Type.String({ pattern: '^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$', description: 'bucket name' })),
  's3-region': Nullable(Text(64)),
  's3-access-key': Nullable(Text(255)),
  's3-secret-key': Nullable(Text(255, { description: 'secret; administrators only' })),
  'email-service': Type.Union([Type.Literal('smtp'), Type.Null()], {
    description: 'smtp: send through the SMTP server below; null: SMTP_URL, else the outbox folder',
  }),
  'email-from': Nullable(Email({ description: 'sender address' })),
  'email-from-name': Nullable(Text(255, { description: 'sender name' })),
  'smtp-host': Nullable(Type.String({ pattern: '^[A-Za-z0-9.-]{1,253}$|^\\[[0-9A-Fa-f:.]+\\]$', description: 'host name or address' })),
  'smtp-port': Nullable(Type.Integer({ minimum: 1, maximum: 65535, description: 'default 465 with ssl, 587 otherwise' })),
  'smtp-username': Nullable(Text(255)),
  'smtp-password': Nullable(Text(255, { description: 'secret; administrators only' })),
  'smtp-encryption': choice(['none', 'ssl', 'tls'], 'none, ssl (implicit TLS) or tls (STARTTLS required)'),
};

/** Wire name -> column key: `s3-access-key` -> `s3AccessKey`. */
export const columnOf = (wire: string) => wire.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
