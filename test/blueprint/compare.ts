/**
 * Whether our answer holds what an example response shows. Dredd (through Gavel) checked the keys of an
 * example's JSON body; this checks the same and a little more:
 * - every member the example shows is in our answer, recursively (for an array, the members of its first
 *   element are looked for in our first element, which must exist);
 * - resource objects: `type` equal, `id` present, every attribute and relationship name present (the contents of
 *   a relationship are not compared: the examples' links are of the reference's URL scheme);
 * - values: `type`s, `jsonapi.version`, `meta.message`, and each attribute whose value the example response echoes
 *   from the example request (what the client wrote must come back); never ids, timestamps or generated values.
 * A member that names a later issue's resource (WAITING_MEMBERS) is reported apart and fails nothing.
 */
import { waitingMember } from './expectations.js';

export interface Finding {
  path: string;
  problem: string;
}

export interface Comparison {
  missing: Finding[];
  /** `path (issue N)` of members that wait for a later issue. */
  waiting: string[];
}

const TIMESTAMP = /(-at|-times?|-date|^date|-time|birth-date)$/;
const ID = /(^id$|-id$|identifier$|hash$|^token$)/;

function isResource(value: unknown): value is Record<string, unknown> {
  return (
    !!value &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    typeof (value as Record<string, unknown>).type === 'string' &&
    ('attributes' in value || 'relationships' in value)
  );
}

const asDate = (v: unknown) => (typeof v === 'string' && /^\d{4}-\d\d-\d\d/.test(v) ? Date.parse(v) : Number.NaN);

/** Equal as a client would read them: same JSON, same text ("false" and false, "12.5" and 12.5) or same instant. */
export function looselyEqual(a: unknown, b: unknown): boolean {
  if (JSON.stringify(a) === JSON.stringify(b)) return true;
  if (a === null || b === null || typeof a === 'object' || typeof b === 'object') return false;
  if (String(a) === String(b)) return true;
  if (Number(a) === Number(b) && String(a).trim() !== '' && String(b).trim() !== '') return true;
  const [x, y] = [asDate(a), asDate(b)];
  return !Number.isNaN(x) && x === y;
}

const show = (v: unknown) => {
  const s = JSON.stringify(v);
  return s === undefined ? 'nothing' : s.length > 60 ? `${s.slice(0, 57)}...` : s;
};

export function compareBodies(expected: unknown, ours: unknown, requestBody: unknown): Comparison {
  const result: Comparison = { missing: [], waiting: [] };
  const sent = (requestBody as { data?: { attributes?: Record<string, unknown> } } | undefined)?.data?.attributes ?? {};
  const miss = (path: string, problem: string) => result.missing.push({ path, problem });

  const resource = (exp: Record<string, unknown>, got: Record<string, unknown>, path: string, primary: boolean) => {
    if (got.type !== exp.type) miss(`${path}.type`, `is ${show(got.type)}, the example's ${show(exp.type)}`);
    if ('id' in exp && typeof got.id !== 'string') miss(`${path}.id`, 'missing');
    const type = String(exp.type);
    for (const part of ['attributes', 'relationships'] as const) {
      const e = exp[part] as Record<string, unknown> | undefined;
      if (!e) continue;
      const g = (got[part] ?? {}) as Record<string, unknown>;
      for (const name of Object.keys(e)) {
        if (!(name in g)) {
          const later = waitingMember(type, name);
          if (later) result.waiting.push(`${path}.${part}.${name} (issue ${later.issue})`);
          else miss(`${path}.${part}.${name}`, 'missing');
          continue;
        }
        if (part !== 'attributes' || !primary || !(name in sent)) continue;
        if (TIMESTAMP.test(name) || ID.test(name) || !looselyEqual(sent[name], e[name])) continue;
        if (!looselyEqual(g[name], e[name]))
          miss(`${path}.attributes.${name}`, `is ${show(g[name])}, sent and shown as ${show(e[name])}`);
      }
    }
    for (const [name, value] of Object.entries(exp))
      if (!['type', 'id', 'attributes', 'relationships'].includes(name))
        walk(value, got[name], `${path}.${name}`, name in got);
  };

  const walk = (exp: unknown, got: unknown, path: string, present = true, primary = false) => {
    if (!present) return miss(path, 'missing');
    if (Array.isArray(exp)) {
      if (!Array.isArray(got)) return miss(path, `is ${show(got)}, the example's an array`);
      if (exp.length && !got.length) return miss(`${path}[0]`, `missing (the example has ${exp.length})`);
      if (exp.length) walk(exp[0], got[0], `${path}[0]`);
      return;
    }
    if (!exp || typeof exp !== 'object') return;
    if (!got || typeof got !== 'object' || Array.isArray(got))
      return miss(path, `is ${show(got)}, the example's an object`);
    const g = got as Record<string, unknown>;
    if (isResource(exp)) return resource(exp, g, path, primary);
    for (const [name, value] of Object.entries(exp))
      walk(value, g[name], `${path}.${name}`, name in g, primary && name === 'data');
  };

  walk(expected, ours, '', true, true);
  const e = expected as Record<string, any> | undefined;
  const o = ours as Record<string, any> | undefined;
  for (const [path, value] of [
    ['.jsonapi.version', e?.jsonapi?.version],
    ['.meta.message', e?.meta?.message],
  ] as const) {
    const got = path === '.jsonapi.version' ? o?.jsonapi?.version : o?.meta?.message;
    if (value !== undefined && got !== undefined && !looselyEqual(got, value))
      miss(path, `is ${show(got)}, the example's ${show(value)}`);
  }
  for (const f of result.missing) f.path = f.path.replace(/^\./, '') || '(body)';
  return result;
}
