/**
 * Valid requests for an operation of the document: path parameters naming existing records, query
 * parameters and bodies from their schemas (JSON:API sort, filter, include and fields from the
 * resource's attributes and relationships), sent mostly as super admin so they get past authorization
 * into validation and the writes, sometimes as a plain user or anonymously.
 */
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { arbitraryOf, resolve, type Schema, type SchemaOptions } from './arbitraries.js';
import { document, resources, type Operation, type ResourceInfo } from './operations.js';
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
const REMOTE_SETTINGS = new Set(['storage-place', 's3-endpoint', 's3-bucket', 's3-region', 's3-access-key', 's3-secret-key', 'email-service', 'smtp-host', 'smtp-port', 'smtp-username', 'smtp-password', 'smtp-encryption']);
const FILTER_OPS = ['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'like', 'ilike'];

const sometimes = <T>(arb: fc.Arbitrary<T>, none: T, weight = 2) =>
  fc.oneof({ weight, arbitrary: fc.constant(none) }, { weight: 1, arbitrary: arb });
const hinted = (values: readonly string[], schema: fc.Arbitrary<string>) =>
  fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...values) }, { weight: 1, arbitrary: schema });

export function schemaOptions(fw: FuzzWorld): SchemaOptions {
  const cast = fw.world.cast;
  const emailOf = (schema: Schema) => hinted([...fw.emails, ` ${cast.owner.email.toUpperCase()} `], arbitraryOf(schema, { document }) as fc.Arbitrary<string>);
  const login = resolve(document, { $ref: '#/components/schemas/LoginRequest' });
  return {
    document,
    idsOf: (type) => fw.ids.get(type) ?? [],
    omit: REMOTE_SETTINGS,
    overrides: {
      ImageUploadRequest: fc.record({ data: hinted([fw.png.uri, fw.png.uri.replace('image/png', 'image/jpeg')], fc.string({ minLength: 1 })) }),
      SendReceiptRequest: fc.record({ 'order-identifier': hinted(fw.orderIdentifiers, fc.string({ minLength: 1, maxLength: 64 })) }),
      LoginRequest: fc.record({ email: emailOf(login.properties.email), password: hinted([cast.owner.password, 'wrong password'], fc.string({ minLength: 1 })) }),
    },
  };
}

const valuesOf = (type: string) => {
  const info = resources.get(type);
  return info ? [...Object.keys(info.attributes), ...Object.keys(info.relationships)] : [];
};

function sortOf(info: ResourceInfo) {
  const keys = fc.tuple(fc.boolean(), fc.constantFrom('id', ...Object.keys(info.attributes)));
  return fc.array(keys, { minLength: 1, maxLength: 2 }).map((list) => list.map(([down, key]) => `${down ? '-' : ''}${key}`).join(','));
}

function includeOf(info: ResourceInfo) {
  const names = Object.keys(info.relationships);
  if (names.length === 0) return fc.constant('');
  const path = fc.constantFrom(...names).chain((name) => {
    const below = Object.keys(resources.get(info.relationships[name]!)?.relationships ?? {});
    return below.length === 0 ? fc.constant(name) : sometimes(fc.constantFrom(...below).map((b) => `${name}.${b}`), name, 1);
  });
  return fc.array(path, { minLength: 1, maxLength: 2 }).map((list) => list.join(','));
}

/** A JSON:API filter on the type's attributes (values from their schemas), with and/or/not and has/any. */
function filterOf(info: ResourceInfo, options: SchemaOptions) {
  const attributes: Record<string, Schema> = { id: { type: 'string', pattern: '^[0-9]{1,4}$' }, ...info.attributes };
  const values = new Map(Object.entries(attributes).map(([name, schema]) => [name, arbitraryOf(schema, options)]));
  const condition = fc.constantFrom(...values.keys()).chain((name) => {
    const value = values.get(name)!;
    return fc.oneof(
      fc.record({ name: fc.constant(name), op: fc.constantFrom(...FILTER_OPS), val: value }),
      fc.record({ name: fc.constant(name), op: fc.constantFrom('in', 'notin'), val: fc.array(value, { maxLength: 3 }) }),
      fc.record({ name: fc.constant(name), op: fc.constantFrom('is_', 'isnot'), val: fc.constant(null) }),
    );
  });
  const relations = Object.entries(info.relationships);
  const related: fc.Arbitrary<unknown>[] = relations.length === 0 ? [] : [
    fc.constantFrom(...relations).chain(([name, target]) =>
      fc.record({ name: fc.constant(name), op: fc.constantFrom('has', 'any'), val: fc.record({ name: fc.constantFrom('id', ...Object.keys(resources.get(target)?.attributes ?? {})), op: fc.constant('eq'), val: fc.constantFrom(...(options.idsOf?.(target) ?? ['1'])) }) }),
    ),
  ];
  const { node } = fc.letrec<{ node: unknown }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      condition,
      ...related,
      fc.record({ and: fc.array(tie('node'), { maxLength: 2 }) }),
      fc.record({ or: fc.array(tie('node'), { maxLength: 2 }) }),
      fc.record({ not: tie('node') }),
    ),
  }));
  return fc.array(node, { minLength: 1, maxLength: 2 }).map((list) => JSON.stringify(list));
}

