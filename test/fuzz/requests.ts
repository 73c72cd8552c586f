/**
 * Valid requests for an operation of the document: path parameters naming existing records, query
 * parameters and bodies from their schemas (JSON:API sort, filter, include and fields from the
 * resource's attributes and relationships), sent mostly as super admin so they get past authorization
 * into validation and the writes, sometimes as a plain user or anonymously.
 */
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { arbitraryOf, resolve, type Schema, type SchemaOptions } from './arbitraries.js';
import { document, type Operation } from './operations.js';
import { hinted, queryOf, sometimes } from './query.js';
import { pathValues, type FuzzWorld } from './world.js';

export type Caller = 'super-admin' | 'user' | 'anonymous';

export interface Part {
  name: string;
  filename?: string;
  contentType?: string;
  data: Buffer | string;
}

export type Body =
  | { kind: 'json'; mediaType: string; value: unknown }
  | { kind: 'multipart'; parts: Part[] }
  | { kind: 'raw'; mediaType?: string; text: string };

export interface FuzzRequest {
  op: Operation;
  caller: Caller;
  /** The token as the `access_token` parameter instead of the header (the assistant face takes both). */
  tokenInQuery: boolean;
  /** Path parameter -> its text in the URL, percent-encoded. */
  path: Record<string, string>;
  query: [string, string][];
  /** Appended to the query string as it is (malformed percent-encoding). */
  rawQuery?: string;
  body?: Body;
  /** Headers to set; undefined removes one. */
  headers: Record<string, string | undefined>;
  /** Replaces the caller's Authorization header. */
  authorization?: string;
  /** What was broken; empty for a valid request. */
  broken: string;
}

/** A JSON token written into the body as it is (`1e309`, `NaN`): JSON.stringify cannot produce it. */
export class RawJson {
  constructor(readonly text: string) {}
}

/**
 * Settings the fuzzer never sets: they point the service at a mail or storage server, and a fuzzed
 * host could be any address (tests reach nothing but this machine).
 */
const REMOTE_SETTINGS = new Set([
  'storage-place',
  's3-endpoint',
  's3-bucket',
  's3-region',
  's3-access-key',
  's3-secret-key',
  'email-service',
  'smtp-host',
  'smtp-port',
  'smtp-username',
  'smtp-password',
  'smtp-encryption',
  'aws-key',
  'aws-secret',
  'aws-bucket-name',
  'aws-region',
  'gs-bucket-name',
  'gs-key',
  'gs-secret',
  'sendgrid-key',
]);

export function schemaOptions(fw: FuzzWorld): SchemaOptions {
  const cast = fw.world.cast;
  const emailOf = (schema: Schema) =>
    hinted(
      [...fw.emails, ` ${cast.owner.email.toUpperCase()} `],
      arbitraryOf(schema, { document }) as fc.Arbitrary<string>,
    );
  const login = resolve(document, { $ref: '#/components/schemas/LoginRequest' });
  return {
    document,
    idsOf: (type) => fw.ids.get(type) ?? [],
    omit: REMOTE_SETTINGS,
    overrides: {
      ImageUploadRequest: fc.record({
        data: hinted([fw.png.uri, fw.png.uri.replace('image/png', 'image/jpeg')], fc.string({ minLength: 1 })),
      }),
      SendReceiptRequest: fc.record({
        'order-identifier': hinted(fw.orderIdentifiers, fc.string({ minLength: 1, maxLength: 64 })),
      }),
      LoginRequest: fc.record({
        email: emailOf(login.properties.email),
        password: hinted([cast.owner.password, 'wrong password'], fc.string({ minLength: 1 })),
      }),
    },
  };
}

/** A zip archive holding `event.json` with `{}`: past the upload's zip check, on to the import job. */
const SMALL_ZIP = Buffer.from(
  'UEsDBBQAAAgIAAOPdl1Dv6ajBAAAAAIAAAAKAAAAZXZlbnQuanNvbquuBQBQSwECFAMUAAAICAADj3ZdQ7+mowQAAAACAAAACgAAAAAAAAAAAAAApIEAAAAAZXZlbnQuanNvblBLBQYAAAAAAQABADgAAAAsAAAAAAA=',
  'base64',
);
const FILE_NAMES = [
  'notes.txt',
  'photo.png',
  'archive.zip',
  'ü ber.pdf',
  '../../etc/passwd',
  `${'n'.repeat(300)}.txt`,
  '',
];

