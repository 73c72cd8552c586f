import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';

export type ImageFormat = 'png' | 'jpeg' | 'gif' | 'webp';

/** A real image of the given size and format, drawn by sharp (a colour gradient, so it is not empty). */
export function makeImage(format: ImageFormat, width = 64, height = 48): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      pixels[i] = (x * 255) / width;
      pixels[i + 1] = (y * 255) / height;
      pixels[i + 2] = 128;
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .toFormat(format)
    .toBuffer();
}

/** `data:image/<type>;base64,...` of the bytes, as clients send images to POST /v1/upload/image. */
export const dataUri = (bytes: Buffer, type: string) => `data:image/${type};base64,${bytes.toString('base64')}`;

/** One multipart/form-data body: each file as [field, filename, content]; answers payload and headers. */
export function multipart(
  files: [field: string, filename: string, content: Buffer | string][],
  fields: Record<string, string> = {},
) {
  const boundary = `----oe${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const [field, filename, content] of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\n` +
          'Content-Type: application/octet-stream\r\n\r\n',
      ),
      Buffer.isBuffer(content) ? content : Buffer.from(content),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Uploads an image through POST /v1/upload/image and answers its URL (failing loudly otherwise). */
export async function uploadImage(app: FastifyInstance, token: string, bytes: Buffer, type: string): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/v1/upload/image',
    headers: { authorization: `JWT ${token}` },
    payload: { data: dataUri(bytes, type) },
  });
  if (res.statusCode !== 200) throw new Error(`upload: ${res.statusCode} ${res.body}`);
  return res.json().url as string;
}