/** Values of the assistant's string parameters that name things that exist. */
function assistantHints(fw: FuzzWorld): Record<string, string[]> {
  const flag = ['true', 'false'];
  return {
    model: ['general'], group: ['Knowledge', 'All'], language: ['en'], skill: ['fuzz', 'wikipedia'], stars: ['1', '3', '5'],
    staffPick: flag, reviewed: flag, editable: flag, fetchDetails: flag, count: ['1', '10'], duration: ['1', '30'],
    metrics: ['Games, Trivia and Accessories'], role: ['user', 'reviewer', 'operator', 'admin', 'superadmin'],
    user: fw.emails, login: fw.emails, password: [fw.world.cast.owner.password, 'wrong password'], storeName: ['theme'],
    value: ['dark'], content: ['hello'], changelog: ['fuzz'], callback: ['cb', 'jQuery1.handle'], feedback: ['nice'], force_local: ['true'],
  };
}

/** Arbitraries shared by the operations of a run (building them compiles schemas): key -> arbitrary. */
const built = new WeakMap<FuzzWorld, Map<string, fc.Arbitrary<string>>>();

function queryValueOf(op: Operation, parameter: Schema, fw: FuzzWorld, options: SchemaOptions): fc.Arbitrary<string> {
  const name = parameter.name as string;
  const key = `${op.primaryType ?? ''} ${name} ${JSON.stringify(parameter.schema)}`;
  const cache = built.get(fw) ?? built.set(fw, new Map()).get(fw)!;
  if (!cache.has(key)) cache.set(key, buildQueryValue(op, name, parameter.schema ?? { type: 'string' }, fw, options));
  return cache.get(key)!;
}

function buildQueryValue(op: Operation, name: string, schema: Schema, fw: FuzzWorld, options: SchemaOptions): fc.Arbitrary<string> {
  const fromSchema = arbitraryOf(schema, options).map(String);
  const info = op.primaryType ? resources.get(op.primaryType) : undefined;
  const fields = /^fields\[(.+)\]$/.exec(name)?.[1];
  if (fields) {
    const names = valuesOf(fields);
    return names.length ? fc.shuffledSubarray(names, { minLength: 1, maxLength: 3 }).map((l) => l.join(',')) : fromSchema;
  }
  if (name === 'filter') return filterOf(info ?? { attributes: {}, relationships: {} }, options);
  if (info && name === 'sort') return sortOf(info);
  if (info && name === 'include') return includeOf(info);
  const hints = assistantHints(fw)[name];
  return hints ? hinted(hints, fromSchema) : fromSchema;
}

function queryOf(op: Operation, fw: FuzzWorld, options: SchemaOptions): fc.Arbitrary<[string, string][]> {
  const entries = op.parameters
    .filter((p) => p.in === 'query' && p.name !== 'access_token')
    .map((p) => {
      const pair = queryValueOf(op, p, fw, options).map((v): [string, string][] => [[p.name, v]]);
      // Fieldsets are many: a few per request.
      return p.required ? pair : sometimes(pair, [], String(p.name).startsWith('fields[') ? 12 : 2);
    });
  return fc.tuple(...entries).map((lists) => lists.flat());
}

const FILE_NAMES = ['notes.txt', 'photo.png', 'archive.zip', 'ü ber.pdf', '../../etc/passwd', `${'n'.repeat(300)}.txt`, ''];

