/**
 * The project as JavaScript for the test processes. Every TypeScript file of `COMPILED` is compiled once per
 * run (esbuild, a second or two) into a mirror of the checkout under `.test-build/`, where each `x.ts` is a
 * link to the source beside its `x.js`, and every other file or folder is a link. A test process then loads
 * plain JavaScript: with tsx, its loader hook answered each of the ~1,400 modules a test file loads, 1.3 s of
 * CPU per file. Paths relative to a module (`import.meta.url`) find the same files as in the checkout, and
 * stack traces name the TypeScript lines (inline source maps; runner/files.ts passes `--enable-source-maps`).
 */
import { mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transform } from 'esbuild';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BUILDS = join(ROOT, '.test-build');
/** The folders whose TypeScript is compiled; the rest of the checkout is linked as it is. */
const COMPILED = new Set(['src', 'plugins', 'db', 'test', 'openapi']);
/** Not mirrored: the builds themselves, git's folder, the packages (found by walking up to the checkout's). */
const SKIPPED = new Set(['.test-build', '.git', 'node_modules']);

const isSource = (name: string) => name.endsWith('.ts') && !name.endsWith('.d.ts');

async function holdsSource(folder: string): Promise<boolean> {
  for (const entry of await readdir(folder, { withFileTypes: true, recursive: true }))
    if (entry.isFile() && isSource(entry.name) && !entry.parentPath.includes('node_modules')) return true;
  return false;
}

/** `from` mirrored at `to`: folders holding TypeScript are made and walked, everything else is linked. */
async function mirror(from: string, to: string, compile: (source: string, target: string) => Promise<void>) {
  await mkdir(to, { recursive: true });
  for (const entry of await readdir(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (entry.isDirectory() && entry.name !== 'node_modules' && (await holdsSource(source)))
      await mirror(source, target, compile);
    else {
      await symlink(source, target);
      if (entry.isFile() && isSource(entry.name)) await compile(source, target.replace(/\.ts$/, '.js'));
    }
  }
}

const running = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * A mirror of its own for this run (`.test-build/<pid>`: runs side by side do not share one), after removing
 * those of runs that ended without removing theirs. `testFiles` names the compiled test files of the
 * checkout's `files` (all of them when none), `removed` removes the mirror.
 */
export async function compileProject() {
  await mkdir(BUILDS, { recursive: true });
  for (const name of await readdir(BUILDS))
    if (!running(Number(name))) await rm(join(BUILDS, name), { recursive: true, force: true });
  const build = join(BUILDS, String(process.pid));
  const tsconfigRaw = await readFile(join(ROOT, 'tsconfig.json'), 'utf8');
  const compile = async (source: string, target: string) => {
    const { code } = await transform(await readFile(source, 'utf8'), {
      loader: 'ts',
      format: 'esm',
      target: 'node20',
      tsconfigRaw,
      // Relative to the compiled file: the link to its source beside it.
      sourcefile: relative(join(target, '..'), join(build, relative(ROOT, source))),
      sourcemap: 'inline',
    });
    await writeFile(target, code);
  };
  await mkdir(build);
  for (const entry of await readdir(ROOT, { withFileTypes: true })) {
    if (SKIPPED.has(entry.name)) continue;
    const source = join(ROOT, entry.name);
    if (entry.isDirectory() && COMPILED.has(entry.name)) await mirror(source, join(build, entry.name), compile);
    else await symlink(source, join(build, entry.name));
  }
  return {
    async testFiles(files: string[]) {
      const named =
        files.length > 0
          ? files.map((file) => relative(ROOT, resolve(file)))
          : (await readdir(join(ROOT, 'test'), { recursive: true }))
              .filter((file) => file.endsWith('.test.ts'))
              .map((file) => join('test', file))
              .sort();
      return named.map((file) => relative(ROOT, join(build, file)).replace(/\.ts$/, '.js'));
    },
    removed: () => rm(build, { recursive: true, force: true }),
  };
}

/** `.test-build/<pid>/test/x.test.js` (or its `.ts` link) in tap's output as the checkout's `test/x.test.ts`. */
export const sourceNames = (text: string) => text.replace(/\.test-build\/\d+\/(\S+?)\.[jt]s\b/g, '$1.ts');
