/**
 * Broken variants of a valid request, one defect each: wrong types, missing and unknown members,
 * boundary numbers, huge strings, hostile unicode, malformed JSON, wrong media types, bad ids in the
 * path, bad query parameters and bad credentials. A defect is drawn as numbers (which node, which
 * value) so that fast-check shrinks it like any other value.
 */
import fc from 'fast-check';
import { resources } from './operations.js';
import { printable, RawJson, type FuzzRequest } from './requests.js';

const WRONG_VALUES: unknown[] = [1, 'text', true, null, [], {}, 1.5, [1], { type: 'x' }];
const UNKNOWN_MEMBERS = ['unknown', '__proto__', 'constructor', 'prototype', '', 'id ', 'Data', 'owner-id'];
const NUMBERS = [
  '0',
  '-1',
  '2147483648',
  '-2147483649',
  '9007199254740993',
  '1e309',
  '-1e309',
  '1e-400',
  '-0',
  '0.5',
  '1E2',
  'NaN',
  'Infinity',
  '"NaN"',
  '"1e309"',
  '0x10',
  '01',
];
const LONG = ['x'.repeat(100_000), '😀'.repeat(50_000), 'x'.repeat(1_100_000)];
const UNICODE = [
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  '😀',
  '\u202eevil',
  '\ufeffbom',
  '\uffff',
  'e\u0301',
  '𝕏'.repeat(300),
  '\u2028\u2029',
  '<script>alert(1)</script>',
  "'; drop table users; --",
  '../../etc/passwd',
  '%00',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a Log4Shell probe, sent as text on purpose
  '${jndi:ldap://x}',
  ' ',
  '',
];
const MEDIA_TYPES = [
  'text/plain',
  'application/json',
  'application/vnd.api+json',
  'application/vnd.api+json; charset=utf-8',
  'application/vnd.api+json; ext="https://x"',
  'application/json; charset=utf-16',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=zzz',
  'multipart/form-data',
  'application/xml',
  '*/*',
  'APPLICATION/VND.API+JSON',
  ';;;',
  'application/vnd.api+json, text/plain',
  undefined,
];
const ACCEPTS = [
  'text/html',
  'application/vnd.api+json; ext=x',
  'application/xml',
  'application/vnd.api+json;charset=utf-8',
  'image/png',
  ';',
  '*/*;q=0',
];
const BAD_IDS = [
  'abc',
  '-1',
  '0',
  '99999999999999999999',
  '%00',
  'x'.repeat(600),
  'x'.repeat(400),
  '1.5',
  '1e3',
  '%201',
  '0x1F',
  '%ZZ',
  '%',
  '..',
  '%2e%2e',
  '1%2F2',
  '%F0%9F%98%80',
  '%EF%BF%BF',
  'NaN',
  'Infinity',
  'null',
  '2147483648',
  '-0',
  '%D9%A1%D9%A2',
  '1%00',
  "1'",
  '%ED%A0%80',
];
const AUTHORIZATIONS = [
  'JWT abc',
  'Bearer ',
  'JWT',
  'Basic dXNlcjpwYXNz',
  'JWT eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.eyJzdWIiOjF9.',
  `JWT ${'a'.repeat(10_000)}`,
  'JWT a.b.c',
  'jwt  x',
  '\u00ff',
];
const RAW_QUERIES = ['%', '%ZZ=1', 'page[size]=%E0%A4%A', 'a=%00', '&&&', '=x', 'page%5Bsize%5D=0', 'sort=%ED%A0%80'];
const HOSTILE = [...UNICODE, '-1', '0', '1e309', 'NaN', '99999999999999999999', 'x'.repeat(20_000), 'true', '[]', '{}'];