function filePart(name: string, fw: FuzzWorld): fc.Arbitrary<Part> {
  return fc.record({
    name: fc.constant(name),
    filename: fc.constantFrom(...FILE_NAMES),
    contentType: fc.constantFrom('application/octet-stream', 'image/png', 'text/plain', 'application/zip'),
    data: fc.oneof(fc.uint8Array({ maxLength: 64 }).map((a) => Buffer.from(a)), fc.constant(fw.png.bytes), fc.string({ maxLength: 32 })),
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
          ? fc.tuple(fc.constantFrom(name, `${name}[]`), fc.integer({ min: 1, max: 2 })).chain(([field, n]) => fc.array(filePart(field, fw), { minLength: n, maxLength: n }))
          : arbitraryOf(member, options).map((v) => [{ name, data: String(v) }]);
    return (s.required ?? []).includes(name) ? parts : sometimes(parts, [], 1);
  });
  return fc.tuple(...members).map((lists) => lists.flat());
}

/** POST /cms/createSkill.json documents its form in prose: an image, its name and where the skill is. */
function skillForm(fw: FuzzWorld): fc.Arbitrary<Body> {
  return fc
    .record({ imageName: fc.stringMatching(/^[a-z]{1,8}\.png$/), withImage: fc.boolean(), skill: fc.constantFrom('fuzz', 'new_skill') })
    .map(({ imageName, withImage, skill }) => ({
      kind: 'multipart' as const,
      parts: [
        ...(withImage ? [{ name: 'image', filename: imageName, contentType: 'image/png', data: fw.png.bytes }] : []),
        ...Object.entries({ image_name: imageName, model: 'general', group: 'Knowledge', language: 'en', skill }).map(([name, data]) => ({ name, data })),
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
    if (mediaType === 'multipart/form-data') return multipartOf(schema, fw, options).map((parts) => ({ kind: 'multipart', parts }));
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
    Object.fromEntries(pathParams.map((p) => [p.name as string, fc.constantFrom(...pathValues(fw, op.path, p.name)).map((v) => (p.name === 'path' ? v : encodeURIComponent(v)))])),
  );
  const caller = fc.oneof({ weight: 8, arbitrary: fc.constant<Caller>('super-admin') }, fc.constant<Caller>('user'), fc.constant<Caller>('anonymous'));
  return fc
    .record({ caller, tokenInQuery: fc.boolean(), path, query: queryOf(op, fw, options), body: bodyOf(op, fw, options) })
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
    const body = req.body?.kind === 'json' ? jsonText(req.body.value) : req.body?.kind === 'raw' ? req.body.text : req.body ? `multipart: ${req.body.parts.map((p) => p.name).join(', ')}` : '';
    const more = [req.broken, Object.keys(req.headers).length ? JSON.stringify(req.headers) : '', req.authorization ? `Authorization: ${req.authorization.slice(0, 40)}` : ''].filter(Boolean);
    return `${req.op.method} ${url.slice(0, 300)} as ${req.caller}${more.length ? ` [${more.join('; ')}]` : ''}${body ? ` ${body.slice(0, 300)}` : ''}`;
  };
  return Object.defineProperty(req, fc.toStringMethod, { value: describe, enumerable: false });
}

/** The Accept header a client of the operation sends: the media type of its successful answers. */
function acceptOf(op: Operation) {
  const types = Object.entries((op.spec.responses ?? {}) as Record<string, Schema>)
    .filter(([status]) => status.startsWith('2'))
    .flatMap(([, response]) => Object.keys(response.content ?? {}));
  return types.includes('application/vnd.api+json') ? 'application/vnd.api+json' : types.includes('application/json') ? 'application/json' : '*/*';
}

function jsonText(value: unknown) {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_key, v: unknown) => (v instanceof RawJson ? `\u0001raw:${raws.push(v.text) - 1}\u0001` : v));
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
  return { payload: Buffer.concat([...chunks, Buffer.from(`--${boundary}--\r\n`)]), type: `multipart/form-data; boundary=${boundary}` };
}

/** The request as `app.inject` takes it, with the callers' tokens. */
export function render(req: FuzzRequest, tokens: Record<Exclude<Caller, 'anonymous'>, string>): InjectOptions & { url: string; method: string } {
  const token = req.caller === 'anonymous' ? undefined : tokens[req.caller];
  const query = [...req.query];
  const headers: Record<string, string | undefined> = { accept: acceptOf(req.op) };
  if (token && req.tokenInQuery && req.op.parameters.some((p) => p.name === 'access_token')) query.push(['access_token', token]);
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
