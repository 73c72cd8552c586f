/**
 * The layers of the code (README, Layout): db/ and plugins/ are the infrastructure and import nothing
 * from src/; the JSON:API engine (src/jsonapi/) sits on them and imports nothing else of src/ (the
 * caller reaches it as `request.caller`, its own interface in src/jsonapi/caller.ts).
 */
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Every relative import of the TypeScript files under `folder`, as `file -> imported path` (from the root). */
async function importsUnder(folder: string): Promise<{ file: string; target: string }[]> {
  const found: { file: string; target: string }[] = [];
  for (const entry of await readdir(join(ROOT, folder), { recursive: true })) {
    if (!entry.endsWith('.ts')) continue;
    const file = join(folder, entry);
    const text = await readFile(join(ROOT, file), 'utf8');
    for (const [, target] of text.matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)) {
      found.push({ file, target: normalize(relative(ROOT, join(ROOT, dirname(file), target!))) });
    }
  }
  return found;
}

t.test('plugins/ imports nothing from src/', async (t) => {
  const imports = await importsUnder('plugins');
  t.ok(imports.length >= 10, `${imports.length} imports read`);
  t.same(
    imports.filter((i) => i.target.startsWith('src/')).map((i) => `${i.file} -> ${i.target}`),
    [],
  );
});

t.test('the engine (src/jsonapi/) imports only itself, plugins/ and db/', async (t) => {
  const imports = await importsUnder('src/jsonapi');
  t.ok(imports.length > 50, `${imports.length} imports read`);
  t.same(
    imports.filter((i) => !/^(src\/jsonapi|plugins|db)\//.test(i.target)).map((i) => `${i.file} -> ${i.target}`),
    [],
  );
});
