/**
 * The README's configuration table is the one `make config-table` writes from ConfigSchema
 * (src/config-table.ts): every variable described beside its declaration, and listed.
 */
import { readFile } from 'node:fs/promises';
import t from 'tap';
import { ConfigSchema } from '../../src/config.js';
import { configTable, configTableOf } from '../../src/config-table.js';

const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
const names = Object.keys(ConfigSchema.properties);

t.test('the README’s table is the generated one', async (t) => {
  const section = configTableOf(readme);
  t.ok(section, 'README has the <!-- config-table --> … <!-- /config-table --> section');
  t.equal(section, configTable(), 'README.md’s configuration table is stale: run `make config-table`');
});

t.test('every variable has a description', async (t) => {
  const schemas: Record<string, { description?: unknown }> = ConfigSchema.properties;
  const undescribed = names.filter(
    (name) => typeof schemas[name]!.description !== 'string' || !(schemas[name]!.description as string).trim(),
  );
  t.same(undescribed, [], 'every key of ConfigSchema.properties has a non-empty description in src/config.ts');
});

t.test('every variable is in the table, once, in the schema’s order', async (t) => {
  const listed = configTable()
    .split('\n')
    .map((line) => /^\| `([A-Z0-9_]+)` \|/.exec(line)?.[1])
    .filter((name) => name !== undefined);
  t.same(listed, names);
  t.match(configTable(), /^\| Variable \| Default \| Meaning \|\n\|---\|---\|---\|\n/);
});

t.test('the Makefile writes it', async (t) => {
  const makefile = await readFile(new URL('../../Makefile', import.meta.url), 'utf8');
  t.match(makefile, /^config-table:\n\tnpx tsx src\/config-table\.ts$/m);
  t.match(makefile, /^\.PHONY:.* config-table( |$)/m);
  t.match(readme, /\| `make config-table` \|/);
});
