import { randomBytes } from 'node:crypto';
import { createReadStream, type ReadStream } from 'node:fs';
import { copyFile, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import mime from 'mime-types';
import { settings } from '../db/schema/index.js';
import { serviceUnavailable } from './http-errors.js';
import { readAtMost } from './read-at-most.js';

export type Place = 'local' | 's3';

/** What to store: bytes in memory, or a file on disk (an upload streamed to a temp file). */
export type Body = Buffer | { path: string; size: number };

/** One place files are kept; keys are relative paths such as `uploads/files/<name>.pdf`. */
export interface Backend {
  readonly place: Place;
  /** Stores the body under `key` (replacing what was there) and answers the URL clients fetch it at. */
  put(key: string, body: Body, contentType?: string): Promise<string>;
  remove(key: string): Promise<void>;
  /** The whole object, refused when larger than `maxBytes`. */
  read(key: string, maxBytes: number): Promise<Buffer>;
  /** The object as a stream with its size (downloads). */
  open(key: string): Promise<{ stream: Readable; size: number }>;
  /** The key of the object a URL of this backend points at; undefined for any other URL. */
  keyOf(url: string): string | undefined;
}

export interface Storage {
  /** Where uploads go now: the settings' storage place, or local disk when the request forces it. */
  select(forceLocal?: boolean): Promise<Backend>;
  /** The backend and key of a file we store, when the URL is one of ours (local or the current S3 bucket). */
  locate(url: string): Promise<{ backend: Backend; key: string } | undefined>;
  local: Backend;
}

export interface StorageOptions {
  dir: string;
  publicUrl: string;
  s3Urls: 'public' | 'presigned';
}

declare module 'fastify' {
  interface FastifyInstance {
    storage: Storage;
  }
}

export const MEDIA_PREFIX = '/static/media/';

/** Keys are made of plain segments: no `.`/`..`, no leading dots, nothing a path or URL would read specially. */
const KEY = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}(\/[A-Za-z0-9][A-Za-z0-9._-]{0,127}){0,15}$/;
export const isKey = (key: string) => KEY.test(key) && !key.split('/').some((s) => s.includes('..'));

function checkedKey(key: string): string {
  if (!isKey(key)) throw new Error(`not a storage key: ${JSON.stringify(key)}`);
  return key;
}

export const contentTypeOf = (key: string) => mime.lookup(key) || 'application/octet-stream';

const PRESIGNED_SECONDS = 7 * 24 * 3600;

/** A failure of the storage service: the client sees 503 with Retry-After, the log sees the cause. */
export const storageUnavailable = () =>
  serviceUnavailable('The file storage is not available at the moment; try again later');

const tooLarge = (maxBytes: number) => () => new Error(`stored file is larger than ${maxBytes} bytes`);

/** Files under a folder, served by the API at MEDIA_PREFIX; writes land whole (temp file, then rename). */
export function localBackend(dir: string, publicUrl: string): Backend {
  const root = resolve(dir);
  const base = `${publicUrl}${MEDIA_PREFIX}`;
  const pathOf = (key: string) => join(root, checkedKey(key));
  return {
    place: 'local',
    async put(key, body) {
      const file = pathOf(key);
      const partial = join(root, '.partial', randomBytes(12).toString('hex'));
      await mkdir(dirname(partial), { recursive: true });
      await mkdir(dirname(file), { recursive: true });
      try {
        if (Buffer.isBuffer(body)) await writeFile(partial, body);
        else await copyFile(body.path, partial);
        await rename(partial, file);
      } finally {
        await rm(partial, { force: true });
      }
      return base + key;
    },
    remove: (key) => rm(pathOf(key), { force: true }),
    async read(key, maxBytes) {
      const file = pathOf(key);
      if ((await stat(file)).size > maxBytes) throw tooLarge(maxBytes)();
      return readFile(file);
    },
    async open(key) {
      const file = pathOf(key);
      const info = await stat(file);
      if (!info.isFile()) throw Object.assign(new Error('not a file'), { code: 'ENOENT' });
      return { stream: createReadStream(file), size: info.size };
    },
    keyOf(url) {
      if (!url.startsWith(base)) return undefined;
      const key = url.slice(base.length);
      return isKey(key) ? key : undefined;
    },
  };
}

type Settings = typeof settings.$inferSelect;

interface S3Config {
  endpoint: string;
  bucket: string;
  region: string;
  accessKey: string;
  secretKey: string;
}

/**
 * An S3-compatible bucket through the minio client; the bucket is created the first time it is missing. The client
 * is loaded here, when a bucket is configured: with its XML parsers it took 160 ms of the 1.2 s every process spent
 * loading modules.
 */
