/**
 * `make config-table`: the README's configuration table, written from ConfigSchema (src/config.ts): one
 * row per environment variable in the schema's order, its default (the schema option `defaultText` when
 * the default is no literal, `unset` when there is neither) and its `description`.
 * test/server/config-table.test.ts fails when the README's table is not this one.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { ConfigSchema } from './config.js';

const README = new URL('../README.md', import.meta.url);
const START = '<!-- config-table -->\n';
const END = '<!-- /config-table -->';
const SECTION = /<!-- config-table -->\n([\s\S]*?)<!-- \/config-table -->/;

/** Text fit for one table cell: on one line, a `|` escaped (also inside code spans, as GFM wants). */
const cell = (text: string) => text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');

/** The markdown table of every environment variable, ending with a newline. */
export function configTable(): string {
  const rows = Object.entries(ConfigSchema.properties).map(([name, schema]) => {
    const shown: string =
      schema.defaultText ?? (schema.default === undefined ? 'unset' : `\`${String(schema.default)}\``);
    return `| \`${name}\` | ${cell(shown)} | ${cell(schema.description ?? '')} |`;
  });
  return ['| Variable | Default | Meaning |', '|---|---|---|', ...rows, ''].join('\n');
}

/** The table between the README's markers, or undefined when they are missing. */
export const configTableOf = (readme: string): string | undefined => SECTION.exec(readme)?.[1];

/** The README with the table between its markers replaced by configTable(). */
export function withConfigTable(readme: string): string {
  if (configTableOf(readme) === undefined) throw new Error(`README.md has no ${START.trim()} … ${END} section`);
  return readme.replace(SECTION, () => `${START}${configTable()}${END}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const before = await readFile(README, 'utf8');
  const after = withConfigTable(before);
  if (after !== before) await writeFile(README, after);
  console.log(
    `README.md: ${Object.keys(ConfigSchema.properties).length} variables${after === before ? ', already current' : ' written'}`,
  );
}
