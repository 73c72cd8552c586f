/**
 * The key of an old id: 12, "12" and " 012 " are the same id (archives write ids as numbers or as
 * text); a nested object stands for its `id`. Anything else (a word, a fraction, nothing) is no id.
 */
export function idKey(value: unknown): string | undefined {
  const raw =
    value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as { id?: unknown }).id : value;
  if (typeof raw === 'number') return Number.isSafeInteger(raw) && raw >= 0 ? String(raw) : undefined;
  if (typeof raw === 'string' && /^\s*\d{1,15}\s*$/.test(raw)) return String(Number(raw));
  return undefined;
}

/** Records in ascending old-id order; those without an id keep their order, after the others. */
export function oldIdOrder<T extends { key?: string }>(records: T[]): T[] {
  const withId = records.filter((r) => r.key !== undefined).sort((a, b) => Number(a.key) - Number(b.key));
  return [...withId, ...records.filter((r) => r.key === undefined)];
}