export async function s3Backend(config: S3Config, urls: StorageOptions['s3Urls']): Promise<Backend> {
  const { Client } = await import('minio');
  const endpoint = new URL(config.endpoint);
  const aws = endpoint.hostname.endsWith('amazonaws.com');
  const client = new Client({
    endPoint: endpoint.hostname,
    port: endpoint.port ? Number(endpoint.port) : undefined,
    useSSL: endpoint.protocol === 'https:',
    accessKey: config.accessKey,
    secretKey: config.secretKey,
    region: config.region,
    pathStyle: !aws,
  });
  const base = aws
    ? `https://${config.bucket}.s3.${config.region}.amazonaws.com/`
    : `${endpoint.origin}/${config.bucket}/`;
  let ready: Promise<void> | undefined;
  const ensureBucket = () =>
    (ready ??= (async () => {
      if (!(await client.bucketExists(config.bucket))) {
        await client.makeBucket(config.bucket, config.region).catch(async (err: unknown) => {
          // Another process may have created it in the meantime.
          if (!(await client.bucketExists(config.bucket))) throw err;
        });
      }
    })().catch((err: unknown) => {
      ready = undefined;
      throw err;
    }));
  return {
    place: 's3',
    async put(key, body, contentType = contentTypeOf(key)) {
      await ensureBucket();
      const source: Buffer | ReadStream = Buffer.isBuffer(body) ? body : createReadStream(body.path);
      const size = Buffer.isBuffer(body) ? body.length : body.size;
      await client.putObject(config.bucket, checkedKey(key), source, size, { 'Content-Type': contentType });
      return urls === 'presigned' ? client.presignedGetObject(config.bucket, key, PRESIGNED_SECONDS) : base + key;
    },
    remove: (key) => client.removeObject(config.bucket, checkedKey(key)),
    async read(key, maxBytes) {
      return readAtMost(await client.getObject(config.bucket, checkedKey(key)), maxBytes, tooLarge(maxBytes));
    },
    async open(key) {
      const { size } = await client.statObject(config.bucket, checkedKey(key));
      return { stream: await client.getObject(config.bucket, key), size };
    },
    keyOf(url) {
      if (!url.startsWith(base)) return undefined;
      const key = url.slice(base.length).split('?')[0]!;
      return isKey(key) ? key : undefined;
    },
  };
}

/**
 * The bucket the settings store uploads in: S3 (`storage-place` s3), or Google Cloud Storage (gs)
 * through its S3-compatible XML interface with interoperable (HMAC) keys; undefined: local disk.
 */
export function remoteConfigOf(s: Settings): S3Config | undefined {
  if (s.storagePlace === 's3' && s.s3Bucket) {
    return {
      endpoint: s.s3Endpoint ?? `https://s3.${s.s3Region ?? 'us-east-1'}.amazonaws.com`,
      bucket: s.s3Bucket,
      region: s.s3Region ?? 'us-east-1',
      accessKey: s.s3AccessKey ?? '',
      secretKey: s.s3SecretKey ?? '',
    };
  }
  if (s.storagePlace === 'gs' && s.gsBucketName) {
    return {
      endpoint: GOOGLE_STORAGE,
      bucket: s.gsBucketName,
      region: 'auto',
      accessKey: s.gsKey ?? '',
      secretKey: s.gsSecret ?? '',
    };
  }
  return undefined;
}

const GOOGLE_STORAGE = 'https://storage.googleapis.com';

/**
 * `app.storage`: local disk (always there, served at MEDIA_PREFIX) and the S3 bucket the settings
 * name. The S3 client is built once per configuration and rebuilt when an administrator changes it.
 */
export default fp(
  async (app: FastifyInstance, options: StorageOptions) => {
    const local = localBackend(options.dir, options.publicUrl);
    let cached: { signature: string; backend: Promise<Backend> } | undefined;

    async function s3(): Promise<Backend | undefined> {
      const [row] = await app.db.select().from(settings).where(eq(settings.id, 1));
      const config = row && remoteConfigOf(row);
      if (!config) return undefined;
      const signature = JSON.stringify(config);
      if (cached?.signature !== signature) cached = { signature, backend: s3Backend(config, options.s3Urls) };
      return await cached.backend;
    }

    app.decorate('storage', {
      local,
      select: async (forceLocal = false) => (forceLocal ? local : ((await s3()) ?? local)),
      async locate(url: string) {
        const key = local.keyOf(url);
        if (key !== undefined) return { backend: local, key };
        const remote = await s3();
        const remoteKey = remote?.keyOf(url);
        return remote && remoteKey !== undefined ? { backend: remote, key: remoteKey } : undefined;
      },
    } satisfies Storage);
  },
  { name: 'storage', dependencies: ['db'] },
);