function filePart(name: string, fw: FuzzWorld): fc.Arbitrary<Part> {
  return fc.record({
    name: fc.constant(name),
    filename: fc.constantFrom(...FILE_NAMES),
    contentType: fc.constantFrom('application/octet-stream', 'image/png', 'text/plain', 'application/zip'),
    data: fc.oneof(
      fc.uint8Array({ maxLength: 64 }).map((a) => Buffer.from(a)),
      fc.constant(fw.png.bytes),
      fc.constant(SMALL_ZIP),
      fc.string({ maxLength: 32 }),
    ),
  });
}

/** The form of a multipart schema: files for binary members, fields for the others. */
function multipartOf(schema: Schema, fw: FuzzWorld, options: SchemaOptions): fc.Arbitrary<Part[]> {
  const s = resolve(document, schema);
  const members = Object.entries((s.properties ?? {}) as Record<string, Schema>).map(([name, raw]) => {
    const member = resolve(document, raw);
    const parts: fc.Arbitrary<Part[]> =
      member.format === 'binary'
        ? filePart(name, fw).map((p) => [p])
        : member.type === 'array' && member.items?.format === 'binary'
          ? fc
              .tuple(fc.constantFrom(name, `${name}[]`), fc.integer({ min: 1, max: 2 }))
              .chain(([field, n]) => fc.array(filePart(field, fw), { minLength: n, maxLength: n }))
          : arbitraryOf(member, options).map((v) => [{ name, data: String(v) }]);
    return (s.required ?? []).includes(name) ? parts : sometimes(parts, [], 1);
  });
  return fc.tuple(...members).map((lists) => lists.flat());
}

/** POST /cms/createSkill.json documents its form in prose: an image, its name and where the skill is. */
function skillForm(fw: FuzzWorld): fc.Arbitrary<Body> {
  return fc
    .record({
      imageName: fc.stringMatching(/^[a-z]{1,8}\.png$/),
      withImage: fc.boolean(),
      skill: fc.constantFrom('fuzz', 'new_skill'),
    })
    .map(({ imageName, withImage, skill }) => ({
      kind: 'multipart' as const,
      parts: [
        ...(withImage ? [{ name: 'image', filename: imageName, contentType: 'image/png', data: fw.png.bytes }] : []),
        ...Object.entries({ image_name: imageName, model: 'general', group: 'Knowledge', language: 'en', skill }).map(
          ([name, data]) => ({ name, data }),
        ),
      ],
    }));
}

function bodyOf(op: Operation, fw: FuzzWorld, options: SchemaOptions): fc.Arbitrary<Body | undefined> {
  if (op.method === 'POST' && op.path === '/cms/createSkill.json') return skillForm(fw);
  const content = (op.spec.requestBody?.content ?? {}) as Record<string, { schema?: Schema }>;
  const types = Object.keys(content);
  if (types.length === 0) return fc.constant(undefined);
  return fc.constantFrom(...types).chain((mediaType): fc.Arbitrary<Body> => {
    const schema = content[mediaType]!.schema ?? {};
    if (mediaType === 'multipart/form-data')
      return multipartOf(schema, fw, options).map((parts) => ({ kind: 'multipart', parts }));
    return arbitraryOf(schema, options).map((value) => ({ kind: 'json', mediaType, value }));
  });
}

/** The id a path value names, for `data.id` of an update (an event's identifier names its id). */
function idOf(fw: FuzzWorld, value: string) {
  const { published, draft } = fw.world;
  return value === published.identifier ? published.event : value === draft.identifier ? draft.event : value;
}

export function validRequest(op: Operation, fw: FuzzWorld): fc.Arbitrary<FuzzRequest> {
  const options = schemaOptions(fw);
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const path = fc.record(
    Object.fromEntries(
      pathParams.map((p) => [
        p.name as string,
        fc.constantFrom(...pathValues(fw, op.path, p.name)).map((v) => (p.name === 'path' ? v : encodeURIComponent(v))),
      ]),
    ),
  );
  const caller = fc.oneof(
    { weight: 8, arbitrary: fc.constant<Caller>('super-admin') },
    fc.constant<Caller>('user'),
    fc.constant<Caller>('anonymous'),
  );
  return fc
    .record({
      caller,
      tokenInQuery: fc.boolean(),
      path,
      query: queryOf(op, fw, options),
      body: bodyOf(op, fw, options),
    })
    .map(({ body: generated, ...rest }) => {
      const body = generated?.kind === 'json' ? { ...generated, value: structuredClone(generated.value) } : generated;
      const data = body?.kind === 'json' ? (body.value as { data?: { id?: unknown } } | null)?.data : undefined;
      // An update names the record of its URL; a create names none (the document: the server assigns ids).
      if (op.method === 'PATCH' && /\/\{id\}$/.test(op.path) && data && typeof data === 'object' && 'id' in data) {
        data.id = idOf(fw, decodeURIComponent(rest.path.id!));
      }
      if (op.method === 'POST' && data && typeof data === 'object' && !Array.isArray(data)) delete data.id;
      return printable({ op, ...rest, ...(body ? { body } : {}), headers: {}, broken: '' });
    });
}

