/**
 * Query parameters of valid requests: JSON:API sort, filter, include and fields from the attributes and
 * relationships of the operation's resource, the assistant's parameters naming things that exist, and
 * anything else from its schema.
 */
import fc from 'fast-check';
import { arbitraryOf, type Schema, type SchemaOptions } from './arbitraries.js';
import { resources, type Operation, type ResourceInfo } from './operations.js';
import type { FuzzWorld } from './world.js';

const FILTER_OPS = ['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'like', 'ilike'];

export const sometimes = <T>(arb: fc.Arbitrary<T>, none: T, weight = 2) =>
  fc.oneof({ weight, arbitrary: fc.constant(none) }, { weight: 1, arbitrary: arb });
export const hinted = (values: readonly string[], schema: fc.Arbitrary<string>) =>
  fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...values) }, { weight: 1, arbitrary: schema });

const valuesOf = (type: string) => {
  const info = resources.get(type);
  return info ? [...Object.keys(info.attributes), ...Object.keys(info.relationships)] : [];
};

function sortOf(info: ResourceInfo) {
  const keys = fc.tuple(fc.boolean(), fc.constantFrom('id', ...Object.keys(info.attributes)));
  return fc
    .array(keys, { minLength: 1, maxLength: 2 })
    .map((list) => list.map(([down, key]) => `${down ? '-' : ''}${key}`).join(','));
}

function includeOf(info: ResourceInfo) {
  const names = Object.keys(info.relationships);
  if (names.length === 0) return fc.constant('');
  const path = fc.constantFrom(...names).chain((name) => {
    const below = Object.keys(resources.get(info.relationships[name]!)?.relationships ?? {});
    return below.length === 0
      ? fc.constant(name)
      : sometimes(
          fc.constantFrom(...below).map((b) => `${name}.${b}`),
          name,
          1,
        );
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
      fc.record({
        name: fc.constant(name),
        op: fc.constantFrom('in', 'notin'),
        val: fc.array(value, { maxLength: 3 }),
      }),
      fc.record({ name: fc.constant(name), op: fc.constantFrom('is_', 'isnot'), val: fc.constant(null) }),
    );
  });
  const relations = Object.entries(info.relationships);
  const related: fc.Arbitrary<unknown>[] =
    relations.length === 0
      ? []
      : [
          fc.constantFrom(...relations).chain(([name, target]) =>
            fc.record({
              name: fc.constant(name),
              op: fc.constantFrom('has', 'any'),
              val: fc.record({
                name: fc.constantFrom('id', ...Object.keys(resources.get(target)?.attributes ?? {})),
                op: fc.constant('eq'),
                val: fc.constantFrom(...(options.idsOf?.(target) ?? ['1'])),
              }),
            }),
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

/** Values of string parameters (mostly the assistant's) that name things that exist or that the route needs. */
function parameterHints(fw: FuzzWorld): Record<string, string[]> {
  const flag = ['true', 'false'];
  return {
    model: ['general'],
    group: ['Knowledge', 'All'],
    language: ['en'],
    skill: ['fuzz', 'wikipedia'],
    stars: ['1', '3', '5'],
    staffPick: flag,
    reviewed: flag,
    editable: flag,
    fetchDetails: flag,
    count: ['1', '10'],
    duration: ['1', '30'],
    metrics: ['Games, Trivia and Accessories'],
    role: ['user', 'reviewer', 'operator', 'admin', 'superadmin'],
    user: fw.emails,
    login: fw.emails,
    password: [fw.world.cast.owner.password, 'wrong password'],
    storeName: ['theme'],
    value: ['dark'],
    content: ['hello'],
    changelog: ['fuzz'],
    callback: ['cb', 'jQuery1.handle'],
    feedback: ['nice'],
    force_local: ['true'],
    // The badge print: a ticket holder of the world (its ticket wears the world's badge, door.ts) and fields to show.
    attendee_id: fw.ids.get('attendee') ?? ['1'],
    list_field_show: ['firstname,lastname', "'email, name'"],
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

function buildQueryValue(
  op: Operation,
  name: string,
  schema: Schema,
  fw: FuzzWorld,
  options: SchemaOptions,
): fc.Arbitrary<string> {
  const fromSchema = arbitraryOf(schema, options).map(String);
  const info = op.primaryType ? resources.get(op.primaryType) : undefined;
  const fields = /^fields\[(.+)\]$/.exec(name)?.[1];
  if (fields) {
    const names = valuesOf(fields);
    return names.length
      ? fc.shuffledSubarray(names, { minLength: 1, maxLength: Math.min(3, names.length) }).map((l) => l.join(','))
      : fromSchema;
  }
  if (name === 'filter') return filterOf(info ?? { attributes: {}, relationships: {} }, options);
  if (info && name === 'sort') return sortOf(info);
  if (info && name === 'include') return includeOf(info);
  const hints = parameterHints(fw)[name];
  return hints ? hinted(hints, fromSchema) : fromSchema;
}

/** The query of a valid request: the required parameters, and each optional one now and then. */
export function queryOf(op: Operation, fw: FuzzWorld, options: SchemaOptions): fc.Arbitrary<[string, string][]> {
  const entries = op.parameters
    .filter((p) => p.in === 'query' && p.name !== 'access_token')
    .map((p) => {
      const pair = queryValueOf(op, p, fw, options).map((v): [string, string][] => [[p.name, v]]);
      // Fieldsets are many: a few per request. The hinted parameters are optional in their schemas but
      // most are needed to get anywhere: every other request has each.
      const weight = String(p.name).startsWith('fields[') ? 12 : parameterHints(fw)[p.name] ? 1 : 2;
      return p.required ? pair : sometimes(pair, [], weight);
    });
  return fc.tuple(...entries).map((lists) => lists.flat());
}
