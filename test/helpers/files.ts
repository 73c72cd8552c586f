import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';

/** Relative paths of every regular file under `dir` (sub-folders searched, folders themselves left out), sorted. */
export async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}
