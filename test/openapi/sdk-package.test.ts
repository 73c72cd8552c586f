/**
 * The SDK as a front-end team gets it: `npm pack` of openapi/client gives a tarball, installed into a
 * project of its own (no access to this repository's sources), imported by its package name, type
 * checked against its declarations and used against a running server.
 */
import { execFile } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';
import { buildTestApp } from '../helpers/app.js';
import { seedUser } from '../helpers/users.js';

const run = promisify(execFile);
// The checkout itself (make test runs a compiled mirror of it, whose links npm pack would not follow).
const root = dirname(realpathSync(new URL('../../package.json', import.meta.url)));
const dir = await mkdtemp(join(tmpdir(), 'oe-sdk-package-'));
t.teardown(() => rm(dir, { recursive: true, force: true }));

const { app } = await buildTestApp(t);
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address() as { port: number };
const user = await seedUser(app);

t.test('npm pack gives a tarball that installs and works from its package name', async (t) => {
  const packed = await run('npm', ['pack', '--pack-destination', dir, '--silent'], {
    cwd: join(root, 'openapi/client'),
  });
  const tarball = packed.stdout.trim().split('\n').pop()!;
  t.match(tarball, /^open-event-api-client-\d+\.\d+\.\d+\.tgz$/);

  // Offline (a test may not reach the registry): the package's dependencies come as tarballs packed
  // from this project's node_modules, as an offline mirror would serve them.
  const tarballs = [join(dir, tarball)];
  const pending = Object.keys(
    (JSON.parse(await readFile(join(root, 'openapi/client/package.json'), 'utf8')) as { dependencies: object })
      .dependencies,
  );
  for (const seen = new Set<string>(); pending.length > 0; ) {
    const name = pending.pop()!;
    if (seen.has(name)) continue;
    seen.add(name);
    const folder = join(root, 'node_modules', name);
    pending.push(
      ...Object.keys(
        (JSON.parse(await readFile(join(folder, 'package.json'), 'utf8')) as { dependencies?: object }).dependencies ??
          {},
      ),
    );
    tarballs.push(
      join(
        dir,
        (await run('npm', ['pack', '--pack-destination', dir, '--silent'], { cwd: folder })).stdout
          .trim()
          .split('\n')
          .pop()!,
      ),
    );
  }
  const project = join(dir, 'front-end');
  await mkdir(project);
  await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'front-end', private: true, type: 'module' }));
  await run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--silent', ...tarballs], { cwd: project });
  t.same((await readdir(join(project, 'node_modules/@open-event/api-client/dist'))).sort(), [
    'index.d.ts',
    'index.js',
    'schema.d.ts',
  ]);

  // The README's usage, typed: paths, parameters and answers come from the declarations.
  await writeFile(
    join(project, 'use.ts'),
    `import { createApiClient } from '@open-event/api-client';
const api = createApiClient(process.argv[2]!, { token: process.argv[3] });
const { data, response } = await api.GET('/v1/users/{id}', { params: { path: { id: process.argv[4]! } } });
const email: string | undefined = data?.data.attributes.email;
const events = await api.GET('/v1/events', { params: { query: { page: { size: 5 }, fields: { event: 'name' } } } });
console.log(JSON.stringify({ status: response.status, email, events: events.data?.data.length }));
`,
  );
  const tsc = join(root, 'node_modules/.bin/tsc');
  // The front end's own compiler settings; Node's types (process.argv) from this project.
  const options = [
    '--strict',
    '--module',
    'NodeNext',
    '--moduleResolution',
    'NodeNext',
    '--target',
    'ES2022',
    '--skipLibCheck',
    '--typeRoots',
    join(root, 'node_modules/@types'),
    '--types',
    'node',
  ];
  const checked = await run(tsc, ['--noEmit', ...options, 'use.ts'], { cwd: project }).then(
    () => 'ok',
    (err: { stdout: string }) => err.stdout,
  );
  t.equal(checked, 'ok', 'the usage type-checks against the installed declarations');
  await writeFile(
    join(project, 'wrong.ts'),
    `import { createApiClient } from '@open-event/api-client';
const { data } = await createApiClient('http://x').GET('/v1/users/{id}', { params: { path: { id: '1' } } });
export const wrong: number | undefined = data?.data.attributes.email;
`,
  );
  const wrong = await run(tsc, ['--noEmit', ...options, 'wrong.ts'], { cwd: project }).then(
    () => '',
    (err: { stdout: string }) => err.stdout,
  );
  t.match(
    wrong,
    /wrong\.ts\(3,14\): error TS2322: Type 'string \| undefined' is not assignable to type 'number \| undefined'/,
    'an answer read as the wrong type is a type error',
  );

  // Node runs the built JavaScript (the types are erased by tsc's output, as a bundler would).
  await run(tsc, [...options, 'use.ts'], { cwd: project });
  const used = await run(
    process.execPath,
    ['use.js', `http://127.0.0.1:${address.port}`, user.token, String(user.id)],
    { cwd: project },
  );
  t.same(
    JSON.parse(used.stdout),
    { status: 200, email: user.email, events: 0 },
    'the installed client against the running server',
  );
});
