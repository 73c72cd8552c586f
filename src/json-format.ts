/**
 * JSON for files people read and diff: a value on one line when it fits in `width` columns, else one member
 * per line, indented by two spaces. About half the size of `JSON.stringify(value, null, 2)` on the OpenAPI
 * document, and a change still shows as the lines it touches.
 */
export function formatJson(value: unknown, width = 120): string {
  // Through JSON first: what JSON.stringify leaves out (undefined members) or converts (toJSON) stays so.
  return `${layout(JSON.parse(JSON.stringify(value)), '', 0, width)}\n`;
}

/** `value` on one line, with a space after each colon and comma. */
function oneLine(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(oneLine).join(', ')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}: ${oneLine(v)}`)
      .join(', ')}}`;
  return JSON.stringify(value);
}

/** `value` at `indent`, after `before` columns already taken on its first line (its key) and `after` behind it (a comma). */
function layout(value: unknown, indent: string, before: number, width: number, after = 0): string {
  const line = oneLine(value);
  if (typeof value !== 'object' || value === null || indent.length + before + line.length + after <= width) return line;
  const inner = `${indent}  `;
  const entries = Array.isArray(value) ? value.map((v) => ['', v] as const) : Object.entries(value);
  if (entries.length === 0) return line;
  const lines = entries.map(([key, v], i) => {
    const prefix = Array.isArray(value) ? '' : `${JSON.stringify(key)}: `;
    const comma = i < entries.length - 1 ? 1 : 0;
    return `${inner}${prefix}${layout(v, inner, prefix.length, width, comma)}${comma ? ',' : ''}`;
  });
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  return `${open}\n${lines.join('\n')}\n${indent}${close}`;
}
