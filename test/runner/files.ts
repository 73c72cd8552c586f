/**
 * Runs the compiled test files, `jobs` at a time, each in a Node process of its own that writes TAP (tap's test
 * library), and writes one TAP stream of them all: each file a subtest, as tap's own runner does. tap's runner
 * gave every test process two module loader hooks (its process-info recorder and its module mocks, for coverage
 * and `t.mockImport`, neither of which these tests use): answering them cost about 1.4 s of CPU per file.
 */
import { spawn } from 'node:child_process';

export interface RunOptions {
  /** Files run side by side. */
  jobs: number;
  /** A file still running after this long is stopped and fails (tap's own timeout first reports where it hung). */
  timeoutSeconds: number;
  /** Extra `node` options of each test process. */
  nodeArgs: string[];
  env: NodeJS.ProcessEnv;
  /** After tap's own timeout inside the process, how long it has to report before it is killed (10 s). */
  graceMs?: number;
  /** Receives the TAP stream, a file's lines at once when that file ends. */
  write(text: string): void;
}

interface Ended {
  output: string;
  code: number | null;
  signal: NodeJS.Signals | null;
  ms: number;
  killed: boolean;
}

const passed = ({ code, signal }: Ended) => code === 0 && !signal;

function runFile(file: string, options: RunOptions): Promise<Ended> {
  const started = performance.now();
  const child = spawn(process.execPath, ['--enable-source-maps', ...options.nodeArgs, file], {
    // TAP: raw TAP on stdout; TAP_TIMEOUT: the test's own timer, which fails naming the subtest that hung.
    env: { ...options.env, TAP: '1', TAP_TIMEOUT: String(options.timeoutSeconds) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  let killed = false;
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const timer = setTimeout(
    () => {
      killed = true;
      child.kill('SIGKILL');
    },
    options.timeoutSeconds * 1000 + (options.graceMs ?? 10_000),
  );
  // A killed process's stdout may stay open in a process it started: its end is the exit then.
  child.on('exit', () => killed && child.stdout.destroy());
  return new Promise((resolve) =>
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ output, code, signal, ms: performance.now() - started, killed });
    }),
  );
}

/** A file's result as tap's runner writes it: its stream indented as a subtest, then its own test point. */
function asSubtest(n: number, file: string, ended: Ended): string {
  const { output, code, signal, ms, killed } = ended;
  const body = output
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('TAP version'))
    .map((line) => `    ${line}`);
  const ok = passed(ended);
  const point = `${ok ? 'ok' : 'not ok'} ${n} - ${file} # time=${ms.toFixed(3)}ms`;
  const why = ok
    ? []
    : ['  ---', `  exitCode: ${code}`, `  signal: ${signal}`, ...(killed ? ['  message: timed out'] : []), '  ...'];
  return [`# Subtest: ${file}`, ...body, point, ...why, ''].join('\n');
}

/** Runs `files` and answers whether every one passed. */
export async function runTestFiles(files: string[], options: RunOptions): Promise<boolean> {
  options.write('TAP version 14\n');
  let next = 0;
  let written = 0;
  let allOk = true;
  const worker = async () => {
    while (next < files.length) {
      const file = files[next++]!;
      const ended = await runFile(file, options);
      allOk &&= passed(ended);
      options.write(asSubtest(++written, file, ended));
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.jobs, files.length) }, worker));
  options.write(`1..${files.length}\n`);
  return allOk;
}
