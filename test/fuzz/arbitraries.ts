/**
 * fast-check arbitraries built from the JSON Schemas of openapi/openapi.json: values a client may send
 * (every keyword the document uses, and the common ones it may come to use), kept small so that
 * thousands of requests stay fast. Resource identifiers `{type, id}` take the ids of records that
 * exist, so valid requests get past the lookups into the code that writes.
 */
import fc from 'fast-check';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { canonicalTimeZone } from '../../src/jsonapi/index.js';

/** A JSON Schema as the document holds it. */
export type Schema = Record<string, any>;
export interface OpenApiDocument {
  paths: Record<string, Record<string, Schema>>;
  components: {
    schemas: Record<string, Schema>;
    parameters?: Record<string, Schema>;
    responses?: Record<string, Schema>;
  };
}

export interface SchemaOptions {
  document: OpenApiDocument;
  /** Ids of existing records of a JSON:API type (empty: any id). */
  idsOf?: (type: string) => readonly string[];
  /** Member names never generated, with the reason at the caller. */
  omit?: ReadonlySet<string>;
  /** Component name -> the values to use instead of its schema's (to reach past checks a schema cannot state). */
  overrides?: Record<string, fc.Arbitrary<unknown>>;
}

/** Longest string and array a valid value has unless the schema asks for more: requests stay small. */
const SMALL_STRING = 16;
const SMALL_ARRAY = 3;
const MAX_DEPTH = 12;

/** Time zones that exist in every runtime, with and without daylight saving and odd offsets. */
const TIME_ZONES = [
  'UTC',
  'Europe/Berlin',
  'Asia/Kolkata',
  'America/New_York',
  'Pacific/Chatham',
  'Australia/Adelaide',
  'Etc/GMT+5',
];

/** Hosts that never leave this machine: reserved names (RFC 2606) and loopback ports nothing listens on. */
const SAFE_HOSTS = [
  'example.invalid',
  'media.example.invalid',
  'xn--bcher-kva.example.invalid',
  '127.0.0.1:9',
  '[::1]:9',
];

let checker: Ajv2020 | undefined;
/** Ajv with the formats the service knows, to keep only the values a leaf schema accepts. */
function ajv() {
  if (checker) return checker;
  checker = new Ajv2020({ strict: false, validateFormats: true });
  addFormats.default(checker);
  checker.addFormat('iana-timezone', (name: string) => canonicalTimeZone(name) !== undefined);
  return checker;
}
const validators = new Map<string, (value: unknown) => boolean>();
/** A check of `schema`, compiled once per distinct schema (compiling is what costs). */
const accepts = (schema: Schema) => {
  const key = JSON.stringify(schema);
  let check = validators.get(key);
  if (!check) {
    const validate = ajv().compile(schema);
    check = (value) => validate(value) as boolean;
    validators.set(key, check);
  }
  return check;
};

/** What a `$ref` (to `#/components/schemas/...`, `.../parameters/...` or `.../responses/...`) names, followed until it is not a reference. */
export function resolve(document: OpenApiDocument, schema: Schema): Schema {
  let current = schema;
  for (let hops = 0; current.$ref !== undefined; hops++) {
    const [, section, name] = /^#\/components\/(schemas|parameters|responses)\/(.+)$/.exec(current.$ref) ?? [];
    const target =
      name === undefined ? undefined : document.components[section as 'schemas' | 'parameters' | 'responses']?.[name];
    if (!target || hops > 20) throw new Error(`unresolvable $ref ${current.$ref}`);
    current = target;
  }
  return current;
}

/** allOf as one schema: members and requirements added up, other keywords of the later parts win. */
function mergeAllOf(document: OpenApiDocument, schema: Schema): Schema {
  const { allOf, ...rest } = schema;
  return (allOf as Schema[])
    .map((part) => resolve(document, part))
    .reduce(
      (merged, part) => ({
        // biome-ignore lint/performance/noAccumulatingSpread: a handful of parts, each merged once
        ...merged,
        ...part,
        properties: { ...merged.properties, ...part.properties },
        required: [...(merged.required ?? []), ...(part.required ?? [])],
      }),
      rest,
    );
}

