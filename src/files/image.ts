import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { loadSharp } from '../images/sharp.js';
import { requireLogin } from '../auth/caller.js';
import { API_PREFIX, JsonApiError, errorResponses, unprocessable } from '../jsonapi/index.js';
import { forceLocal, ForceLocalQuery, storeAll, TAG, uniqueKey } from './upload.js';

export interface ImageLimits {
  maxBytes: number;
  maxPixels: number;
}

/** Declared subtype -> the format sharp must read from the bytes. */
const FORMATS: Record<string, string> = { png: 'png', jpeg: 'jpeg', jpg: 'jpeg', gif: 'gif', webp: 'webp' };

/** The first bytes each format starts with. */
const SIGNATURES: Record<string, (b: Buffer) => boolean> = {
  png: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  jpeg: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  gif: (b) => /^GIF8[79]a$/.test(b.subarray(0, 6).toString('latin1')),
  webp: (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
};

const DATA_URI = /^data:image\/([A-Za-z0-9.+-]+);base64,(.*)$/s;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

const ImageUploadRequest = Type.Object(
  {
    data: Type.String({
      minLength: 1,
      description: 'The image as a data URI: `data:image/<png|jpeg|jpg|gif|webp>;base64,<bytes>`',
    }),
  },
  { $id: 'ImageUploadRequest', additionalProperties: false },
);
const ImageUploadResponse = Type.Object(
  { url: Type.String({ description: 'URL of the stored image' }) },
  { $id: 'ImageUploadResponse', additionalProperties: false },
);

/** The image a data URI carries, checked to be a decodable image of the declared, allowed type. */
export async function decodeImage(data: string, limits: ImageLimits): Promise<{ bytes: Buffer; extension: string }> {
  const match = DATA_URI.exec(data);
  if (!match) throw unprocessable('data must be a data URI of the form data:image/<type>;base64,<data>', '/data');
  const declared = match[1]!.toLowerCase();
  const format = FORMATS[declared];
  if (!format) throw unprocessable(`image/${declared} is not accepted; send png, jpeg, gif or webp`, '/data');
  const encoded = match[2]!.replace(/\s+/g, '');
  if (!BASE64.test(encoded)) throw unprocessable('data is not valid base64', '/data');
  if ((encoded.length / 4) * 3 > limits.maxBytes + 2) {
    throw new JsonApiError(413, 'Payload Too Large', `The image is larger than the limit of ${limits.maxBytes} bytes`);
  }
  const bytes = Buffer.from(encoded, 'base64');
  if (bytes.length > limits.maxBytes) {
    throw new JsonApiError(413, 'Payload Too Large', `The image is larger than the limit of ${limits.maxBytes} bytes`);
  }
  if (!SIGNATURES[format]!(bytes)) throw unprocessable(`data is not a ${declared} image`, '/data');
  const unreadable = () => unprocessable(`data is not a readable ${declared} image`, '/data');
  // The header first (cheap), then a decode of every pixel through a tiny resize (streamed, so memory
  // stays small): a truncated or corrupt image fails there.
  const sharp = await loadSharp();
  const meta = await sharp(bytes)
    .metadata()
    .catch(() => undefined);
  if (!meta || meta.format !== format || !meta.width || !meta.height) throw unreadable();
  if (meta.width * meta.height > limits.maxPixels) {
    throw unprocessable(`The image has more than ${limits.maxPixels} pixels`, '/data');
  }
  await sharp(bytes, { limitInputPixels: limits.maxPixels })
    .resize(8, 8, { fit: 'fill' })
    .raw()
    .toBuffer()
    .catch(() => {
      throw unreadable();
    });
  return { bytes, extension: declared };
}

/** `POST /v1/upload/image`: an image sent as a data URI, stored under a random name plus its type's extension. */
export async function imageUploadRoute(app: FastifyInstance, limits: ImageLimits) {
  app.addSchema(ImageUploadRequest);
  app.addSchema(ImageUploadResponse);
  app.post(
    `${API_PREFIX}/upload/image`,
    {
      // base64 grows the bytes by a third; the JSON around them is small.
      bodyLimit: Math.ceil(limits.maxBytes / 3) * 4 + 4096,
      // Who calls is settled before anything they sent is read: an anonymous caller gets 401.
      onRequest: requireLogin(app),
      schema: {
        tags: [TAG],
        operationId: 'uploadImage',
        summary: 'Upload an image',
        description:
          'The image travels as a data URI in `data`. It must be a png, jpeg, gif or webp image whose bytes match ' +
          `the declared type, at most ${limits.maxBytes} bytes and ${limits.maxPixels} pixels. Answers the URL of ` +
          'the stored copy, named with a random identifier plus the extension.',
        consumes: ['application/json', 'application/vnd.api+json'],
        querystring: ForceLocalQuery,
        body: Type.Ref(ImageUploadRequest),
        response: {
          200: Type.Ref(ImageUploadResponse, { description: 'Where the image is stored' }),
          ...errorResponses([400, 401, 413, 415, 422, 503], {
            413: 'The image exceeds the size limit',
            422: 'Not a data URI, not base64, not an accepted image type, or the bytes are not that type',
            503: 'The file storage or the database is down for a moment; nothing was stored. `Retry-After` says when to try again',
          }),
        },
      },
    },
    async (request) => {
      const { bytes, extension } = await decodeImage((request.body as Static<typeof ImageUploadRequest>).data, limits);
      const backend = await app.storage.select(forceLocal(request));
      const [url] = await storeAll(request, backend, [
        { key: uniqueKey('uploads/images', `.${extension}`), body: bytes },
      ]);
      return { url: url! };
    },
  );
}
