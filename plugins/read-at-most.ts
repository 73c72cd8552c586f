import type { Readable } from 'node:stream';

/** The whole stream, given up (stream destroyed, `tooLarge()` thrown) as soon as it passes `maxBytes`. */
export async function readAtMost(stream: Readable, maxBytes: number, tooLarge: () => Error): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      stream.destroy();
      throw tooLarge();
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
