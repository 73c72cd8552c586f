/**
 * `npm start` stopped the way a process manager stops it (docker stop, systemd, `kill <pid>`): SIGTERM to the
 * npm process, not to the server. npm passes it to its script's process; the script `exec`s tsx, which relays it
 * to the server, and the server must acknowledge it to tsx (tsx's own signal listener) or tsx kills it 30 ms
 * later. Before, npm's shell died alone (the server and its embedded PostgreSQL went on running), and a SIGTERM to
 * tsx killed the server before it stopped the embedded PostgreSQL, which was left running.
 */
import { spawn } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { TEST_SECRET } from '../helpers/app.js';
import { freePort } from '../helpers/postgres.js';

/** Whether something accepts connections on 127.0.0.1:`port`. */
const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

t.test('SIGTERM to npm start: the server and its embedded PostgreSQL stop, exit code 0', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'oe-npm-start-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  // As root, PostgreSQL runs as the postgres system user, who must enter it (mkdtemp makes it 0700).
  await chmod(dataDir, 0o755);
  const pgPort = await freePort();
  const { NODE_OPTIONS: _, ...env } = process.env;
  const npm = spawn('npm', ['start'], {
    env: {
      ...env,
      DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(pgPort),
      PORT: '0',
      HOST: '127.0.0.1',
      JWT_SECRET: TEST_SECRET,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  t.teardown(() => void npm.kill('SIGKILL'));
  let output = '';
  npm.stderr.on('data', (chunk: Buffer) => void (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => npm.once('exit', (code) => resolve(code)));
  const api = await new Promise<string>((resolve, reject) => {
    npm.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const found = /^API:\s+(http\S+)$/m.exec(output);
      if (found) resolve(found[1]!);
    });
    void exited.then((code) => reject(new Error(`npm start exited with ${code} before listening:\n${output}`)));
  });
  t.equal((await fetch(`${api}/events`)).status, 200, 'it serves');
  t.ok(await listening(pgPort), 'its embedded PostgreSQL listens');

  npm.kill('SIGTERM');
  t.equal(await exited, 0, 'npm start exits with 0');
  await t.rejects(fetch(`${api}/events`), 'the server has released its port');
  t.notOk(await listening(pgPort), 'the embedded PostgreSQL was stopped, not left running');
});
