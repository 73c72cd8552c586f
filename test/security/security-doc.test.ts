/**
 * SECURITY.md stays a short review (threat model, operator duties, one paragraph per OWASP API
 * Security Top 10 item) under 12 KiB; the index of the tests behind it is docs/security-tests.md,
 * and every test file that index names must exist, so a renamed or deleted test cannot leave it stale.
 */
import { readFile, stat } from 'node:fs/promises';
import t from 'tap';

const root = new URL('../../', import.meta.url);
const MAX_BYTES = 12 * 1024;

const security = await readFile(new URL('SECURITY.md', root));
const securityText = security.toString('utf8');
const index = await readFile(new URL('docs/security-tests.md', root), 'utf8');

const headings = (text: string) =>
  text
    .split('\n')
    .filter((line) => /^#{1,6} /.test(line))
    .map((line) => line.replace(/^#+ /, '').trim());

/** Whether a file exists at `path` (relative to the repository root) and is a regular file. */
async function isFile(path: string) {
  try {
    return (await stat(new URL(path, root))).isFile();
  } catch {
    return false;
  }
}

t.test(`SECURITY.md is under ${MAX_BYTES} bytes`, async (t) => {
  t.ok(
    security.byteLength < MAX_BYTES,
    `SECURITY.md is ${security.byteLength} bytes; move detail to docs/security-tests.md`,
  );
});

t.test('SECURITY.md has the threat model, the operator duties and every OWASP API Top 10 item', async (t) => {
  const found = headings(securityText);
  for (const heading of [
    'Threat model',
    'Operator duties',
    'Reporting a vulnerability',
    'OWASP API Security Top 10 (2023)',
    'Known limits and open items',
  ]) {
    t.ok(found.includes(heading), `heading "${heading}"`);
  }
  for (let n = 1; n <= 10; n++) {
    const item = found.filter((heading) => new RegExp(`^API${n} \\S`).test(heading));
    t.equal(item.length, 1, `one heading for API${n}`);
  }
  // README links here by this anchor.
  t.ok(found.includes('Logins, refresh tokens and account links'), 'the heading README.md links to');
});

t.test('SECURITY.md links docs/security-tests.md, which keeps the same headings', async (t) => {
  t.match(securityText, /\]\(docs\/security-tests\.md(#[^)]*)?\)/, 'a markdown link to docs/security-tests.md');
  const detail = headings(index);
  for (const heading of [
    'Logins, refresh tokens and account links',
    'OWASP API Security Top 10 (2023)',
    'Known limits and open items',
  ]) {
    t.ok(detail.includes(heading), `docs/security-tests.md has "${heading}"`);
  }
  for (let n = 1; n <= 10; n++) {
    t.ok(
      detail.some((heading) => heading.startsWith(`API${n} `)),
      `docs/security-tests.md has API${n}`,
    );
  }
});

t.test('every test file docs/security-tests.md names exists', async (t) => {
  const named = [...new Set(index.match(/\btest\/[\w./-]+\.test\.ts\b/g) ?? [])];
  t.ok(named.length > 100, `the index names test files (${named.length})`);
  const missing: string[] = [];
  for (const path of named) if (!(await isFile(path))) missing.push(path);
  t.same(missing, [], 'test files named in docs/security-tests.md that do not exist');
});

t.test('every other test/ file docs/security-tests.md names exists', async (t) => {
  const named = [...new Set(index.match(/\btest\/[\w./-]+\.ts\b/g) ?? [])].filter((path) => !path.endsWith('.test.ts'));
  const missing: string[] = [];
  for (const path of named) if (!(await isFile(path))) missing.push(path);
  t.same(missing, [], 'helpers and scripts named in docs/security-tests.md that do not exist');
});

t.test('every source file SECURITY.md and docs/security-tests.md name exists', async (t) => {
  const named = [
    ...new Set(`${securityText}\n${index}`.match(/\b(?:src|plugins|db)\/[\w./-]+\.(?:ts|mjs|sql)\b/g) ?? []),
  ];
  t.ok(named.length > 30, `source files named (${named.length})`);
  const missing: string[] = [];
  for (const path of named) if (!(await isFile(path))) missing.push(path);
  t.same(missing, [], 'source files named in the security documents that do not exist (moved or renamed?)');
});
