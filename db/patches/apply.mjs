// npm's postinstall: applies db/patches/*.patch (unified diffs of files under node_modules) with plain
// string replacement, so no tool beyond Node is needed. Idempotent: a hunk already applied is skipped.
// A hunk that matches neither way (the package changed version) stops the install with its name.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');

/** Each file's hunks as [before, after] texts (context lines in both). */
function parse(diff) {
  const files = [];
  let file;
  let hunk;
  for (const line of diff.split('\n')) {
    if (line.startsWith('+++ ')) files.push((file = { path: line.slice(4).replace(/^b\//, ''), hunks: [] }));
    else if (line.startsWith('--- ') || line.startsWith('diff ') || line.startsWith('index ')) continue;
    else if (line.startsWith('@@')) file.hunks.push((hunk = { before: [], after: [] }));
    else if (hunk && line.startsWith('-')) hunk.before.push(line.slice(1));
    else if (hunk && line.startsWith('+')) hunk.after.push(line.slice(1));
    else if (hunk && (line.startsWith(' ') || line === '')) {
      hunk.before.push(line.slice(1));
      hunk.after.push(line.slice(1));
    }
  }
  return files;
}

for (const name of readdirSync(here)
  .filter((n) => n.endsWith('.patch'))
  .sort()) {
  for (const { path, hunks } of parse(readFileSync(join(here, name), 'utf8'))) {
    const target = join(root, path);
    let text = readFileSync(target, 'utf8');
    for (const { before, after } of hunks) {
      // A trailing empty line is the diff's end, not part of the hunk.
      while (before.at(-1) === '' && after.at(-1) === '') before.pop(), after.pop();
      const [from, to] = [before.join('\n'), after.join('\n')];
      if (text.includes(to)) continue;
      if (!text.includes(from))
        throw new Error(`${name}: a hunk does not match ${path}; update the patch for the installed version`);
      text = text.replace(from, to);
    }
    writeFileSync(target, text);
  }
  console.log(`applied ${name}`);
}
