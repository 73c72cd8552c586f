import { randomBytes } from 'node:crypto';
import { request } from 'node:http';

export interface UploadMemory {
  bytes: number;
  seconds: number;
  rssBefore: number;
  rssPeak: number;
}

/**
 * Uploads a file of `bytes` through POST /v1/upload/file over real HTTP while sampling the process's
 * resident memory every 10 ms. The client writes 64 KiB chunks with back-pressure, so the growth that
 * remains is the server's: streaming to a temp file keeps it flat whatever the file's size.
 */
export async function uploadMemory(origin: string, token: string, bytes: number): Promise<UploadMemory> {
  const boundary = `----bench${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="large.bin"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const chunk = randomBytes(64 * 1024);
  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 10);
  const started = performance.now();
  try {
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${origin}/v1/upload/file`, {
        method: 'POST',
        headers: {
          authorization: `JWT ${token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': head.length + bytes + tail.length,
        },
      });
      req.on('response', (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      void (async () => {
        req.write(head);
        for (let sent = 0; sent < bytes; sent += chunk.length) {
          const piece = bytes - sent < chunk.length ? chunk.subarray(0, bytes - sent) : chunk;
          if (!req.write(piece)) await new Promise((drained) => req.once('drain', drained));
        }
        req.end(tail);
      })();
    });
    if (status !== 200) throw new Error(`upload of ${bytes} bytes answered ${status}`);
  } finally {
    clearInterval(sampler);
  }
  return { bytes, seconds: (performance.now() - started) / 1000, rssBefore, rssPeak };
}
