/**
 * Member-by-member comparison of two JSON documents: deep equality where object members may come in
 * any order and array items may not.
 */

/** JSON pointer (RFC 6901) of a path of member names and indexes. */
const pointer = (path: (string | number)[]) =>
  path.map((p) => `/${String(p).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');

const kind = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/** The first place where `a` and `b` differ (depth first, in `a`'s member order), or undefined when equal. */
export function firstDifference(
  a: unknown,
  b: unknown,
  path: (string | number)[] = [],
): { pointer: string; a: unknown; b: unknown } | undefined {
  const here = { pointer: pointer(path) || '(the document)', a, b };
  if (kind(a) !== kind(b)) return here;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    for (let i = 0; i < Math.max(a.length, other.length); i++) {
      if (i >= a.length || i >= other.length) return { pointer: pointer([...path, i]), a: a[i], b: other[i] };
      const found = firstDifference(a[i], other[i], [...path, i]);
      if (found) return found;
    }
    return undefined;
  }
  if (kind(a) === 'object') {
    const x = a as Record<string, unknown>;
    const y = b as Record<string, unknown>;
    for (const key of new Set([...Object.keys(x), ...Object.keys(y)])) {
      if (!(key in x) || !(key in y))
        return {
          pointer: pointer([...path, key]),
          a: key in x ? x[key] : '(absent)',
          b: key in y ? y[key] : '(absent)',
        };
      const found = firstDifference(x[key], y[key], [...path, key]);
      if (found) return found;
    }
    return undefined;
  }
  return Object.is(a, b) || a === b ? undefined : here;
}
