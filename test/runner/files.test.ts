import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { TapTally } from '../helpers/tap-tally.js';
import { runTestFiles } from './files.js';

const tap = import.meta.resolve('tap');

/** Test files as the compiled ones are: plain JavaScript that imports tap. */
const FILES = {
  'passes.test.js': `import t from '${tap}'; t.test('adds', async (t) => t.equal(1 + 1, 2, 'one and one'));`,
  'fails.test.js': `import t from '${tap}'; t.test('compares', async (t) => t.equal(1, 2, 'one is two'));`,
  'dies.test.js': `import t from '${tap}'; t.pass('started'); process.exit(3);`,
  // tap's own timer (TAP_TIMEOUT) ends it first, naming the test that hung.
  'hangs.test.js': `import t from '${tap}'; t.test('waits', () => new Promise(() => setInterval(() => {}, 1000)));`,
  // Only the kill ends a process whose event loop never turns again.
  'spins.test.js': `import t from '${tap}'; t.pass('started'); setTimeout(() => { for (;;); }, 0);`,
  // Its stdout stays open in a process it started, which outlives it: the file still ends at the kill.
  'orphans.test.js': `import t from '${tap}'; import { spawn } from 'node:child_process'; import { writeFileSync } from 'node:fs';
    writeFileSync(process.argv[1] + '.pid', String(spawn('sleep', ['1000'], { stdio: 'inherit' }).pid));
    t.pass('started'); setTimeout(() => { for (;;); }, 0);`,
};

t.test('each file runs in a process of its own and is reported as tap reports it', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'oe-runner-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  for (const [name, source] of Object.entries(FILES)) await writeFile(join(dir, name), source);
  const files = Object.keys(FILES).map((name) => join(dir, name));
  let stream = '';
  const allOk = await runTestFiles(files, {
    jobs: 3,
    // Room for a loaded machine: tap's timer must fire in the hanging file after it started, and report before the kill.
    timeoutSeconds: 4,
    graceMs: 4000,
    nodeArgs: [],
    env: process.env,
    write: (text) => (stream += text),
  });
  const orphan = Number(await readFile(join(dir, 'orphans.test.js.pid'), 'utf8'));
  t.teardown(() => process.kill(orphan));
  t.equal(allOk, false, 'not all passed');
  const tally = new TapTally();
  for (const line of stream.split('\n')) tally.line(line);
  t.equal(tally.passed, 4, "the passing test, and the first point of the three files that died ('started')");
  t.equal(tally.failed, 2, 'the failed assertion and the test that hung');
  t.equal(tally.filesFailed, 5, 'every file but the passing one');
  t.match(stream, /^TAP version 14\n/, 'one TAP stream');
  t.match(stream, /\n1\.\.6\n$/, 'planned after the six files');
  const point = (name: string) => new RegExp(`\\n(not )?ok \\d+ - ${join(dir, name)} # time=[\\d.]+ms\\n`);
  for (const name of Object.keys(FILES)) t.match(stream, point(name), `${name}: one test point`);
  t.match(stream, new RegExp(`\\nok \\d+ - ${join(dir, 'passes.test.js')}`), 'the passing file is ok');
  t.match(tally.failures.join('\n'), /compares › one is two.*found 1, wanted 2/, 'the failed assertion named');
  t.match(tally.failures.join('\n'), /dies\.test\.js.*exit code 3/, 'the exit code of the file that died');
  t.match(tally.failures.join('\n'), /hangs\.test\.js › waits/, 'the test that hung named by tap');
  t.match(tally.failures.join('\n'), /spins\.test\.js.*timed out/, 'the file that never yielded killed');
  t.match(
    tally.failures.join('\n'),
    /orphans\.test\.js.*timed out/,
    'ended at the kill, not when what it started ends',
  );
});
