/**
 * The route table of `make routes` (src/route-table.ts): every route names a file that exists and
 * declares it, the JSON:API routes their resource's declaration, and the README's short URL → code map
 * holds for every route.
 */
import { readFile } from 'node:fs/promises';
import t from 'tap';
import { openapiDocument } from '../../src/openapi-document.js';
import { routeTable } from '../../src/route-table.js';

const rows = await routeTable();
const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');

t.test('every route, with the file and line that declare it', async (t) => {
  const document = JSON.parse(await openapiDocument()) as {
    paths: Record<string, Record<string, { operationId: string }>>;
  };
  const documented = Object.entries(document.paths).flatMap(([path, ops]) =>
    Object.entries(ops)
      .filter(([m]) => m !== 'head')
      .map(([m, op]) => `${m.toUpperCase()} ${path} ${op.operationId}`),
  );
  const listed = new Set(rows.map((r) => `${r.method} ${r.path} ${r.operationId}`));
  t.same(
    documented.filter((op) => !listed.has(op)),
    [],
    'every operation of the OpenAPI document is in the table, with its operation id',
  );
  for (const row of rows) {
    const [, file, line] = /^(?:.*, registered in )?([^:]+)(?::(\d+))?$/.exec(row.file) ?? [];
    const text = await readFile(new URL(`../../${file}`, import.meta.url), 'utf8').catch(() => undefined);
    if (!text) {
      t.fail(`${row.method} ${row.path}: ${row.file} is no file`);
      continue;
    }
    if (line) {
      // The line registers a route: a call of <instance>.<method>, .route or the assistant's helper.
      const at = text
        .split('\n')
        .slice(Number(line) - 1, Number(line) + 1)
        .join('\n');
      if (!/\b(\w+\.(get|post|put|patch|delete|route)|assistantRoute|route)\(/.test(at))
        t.fail(`${row.method} ${row.path}: ${row.file} registers no route: ${at}`);
    }
    if (row.engine) {
      t.match(row.file, /^src\/resources\/[\w-]+\/index\.ts$/, `${row.method} ${row.path}: its resource's declaration`);
      t.match(row.engine, /^src\/jsonapi\/[\w-]+\.ts$/);
    }
  }
  t.ok(rows.length > 500, `${rows.length} routes`);
});

t.test('the README’s URL → code map holds for every route', async (t) => {
  const map = /<!-- url-map -->\n([\s\S]*?)<!-- \/url-map -->/.exec(readme)?.[1];
  t.ok(map, 'README has the map');
  const entries = map!
    .split('\n')
    .filter((l) => l.startsWith('| `'))
    .map((l) => {
      const [urls, code] = l.split(' | ');
      return { prefixes: [...urls!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!), code: /`([^`]+)`/.exec(code!)![1]! };
    });
  /** The entry whose prefix is the longest match (`/v1/<records>` matches any /v1 path). */
  const entryOf = (path: string) => {
    let best: { code: string; length: number } | undefined;
    for (const { prefixes, code } of entries) {
      for (const prefix of prefixes) {
        const generic = prefix === '/v1/<records>';
        const exact = prefix === '*' || prefix === '/';
        const matches = generic
          ? path.startsWith('/v1/')
          : exact
            ? path === prefix
            : path === prefix.replace(/\/$/, '') || path.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`);
        const length = generic ? 1 : prefix.length;
        if (matches && (!best || length > best.length)) best = { code, length };
      }
    }
    return best?.code;
  };
  const wrong = rows.filter((r) => {
    const code = entryOf(r.path);
    return !code || !(r.file.startsWith(code) || r.file.includes(`registered in ${code}`));
  });
  t.same(
    wrong.map((r) => `${r.method} ${r.path} -> ${r.file} (map: ${entryOf(r.path)})`),
    [],
    'each route is declared where the map says',
  );
  for (const { code } of entries)
    t.ok(
      rows.some((r) => r.file.startsWith(code) || r.file.includes(`registered in ${code}`)),
      `${code} declares routes`,
    );
});

t.test('the Makefile runs it', async (t) => {
  t.match(
    await readFile(new URL('../../Makefile', import.meta.url), 'utf8'),
    /^routes:\n\t@npx tsx src\/route-table\.ts$/m,
  );
  t.match(readme, /`make routes`/);
});
