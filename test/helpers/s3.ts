import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { Client } from 'minio';
import S3rver from 's3rver';
import type { Test } from 'tap';
import { settings } from '../../db/schema/index.js';

export interface S3Peer {
  endpoint: string;
  bucket: string;
  region: string;
  accessKey: string;
  secretKey: string;
  /** A client of the same server, to look at what the service stored. */
  client: Client;
  /** Stops the server (the storage is down) until `start()`; objects are kept. */
  stop(): Promise<void>;
  start(): Promise<void>;
}

/**
 * A real S3-protocol server (s3rver) on a loopback port, files in a temp folder. s3rver takes
 * single-PUT uploads only, so objects stay under minio's 64 MiB part size.
 */
export async function startS3(t: Test, bucket = 'open-event-test'): Promise<S3Peer> {
  const directory = await mkdtemp(join(tmpdir(), 'oe-s3-'));
  let server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory });
  const { port } = await server.run();
  let running = true;
  const peer: S3Peer = {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    region: 'us-east-1',
    accessKey: 'S3RVER',
    secretKey: 'S3RVER',
    client: new Client({
      endPoint: '127.0.0.1',
      port,
      useSSL: false,
      accessKey: 'S3RVER',
      secretKey: 'S3RVER',
      region: 'us-east-1',
      pathStyle: true,
    }),
    async stop() {
      if (running) await server.close();
      running = false;
    },
    async start() {
      server = new S3rver({ port, address: '127.0.0.1', silent: true, directory });
      await server.run();
      running = true;
    },
  };
  t.teardown(async () => {
    await peer.stop();
    await rm(directory, { recursive: true, force: true });
  });
  return peer;
}

/** Points the site settings at the peer: uploads go to S3 from now on (as an administrator's PATCH would). */
export async function useS3(app: FastifyInstance, peer: S3Peer) {
  await app.db
    .update(settings)
    .set({
      storagePlace: 's3',
      s3Endpoint: peer.endpoint,
      s3Bucket: peer.bucket,
      s3Region: peer.region,
      s3AccessKey: peer.accessKey,
      s3SecretKey: peer.secretKey,
    })
    .where(eq(settings.id, 1));
}