const isoDateTime = fc
  .date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true })
  .chain((date) =>
    fc.constantFrom(
      date.toISOString(),
      date.toISOString().replace(/\.\d{3}Z$/, 'Z'),
      // The same instant written with an offset, as clients in other zones send it.
      new Date(date.getTime() + 5.5 * 3600_000).toISOString().replace(/\.\d{3}Z$/, '+05:30'),
    ),
  );

const safeUrl = fc
  .tuple(
    fc.constantFrom('http', 'https'),
    fc.constantFrom(...SAFE_HOSTS),
    fc.webPath({ size: 'xsmall' }),
    fc.option(fc.webQueryParameters({ size: 'xsmall' })),
  )
  .map(([scheme, host, path, query]) => `${scheme}://${host}${path}${query ? `?${query}` : ''}`);

/** Text of every kind: mostly printable ASCII, sometimes any code point (NUL, controls, astral). */
const textUnit = fc.oneof(
  { weight: 4, arbitrary: fc.constant('grapheme-ascii' as const) },
  { weight: 1, arbitrary: fc.constant('binary' as const) },
);

/** Strings a pattern matches; fast-check cannot generate from lookarounds, so they are left out here and checked after. */
function matching(pattern: string): fc.Arbitrary<string> {
  let source = pattern;
  for (let at = source.search(/\(\?<?[=!]/); at >= 0; at = source.search(/\(\?<?[=!]/)) {
    let depth = 0;
    let end = at;
    for (; end < source.length; end++) {
      if (source[end] === '\\') end++;
      else if (source[end] === '(') depth++;
      else if (source[end] === ')' && --depth === 0) break;
    }
    source = source.slice(0, at) + source.slice(end + 1);
  }
  return fc.stringMatching(new RegExp(source, 'u'), { size: 'xsmall' });
}

function stringOf(schema: Schema): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = Math.min(schema.maxLength ?? Number.MAX_SAFE_INTEGER, Math.max(min, SMALL_STRING));
  let base: fc.Arbitrary<string>;
  switch (schema.format) {
    case 'date-time':
      base = isoDateTime;
      break;
    case 'date':
      base = isoDateTime.map((s) => s.slice(0, 10));
      break;
    case 'email':
      base = fc.emailAddress({ size: 'xsmall' });
      break;
    case 'uri':
    case 'url':
      base = safeUrl;
      break;
    case 'uuid':
      base = fc.uuid();
      break;
    case 'iana-timezone':
      base = fc.constantFrom(...TIME_ZONES);
      break;
    default:
      base = schema.pattern
        ? matching(schema.pattern)
        : textUnit.chain((unit) => fc.string({ unit, minLength: min, maxLength: max }));
  }
  const { description: _d, default: _default, readOnly: _r, writeOnly: _w, type: _t, ...constraints } = schema;
  return base.filter(accepts({ ...constraints, type: 'string' }));
}

function numberOf(schema: Schema, integer: boolean): fc.Arbitrary<number> {
  const low = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum : undefined);
  const high = schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum : undefined);
  let arb: fc.Arbitrary<number>;
  if (integer) {
    const min =
      low === undefined
        ? -(2 ** 31)
        : Math.ceil(low) + (schema.exclusiveMinimum !== undefined && Number.isInteger(low) ? 1 : 0);
    const max =
      high === undefined
        ? 2 ** 31 - 1
        : Math.floor(high) - (schema.exclusiveMaximum !== undefined && Number.isInteger(high) ? 1 : 0);
    arb = fc.integer({ min, max });
  } else {
    arb = fc.double({
      min: low,
      max: high,
      minExcluded: schema.exclusiveMinimum !== undefined,
      maxExcluded: schema.exclusiveMaximum !== undefined,
      noNaN: true,
      noDefaultInfinity: true,
    });
  }
  if (schema.multipleOf !== undefined)
    arb = arb.map((n) => Math.round(n / schema.multipleOf) * schema.multipleOf).filter(accepts(schema));
  return arb;
}

