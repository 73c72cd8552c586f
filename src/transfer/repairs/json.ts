import { jsonrepair } from 'jsonrepair';

export type JsonText = { value: unknown; repaired: boolean } | { error: string };

/**
 * The JSON value of a file's text. Text that is not valid JSON (a missing comma, a trailing comma,
 * single quotes, comments, a cut-off end, ...) is repaired by jsonrepair where that gives a list or
 * an object; the answer says so, or why the text could not be read. A byte order mark is no repair.
 */
export function parseJson(text: string): JsonText {
  const body = text.replace(/^\uFEFF/, '');
  try {
    return { value: JSON.parse(body), repaired: false };
  } catch (err) {
    try {
      const value: unknown = JSON.parse(jsonrepair(body));
      if (value !== null && typeof value === 'object') return { value, repaired: true };
    } catch {
      // not repairable either: the parser's own message says where it broke
    }
    return { error: (err as Error).message };
  }
}