/** What a counterexample shows: the request line, the caller, the defect and the start of the body. */
export function printable(req: FuzzRequest): FuzzRequest {
  const describe = () => {
    const url = render(req, { 'super-admin': '<token>', user: '<token>' }).url;
    const body =
      req.body?.kind === 'json'
        ? jsonText(req.body.value)
        : req.body?.kind === 'raw'
          ? req.body.text
          : req.body
            ? `multipart: ${req.body.parts.map((p) => p.name).join(', ')}`
            : '';
    const more = [
      req.broken,
      Object.keys(req.headers).length ? JSON.stringify(req.headers) : '',
      req.authorization ? `Authorization: ${req.authorization.slice(0, 40)}` : '',
    ].filter(Boolean);
    return `${req.op.method} ${url.slice(0, 300)} as ${req.caller}${more.length ? ` [${more.join('; ')}]` : ''}${body ? ` ${body.slice(0, 300)}` : ''}`;
  };
  return Object.defineProperty(req, fc.toStringMethod, { value: describe, enumerable: false });
}

/** The Accept header a client of the operation sends: the media type of its successful answers. */
function acceptOf(op: Operation) {
  const types = Object.entries((op.spec.responses ?? {}) as Record<string, Schema>)
    .filter(([status]) => status.startsWith('2'))
    .flatMap(([, response]) => Object.keys(resolve(document, response).content ?? {}));
  return types.includes('application/vnd.api+json')
    ? 'application/vnd.api+json'
    : types.includes('application/json')
      ? 'application/json'
      : '*/*';
}

function jsonText(value: unknown) {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_key, v: unknown) =>
    v instanceof RawJson ? `\u0001raw:${raws.push(v.text) - 1}\u0001` : v,
  );
  return raws.reduce((out, raw, i) => out.replace(JSON.stringify(`\u0001raw:${i}\u0001`), raw), text ?? '');
}

function multipartBody(parts: Part[]) {
  const boundary = '----fuzz-boundary-7d1f';
  const chunks = parts.flatMap((p) => [
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"${p.filename !== undefined ? `; filename="${p.filename}"` : ''}\r\n` +
        `${p.contentType ? `Content-Type: ${p.contentType}\r\n` : ''}\r\n`,
    ),
    Buffer.isBuffer(p.data) ? p.data : Buffer.from(p.data),
    Buffer.from('\r\n'),
  ]);
  return {
    payload: Buffer.concat([...chunks, Buffer.from(`--${boundary}--\r\n`)]),
    type: `multipart/form-data; boundary=${boundary}`,
  };
}

/** The request as `app.inject` takes it, with the callers' tokens. */
export function render(
  req: FuzzRequest,
  tokens: Record<Exclude<Caller, 'anonymous'>, string>,
): InjectOptions & { url: string; method: string } {
  const token = req.caller === 'anonymous' ? undefined : tokens[req.caller];
  const query = [...req.query];
  const headers: Record<string, string | undefined> = { accept: acceptOf(req.op) };
  if (token && req.tokenInQuery && req.op.parameters.some((p) => p.name === 'access_token'))
    query.push(['access_token', token]);
  else if (token) headers.authorization = `JWT ${token}`;
  if (req.authorization !== undefined) headers.authorization = req.authorization;
  let payload: string | Buffer | undefined;
  if (req.body?.kind === 'json') [payload, headers['content-type']] = [jsonText(req.body.value), req.body.mediaType];
  else if (req.body?.kind === 'multipart') ({ payload, type: headers['content-type'] } = multipartBody(req.body.parts));
  else if (req.body?.kind === 'raw') [payload, headers['content-type']] = [req.body.text, req.body.mediaType];
  Object.assign(headers, req.headers);
  const search = [new URLSearchParams(query).toString(), req.rawQuery].filter(Boolean).join('&');
  const path = req.op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => req.path[name] ?? '');
  return {
    method: req.op.method,
    url: search ? `${path}?${search}` : path,
    headers: Object.fromEntries(Object.entries(headers).filter((e): e is [string, string] => e[1] !== undefined)),
    ...(payload !== undefined ? { payload } : {}),
  };
}
