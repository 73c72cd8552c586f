/**
 * The OpenAPI document without its repetitions, nothing lost: the bracketed query parameters of an operation
 * (`fields[event]`, `page[size]`) become one deepObject parameter each (`fields`, `page`), which is how they
 * are sent on the wire; parameters and responses that several operations declare alike are declared once under
 * `components` and referenced.
 */
import { STATUS_CODES } from 'node:http';

type Json = Record<string, unknown>;
interface Parameter {
  name: string;
  in: string;
  description?: string;
  required?: boolean;
  schema?: Json;
}
interface Operation {
  parameters?: (Parameter | { $ref: string })[];
  responses?: Record<string, Json>;
}
interface Document {
  paths?: Record<string, Record<string, unknown> | undefined>;
  components?: Json;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const BRACKETED = /^([^[\]]+)\[([^[\]]+)\]$/;

/**
 * The query parameters `base[key]` of one operation as one parameter `base`: an object of the keys, each
 * with its own schema and description, serialized as `base[key]=value` (deepObject). A base that is also
 * a parameter of its own is left as it is.
 */
function groupBracketed(parameters: Parameter[]): Parameter[] {
  const groups = new Map<string, Parameter[]>();
  for (const p of parameters) {
    const base = p.in === 'query' ? BRACKETED.exec(p.name)?.[1] : undefined;
    if (base !== undefined) groups.set(base, [...(groups.get(base) ?? []), p]);
  }
  for (const base of groups.keys()) if (parameters.some((p) => p.name === base)) groups.delete(base);
  const grouped: Parameter[] = [];
  for (const p of parameters) {
    const base = BRACKETED.exec(p.name)?.[1];
    const members = base === undefined ? undefined : groups.get(base);
    if (!members) grouped.push(p);
    else if (members[0] === p) {
      const keyOf = (member: Parameter) => BRACKETED.exec(member.name)![2]!;
      const required = members.filter((m) => m.required).map(keyOf);
      grouped.push({
        name: base!,
        in: 'query',
        description: `Sent as \`${base}[<key>]=<value>\`, one query parameter per key of this object`,
        required: required.length > 0,
        style: 'deepObject',
        explode: true,
        schema: {
          type: 'object',
          properties: Object.fromEntries(
            members.map((m) => [keyOf(m), { ...m.schema, ...(m.description ? { description: m.description } : {}) }]),
          ),
          ...(required.length > 0 ? { required } : {}),
          additionalProperties: false,
        },
      } as Parameter);
    }
  }
  return grouped;
}

/**
 * Values that more than one operation declares alike go to `components[section]` under readable names and
 * are referenced: the most common variant of a name takes the name itself, the others a suffix
 * (`variantName`, then a number). `slots` are every place such a value sits.
 */
function share(
  document: Document,
  section: 'parameters' | 'responses',
  slots: { owner: Record<string | number, unknown>; key: string | number; base: string; variant: string }[],
) {
  // A value is the same as another under the same base only (the same response may be a 400 and a 422).
  const textOf = (slot: (typeof slots)[number]) => `${slot.base} ${JSON.stringify(slot.owner[slot.key])}`;
  const count = new Map<string, number>();
  for (const slot of slots) count.set(textOf(slot), (count.get(textOf(slot)) ?? 0) + 1);
  // The texts of each base, most common first (ties: first seen), and their names.
  const byBase = new Map<string, { text: string; variant: string }[]>();
  for (const slot of slots) {
    const text = textOf(slot);
    const list = byBase.get(slot.base) ?? byBase.set(slot.base, []).get(slot.base)!;
    if (count.get(text)! > 1 && !list.some((v) => v.text === text)) list.push({ text, variant: slot.variant });
  }
  const names = new Map<string, string>();
  const taken = new Set<string>();
  for (const [base, variants] of byBase) {
    variants.sort((a, b) => count.get(b.text)! - count.get(a.text)!);
    for (const { text, variant } of variants) {
      const name = variant === variants[0]!.variant ? base : `${base}${variant}`;
      let unique = name;
      for (let n = 2; taken.has(unique); n++) unique = `${name}${n}`;
      taken.add(unique);
      names.set(text, unique);
    }
  }
  if (names.size === 0) return;
  const components = (document.components ??= {});
  const shared: Json = {};
  for (const [text, name] of [...names].sort(([, a], [, b]) => (a < b ? -1 : 1)))
    shared[name] = JSON.parse(text.slice(text.indexOf(' ') + 1));
  components[section] = { ...(components[section] as Json | undefined), ...shared };
  for (const slot of slots) {
    const name = names.get(textOf(slot));
    if (name !== undefined) slot.owner[slot.key] = { $ref: `#/components/${section}/${name}` };
  }
}

/** `Not Found` -> `NotFound`; a status Node does not name, `Status420`. */
const reasonName = (status: string) =>
  STATUS_CODES[status]?.replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase()) ??
  `Status${status}`;

/** The component a response's first media type names (`AssistantFailure`), or '' for none. */
const schemaNameOf = (response: Json) => {
  const first = Object.values((response.content ?? {}) as Record<string, { schema?: { $ref?: string } }>)[0];
  return first?.schema?.$ref?.split('/').pop() ?? '';
};

/** The document with its bracketed parameters grouped and its repeated parameters and responses shared. */
export function compactDocument<D extends { paths?: object; components?: object }>(openapi: D): D {
  const document = openapi as Document;
  const operations = Object.values(document.paths ?? {}).flatMap((item) =>
    METHODS.flatMap((method) => (item?.[method] ? [item[method] as Operation] : [])),
  );
  for (const op of operations) if (op.parameters) op.parameters = groupBracketed(op.parameters as Parameter[]);
  share(
    document,
    'parameters',
    operations.flatMap((op) =>
      (op.parameters ?? []).map((p, key) => ({
        owner: op.parameters as unknown as Record<number, unknown>,
        key,
        base: (p as Parameter).name.replace(/[^A-Za-z0-9._-]/g, '_'),
        variant: `_${(p as Parameter).in}`,
      })),
    ),
  );
  // Failures (and 304) are named after their status (`NotFound`), success answers after their body's schema
  // (`SessionListDocument`, `EventDocument201` for a 201 when a 200 took the name).
  share(
    document,
    'responses',
    operations.flatMap((op) =>
      Object.entries(op.responses ?? {}).map(([status, response]) => {
        const schema = schemaNameOf(response);
        const success = status.startsWith('2') && schema !== '';
        return {
          owner: op.responses!,
          key: status,
          base: success ? schema : reasonName(status),
          variant: success ? status : schema,
        };
      }),
    ),
  );
  return openapi;
}
