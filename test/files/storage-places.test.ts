/**
 * Where uploads go for each `storage-place` the web front end offers (open-event-frontend
 * app/templates/components/forms/admin/settings/system/storage-option.hbs): local disk, Amazon S3
 * (`aws-*`, the same settings as `s3-*`), or Google Cloud Storage through its S3-compatible interface
 * with interoperable keys (`gs-*`).
 */
import t from 'tap';
import type { settings } from '../../db/schema/index.js';
import { remoteConfigOf } from '../../plugins/storage.js';

type Row = typeof settings.$inferSelect;
const row = (values: Partial<Row>) =>
  ({
    storagePlace: 'local',
    s3Endpoint: null,
    s3Bucket: null,
    s3Region: null,
    s3AccessKey: null,
    s3SecretKey: null,
    gsBucketName: null,
    gsKey: null,
    gsSecret: null,
    ...values,
  }) as Row;

t.test('local: no bucket, whatever keys are stored', async (t) => {
  t.equal(remoteConfigOf(row({ s3Bucket: 'b', gsBucketName: 'g' })), undefined);
});

t.test('s3: the S3 settings, AWS by default', async (t) => {
  t.strictSame(
    remoteConfigOf(
      row({ storagePlace: 's3', s3Bucket: 'media', s3Region: 'eu-west-1', s3AccessKey: 'AK', s3SecretKey: 'SK' }),
    ),
    {
      endpoint: 'https://s3.eu-west-1.amazonaws.com',
      bucket: 'media',
      region: 'eu-west-1',
      accessKey: 'AK',
      secretKey: 'SK',
    },
  );
});

t.test('gs: Google Cloud Storage with the interoperable keys', async (t) => {
  t.strictSame(
    remoteConfigOf(
      row({ storagePlace: 'gs', gsBucketName: 'media', gsKey: 'GOOG1E', gsSecret: 'GS', s3Bucket: 'other' }),
    ),
    {
      endpoint: 'https://storage.googleapis.com',
      bucket: 'media',
      region: 'auto',
      accessKey: 'GOOG1E',
      secretKey: 'GS',
    },
  );
  t.equal(remoteConfigOf(row({ storagePlace: 'gs' })), undefined, 'no bucket: local disk');
});
