import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// tsx (under make bench) preloads its hooks into child processes through NODE_OPTIONS; the server is started
// without them.
const { NODE_OPTIONS: _nodeOptions, ...cleanEnv } = process.env;

/**
 * The server's entry point: compiled beside this helper when the tests run compiled (test/runner/compile.ts: a
 * second of CPU less per process than tsx compiling the sources again), or with `source`, `src/server.ts` through
 * tsx exactly as `npm start` runs it.
 */
function entryPoint(source: boolean): string[] {
  const compiled = new URL('../../src/server.js', import.meta.url);
  return !source && import.meta.url.endsWith('.js')
    ? ['--enable-source-maps', fileURLToPath(compiled)]
    : ['--import', 'tsx', 'src/server.ts'];
}

/**
 * The server as a process of its own (`args`: e.g. `--role api`). `urls` resolves with the URLs its banner prints
 * (API, Swagger UI, OpenAPI document) once it listens, and rejects if it exits first; `output()` is everything it
 * printed so far.
 */
export function startServerProcess(env: Record<string, string>, args: string[] = [], { source = false } = {}) {
  const child = spawn(process.execPath, [...entryPoint(source), ...args], {
    // The allocator tuning the start script of package.json sets (README: GLIBC_TUNABLES).
    env: { GLIBC_TUNABLES: 'glibc.malloc.arena_max=2', ...cleanEnv, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const urls = new Promise<Record<string, string>>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const found = Object.fromEntries(
        [...output.matchAll(/^([^:\n]+):\s+(http\S+)$/gm)].map((m) => [m[1]!.trim(), m[2]!]),
      );
      if (found.API && found['Swagger UI'] && found['OpenAPI document']) resolve(found);
    });
    child.stderr.on('data', (chunk: Buffer) => void (output += chunk.toString()));
    void exited.then((code) => reject(new Error(`server exited with ${code} before listening:\n${output}`)));
  });
  return { child, urls, exited, output: () => output };
}