/** A value valid against `schema` (as ajv would judge it), small. */
export function arbitraryOf(schema: Schema, options: SchemaOptions, depth = 0): fc.Arbitrary<unknown> {
  if (depth > MAX_DEPTH) throw new Error('schema nested too deep to generate');
  const { document } = options;
  const component = /^#\/components\/schemas\/(.+)$/.exec(schema.$ref ?? '')?.[1];
  if (component && options.overrides?.[component]) return options.overrides[component]!;
  let s = resolve(document, schema);
  if (s.allOf) s = mergeAllOf(document, s);
  const next = (child: Schema) => arbitraryOf(child, options, depth + 1);
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...(s.enum as unknown[]));
  if (s.anyOf || s.oneOf) {
    const { anyOf, oneOf, ...shared } = s;
    return fc.oneof(
      ...((anyOf ?? oneOf) as Schema[]).map((branch) => next({ ...shared, ...resolve(document, branch) })),
    );
  }
  const types: string[] = [s.type ?? guessType(s)].flat();
  if (s.nullable === true) types.push('null');
  if (types.length > 1) return fc.oneof(...types.map((type) => next({ ...s, type, nullable: false })));
  switch (types[0]) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return numberOf(s, true);
    case 'number':
      return numberOf(s, false);
    case 'string':
      return stringOf(s);
    case 'array': {
      const minLength = s.minItems ?? 0;
      const maxLength = Math.min(s.maxItems ?? Number.MAX_SAFE_INTEGER, Math.max(minLength, SMALL_ARRAY));
      const items = s.items ? next(s.items) : fc.jsonValue({ maxDepth: 1 });
      return s.uniqueItems
        ? fc.uniqueArray(items, { minLength, maxLength, selector: (v) => JSON.stringify(v) })
        : fc.array(items, { minLength, maxLength });
    }
    case 'object':
      return objectOf(s, options, next);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** The type a schema without `type` implies by its keywords, or undefined for "anything". */
function guessType(s: Schema): string | undefined {
  if (s.properties || s.required || s.additionalProperties !== undefined) return 'object';
  if (s.items) return 'array';
  if (s.pattern || s.format || s.minLength !== undefined || s.maxLength !== undefined) return 'string';
  if (s.minimum !== undefined || s.maximum !== undefined) return 'number';
  return undefined;
}

function objectOf(
  s: Schema,
  options: SchemaOptions,
  next: (child: Schema) => fc.Arbitrary<unknown>,
): fc.Arbitrary<unknown> {
  const required = new Set<string>(s.required ?? []);
  const members: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, raw] of Object.entries((s.properties ?? {}) as Record<string, Schema>)) {
    const child = resolve(options.document, raw);
    if (options.omit?.has(name) || (child.readOnly && !required.has(name))) continue;
    members[name] = next(child);
  }
  // A resource identifier: an existing record of its type, sometimes any id the schema allows.
  const type = resolve(options.document, s.properties?.type ?? {}).enum;
  const ids = type?.length === 1 && members.id ? (options.idsOf?.(type[0]) ?? []) : [];
  if (ids.length > 0)
    members.id = fc.oneof({ weight: 9, arbitrary: fc.constantFrom(...ids) }, { weight: 1, arbitrary: members.id! });
  const record = fc.record(members, { requiredKeys: Object.keys(members).filter((k) => required.has(k)) });
  const extra = s.additionalProperties;
  if (!extra || typeof extra !== 'object' || Object.keys(extra).length === 0) return record;
  const more = fc.dictionary(
    fc.string({ minLength: 1, maxLength: 8 }).filter((k) => !(k in members)),
    next(extra),
    { maxKeys: 2 },
  );
  return fc.tuple(record, more).map(([known, added]) => ({ ...added, ...known }));
}