/** Query defects: [parameter, value]; `$attr` and `$rel` stand for a name of the operation's resource. */
const LIST_QUERIES: [string, string][] = [
  ['page[size]', '0'],
  ['page[size]', '-1'],
  ['page[size]', '10001'],
  ['page[size]', 'abc'],
  ['page[size]', '1.5'],
  ['page[size]', ''],
  ['page[size]', '1e2'],
  ['page[number]', '0'],
  ['page[number]', '-1'],
  ['page[number]', 'abc'],
  ['page[number]', '99999999999999999999'],
  ['sort', 'unknown'],
  ['sort', '-'],
  ['sort', ','],
  ['sort', '--$attr'],
  ['sort', '$attr,,$attr'],
  ['sort', '-'.repeat(501)],
  ['sort', '$rel'],
  ['filter', 'not-json'],
  ['filter', '{}'],
  ['filter', 'null'],
  ['filter', '[1]'],
  ['filter', '[[]]'],
  ['filter', '[{"name":"nope","op":"eq","val":1}]'],
  ['filter', '[{"name":"$attr","op":"bogus","val":1}]'],
  ['filter', '[{"name":"$attr","op":"eq"}]'],
  ['filter', '[{"name":"$attr","op":"in","val":1}]'],
  ['filter', '[{"name":"$attr","op":"like","val":{"a":1}}]'],
  ['filter', '[{"name":"$attr","op":"lt","val":"not a date"}]'],
  ['filter', '[{"name":"$attr","op":"eq","val":"\u0000"}]'],
  ['filter', '[{"name":"$attr","op":"eq","val":1e308}]'],
  ['filter', '[{"or":{}}]'],
  ['filter', '[{"name":"$rel","op":"has","val":"x"}]'],
  ['filter', '[{"name":"$rel","op":"any","val":{"name":"nope","op":"eq","val":1}}]'],
  ['filter', '[{"name":"$attr","op":"eq","val":1,"extra":2}]'],
  ['filter', `${'[{"not":'.repeat(300)}{"name":"id","op":"eq","val":1}${'}]'.repeat(300)}`],
  ['filter', `[{"name":"$attr","op":"in","val":[${'1,'.repeat(5000)}1]}]`],
  ['filter', 'x'.repeat(10_001)],
];
const DOCUMENT_QUERIES: [string, string][] = [
  ['include', 'unknown'],
  ['include', '.'],
  ['include', '$rel..$rel'],
  ['include', '$rel.$rel.$rel.$rel.$rel'],
  ['include', ','],
  ['include', 'x'.repeat(501)],
  ['fields[$type]', 'unknown'],
  ['fields[$type]', ''],
  ['fields[nope]', 'x'],
  ['fields[$type]', '$attr,$attr'],
  ['unknown', 'x'],
  ['page', '1'],
  ['page[size][x]', '1'],
  ['filter[name]', 'x'],
  ['include[]', 'x'],
];

type Json = unknown;
interface Node {
  parent?: Record<string, Json> | Json[];
  key?: string | number;
  value: Json;
}

function nodesOf(value: Json, parent?: Node['parent'], key?: Node['key']): Node[] {
  const here: Node = { parent, key, value };
  if (Array.isArray(value)) return [here, ...value.flatMap((v, i) => nodesOf(v, value, i))];
  if (value && typeof value === 'object' && !(value instanceof RawJson)) {
    return [here, ...Object.entries(value).flatMap(([k, v]) => nodesOf(v, value as Record<string, Json>, k))];
  }
  return [here];
}

const typeOf = (v: Json) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/** `value` with the node at `node` replaced (the root when it has no parent). */
function replaceAt(root: Json, node: Node, value: Json): Json {
  if (!node.parent) return value;
  (node.parent as Record<string, Json>)[node.key as string] = value;
  return root;
}

const pick = <T>(list: readonly T[], n: number) => list[n % list.length]!;

export interface Defect {
  kind: string;
  /** Which node, parameter or header. */
  at: number;
  /** Which value. */
  choice: number;
}

const KINDS = [
  'wrong-type',
  'missing-member',
  'unknown-member',
  'boundary-number',
  'long-string',
  'unicode',
  'malformed-json',
  'media-type',
  'accept',
  'bad-id',
  'bad-query',
  'raw-query',
  'bad-auth',
] as const;

/** Defects of a JSON body: a request without one gets a bad query parameter instead. */
const BODY_KINDS = new Set<string>([
  'wrong-type',
  'missing-member',
  'unknown-member',
  'boundary-number',
  'long-string',
  'unicode',
]);

export const defectArbitrary: fc.Arbitrary<Defect> = fc.record({
  kind: fc.constantFrom(...KINDS),
  at: fc.nat(),
  choice: fc.nat(),
});

