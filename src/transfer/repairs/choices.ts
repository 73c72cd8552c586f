import type { Repaired } from './lengths.js';

/** How a value of the vocabulary reads as a key: letter case, blanks, `-` and `_` do not count. */
const keyOf = (text: string) =>
  text
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ');

/**
 * One of an enumeration's values: as written, in another letter case (`Published`), or an older or
 * other word for it from the format's vocabulary (`Completed` → `published`; the key `*` answers
 * any other word). Anything else is an error: the caller lets the default apply.
 */
export function readChoice(
  value: unknown,
  choices: readonly string[],
  vocabulary: Record<string, string> = {},
): Repaired<string> {
  if (typeof value !== 'string' && typeof value !== 'number') return { error: 'not one of the known values' };
  const text = String(value);
  if (choices.includes(text)) return { value: text };
  const key = keyOf(text);
  const found = choices.find((c) => keyOf(c) === key) ?? vocabulary[key] ?? vocabulary['*'];
  if (found === undefined) return { error: `not one of ${choices.map((c) => `"${c}"`).join(', ')}` };
  return { value: found, note: `read as "${found}"` };
}
