import type { FastifyInstance } from 'fastify';
import { safeFetch, type FetchLimits } from '../net/safe-fetch.js';

/** The bytes of an image URL: read from our own storage when it is one of ours, else fetched SSRF-safe. */
export async function readImage(app: FastifyInstance, url: string, limits: FetchLimits): Promise<Buffer> {
  const located = await app.storage.locate(url);
  return located ? located.backend.read(located.key, limits.maxBytes) : (await safeFetch(url, limits)).body;
}