/** The request with one defect; a defect that does not apply to it (no body, no path parameter) falls back to a bad query. */
export function applyDefect(valid: FuzzRequest, defect: Defect): FuzzRequest {
  const req: FuzzRequest = structuredClone({ ...valid, op: undefined }) as unknown as FuzzRequest;
  req.op = valid.op;
  const { at, choice } = defect;
  const json = req.body?.kind === 'json' ? req.body : undefined;
  const pathNames = Object.keys(req.path);
  const kind = json || !BODY_KINDS.has(defect.kind) ? defect.kind : 'bad-query';
  const label = (what: string) => (req.broken = `${kind}: ${what}`);
  switch (kind) {
    case 'wrong-type': {
      const node = pick(nodesOf(json!.value), at);
      const value = pick(
        WRONG_VALUES.filter((v) => typeOf(v) !== typeOf(node.value)),
        choice,
      );
      json!.value = replaceAt(json!.value, node, structuredClone(value));
      label(`${JSON.stringify(value)} at ${String(node.key ?? '(root)')}`);
      break;
    }
    case 'missing-member': {
      const members = nodesOf(json!.value).filter((n) => n.parent && !Array.isArray(n.parent));
      if (members.length === 0) return applyDefect(valid, { ...defect, kind: 'wrong-type' });
      const node = pick(members, at);
      delete (node.parent as Record<string, Json>)[node.key as string];
      label(`without ${String(node.key)}`);
      break;
    }
    case 'unknown-member': {
      const objects = nodesOf(json!.value).filter(
        (n) => n.value && typeof n.value === 'object' && !Array.isArray(n.value) && !(n.value instanceof RawJson),
      );
      if (objects.length === 0) return applyDefect(valid, { ...defect, kind: 'wrong-type' });
      const name = pick(UNKNOWN_MEMBERS, choice);
      Object.defineProperty(pick(objects, at).value, name, {
        value: { x: 1 },
        enumerable: true,
        configurable: true,
        writable: true,
      });
      label(`member ${JSON.stringify(name)}`);
      break;
    }
    case 'boundary-number':
    case 'long-string':
    case 'unicode': {
      const leaves = nodesOf(json!.value).filter((n) => n.value === null || typeof n.value !== 'object');
      const node = pick(leaves.length ? leaves : nodesOf(json!.value), at);
      const value =
        defect.kind === 'boundary-number'
          ? new RawJson(pick(NUMBERS, choice))
          : pick(defect.kind === 'long-string' ? LONG : UNICODE, choice);
      json!.value = replaceAt(json!.value, node, value);
      label(
        `${value instanceof RawJson ? value.text : JSON.stringify(value.slice(0, 20))}${typeof value === 'string' && value.length > 20 ? `... (${value.length})` : ''} at ${String(node.key ?? '(root)')}`,
      );
      break;
    }
    case 'malformed-json': {
      const text = json ? (JSON.stringify(json.value) ?? '') : '{"data":{"type":"x"}}';
      const variants = [
        text.slice(0, at % Math.max(1, text.length)),
        text.replace(/}$/, ',}'),
        '[]',
        'null',
        '""',
        '1',
        '{',
        '',
        'true',
        `\ufeff${text}`,
        '{"data":1,"data":2}',
        `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
        `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`,
        "{'data':1}",
        text.replace(/"/, '“'),
      ];
      req.body = { kind: 'raw', mediaType: json?.mediaType ?? 'application/json', text: pick(variants, choice) };
      label(`body ${JSON.stringify(req.body.text.slice(0, 30))}`);
      break;
    }
    case 'media-type': {
      const type = pick(MEDIA_TYPES, choice);
      req.body ??= { kind: 'raw', text: '{}' };
      req.headers['content-type'] = type;
      label(`Content-Type ${String(type)}`);
      break;
    }
    case 'accept':
      req.headers.accept = pick(ACCEPTS, choice);
      label(`Accept ${req.headers.accept}`);
      break;
    case 'bad-id': {
      if (pathNames.length === 0) return applyDefect(valid, { ...defect, kind: 'bad-query' });
      const name = pick(pathNames, at);
      req.path[name] = pick(BAD_IDS, choice);
      label(`{${name}} = ${req.path[name]!.slice(0, 30)}`);
      break;
    }
    case 'raw-query':
      req.rawQuery = pick(RAW_QUERIES, choice);
      label(`query ${req.rawQuery}`);
      break;
    case 'bad-auth':
      req.authorization = pick(AUTHORIZATIONS, choice);
      if (at % 2 === 0) req.query.push(['access_token', req.authorization.replace(/^\S+ ?/, '')]);
      label(`Authorization ${req.authorization.slice(0, 30)}`);
      break;
    default: {
      const [name, value] = badQuery(req, at, choice);
      req.query = [...req.query.filter(([n]) => n !== name || at % 3 === 0), [name, value]];
      label(`${name}=${value.slice(0, 40)}`);
    }
  }
  return printable(req);
}

/** A bad query parameter for the operation: JSON:API ones for JSON:API routes, hostile values of its own otherwise. */
function badQuery(req: FuzzRequest, at: number, choice: number): [string, string] {
  const names = req.op.parameters.filter((p) => p.in === 'query').map((p) => p.name as string);
  const isList = names.includes('page[size]');
  const info = req.op.primaryType ? resources.get(req.op.primaryType) : undefined;
  if (info) {
    const pool = isList ? [...LIST_QUERIES, ...DOCUMENT_QUERIES] : DOCUMENT_QUERIES;
    const attrs = Object.keys(info.attributes);
    const rels = Object.keys(info.relationships);
    const fill = (s: string) =>
      s
        .replaceAll('$attr', pick(attrs.length ? attrs : ['id'], at))
        .replaceAll('$rel', pick(rels.length ? rels : ['nope'], at))
        .replaceAll('$type', req.op.primaryType!);
    const [name, value] = pick(pool, choice);
    return [fill(name), fill(value)];
  }
  if (names.length === 0 || at % 4 === 0)
    return [pick(['unknown', 'page[size]', 'filter', '__proto__', 'access_token'], at), pick(HOSTILE, choice)];
  return [pick(names, at), pick(HOSTILE, choice)];
}
