/**
 * Graceful shutdown of `npm start` (a real process): on SIGTERM the port stops accepting at once,
 * requests in flight (an upload and an event create whose bodies are still arriving) end with their
 * answers and their effects stored, and the process exits 0; a request that outlives
 * SHUTDOWN_TIMEOUT_SECONDS does not hold the process: it exits 1 saying so. With API_PROCESSES=2 the
 * primary hands the signal to its processes, which drain the same way.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { JSONAPI, until } from '../helpers/app.js';
import { multipart } from '../helpers/images.js';
import { account, startService, type ServerProcess } from '../helpers/service.js';

/**
 * A POST whose body is sent in two halves: the first now, the second on `finish()`, on a connection of
 * its own, closed after the answer (`Connection: close`) or, with `keepAlive`, kept open as browsers do.
 */
function halfSent(origin: string, path: string, headers: Record<string, string>, body: Buffer, keepAlive = false) {
  const { hostname, port } = new URL(origin);
  const agent = keepAlive ? new Agent({ keepAlive: true, maxSockets: 1 }) : false;
  const req = request({
    host: hostname,
    port,
    path,
    method: 'POST',
    agent,
    headers: { ...headers, 'content-length': String(body.length) },
  });
  const answered = new Promise<{ status: number; body: string; connection?: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res
        .setEncoding('utf8')
        .on('data', (chunk: string) => (text += chunk))
        .on('end', () => resolve({ status: res.statusCode!, body: text, connection: res.headers.connection }));
    });
    req.on('error', reject);
  });
  // Settled either way; the cases that expect a failure read it.
  answered.catch(() => {});
  const half = Math.floor(body.length / 2);
  req.write(body.subarray(0, half));
  return { answered, finish: () => req.end(body.subarray(half)) };
}

/** What a new TCP connection to the port gets: `connected`, or the error code (ECONNREFUSED). */
const dial = (origin: string) =>
  new Promise<string>((resolve) => {
    const { hostname, port } = new URL(origin);
    const socket = connect(Number(port), hostname);
    socket.once('connect', () => (socket.destroy(), resolve('connected')));
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
  });

/** Once the server logged the start of a request to `url` (its headers are in; its body is not). */
const started = (server: ServerProcess, url: string) =>
  until(`the server to start ${url}`, async () =>
    server
      .output()
      .split('\n')
      .some((l) => l.includes('incoming request') && l.includes(`"url":"${url}"`))
      ? true
      : undefined,
  );

const UPLOAD = '/v1/upload/file?force_local=true';

/** An upload of `bytes` and an event create (on a keep-alive connection), both half sent, both started on the server. */
/** The upload in flight was answered with success and its file is stored whole. */
async function expectUploadStored(
  t: Test,
  service: { storage: string },
  upload: { answered: Promise<{ status: number; body: string }> },
  bytes: Buffer,
) {
  const uploaded = await upload.answered;
  t.equal(uploaded.status, 200, `the upload in flight succeeded: ${uploaded.body}`);
  const key = new URL(JSON.parse(uploaded.body).url as string).pathname.replace(/^\/static\/media\//, '');
  t.same(await readFile(join(service.storage, key)), bytes, 'the uploaded file is stored whole');
}

async function inFlight(server: ServerProcess & { origin: string }, token: string, bytes: Buffer, eventName: string) {
  const auth = { authorization: `JWT ${token}` };
  const form = multipart([['file', 'notes.bin', bytes]]);
  const upload = halfSent(server.origin, UPLOAD, { ...form.headers, ...auth }, form.payload);
  const event = {
    data: {
      type: 'event',
      attributes: {
        name: eventName,
        'starts-at': '2030-05-01T09:00:00Z',
        'ends-at': '2030-05-02T18:00:00Z',
        timezone: 'UTC',
      },
    },
  };
  const create = halfSent(
    server.origin,
    '/v1/events',
    { 'content-type': JSONAPI, accept: JSONAPI, ...auth },
    Buffer.from(JSON.stringify(event)),
    true,
  );
  await started(server, UPLOAD);
  await started(server, '/v1/events');
  return { upload, create };
}

t.test('SIGTERM: no new connection, the requests in flight end and are stored, exit 0', async (t) => {
  const service = await startService(t, { LOG_LEVEL: 'info', SHUTDOWN_TIMEOUT_SECONDS: '60' });
  const server = await service.api();
  const { token } = await account(server.origin, 'shutdown@example.org');
  const bytes = randomBytes(256 * 1024);
  const { upload, create } = await inFlight(server, token, bytes, 'Created While Closing');

  server.child.kill('SIGTERM');
  t.equal(
    await until('new connections refused', async () =>
      (await dial(server.origin)) === 'ECONNREFUSED' ? 'refused' : undefined,
    ),
    'refused',
    'the port refuses new connections',
  );
  upload.finish();
  create.finish();

  await expectUploadStored(t, service, upload, bytes);

  const created = await create.answered;
  t.equal(created.status, 201, 'the event create in flight succeeded');
  t.equal(created.connection, 'close', 'and ends its keep-alive connection, which would hold the close');
  const id = JSON.parse(created.body).data.id as string;
  const [row] = await service.sql`select name from events where id = ${Number(id)}`;
  t.equal(row?.name, 'Created While Closing', 'the event is stored');

  t.equal(await server.exited, 0, 'the process exits 0');
  t.notMatch(server.output(), /did not end within/, 'within the timeout');
});

t.test('a request outliving SHUTDOWN_TIMEOUT_SECONDS: the process exits 1 anyway, saying why', async (t) => {
  const service = await startService(t, { LOG_LEVEL: 'info', SHUTDOWN_TIMEOUT_SECONDS: '2' });
  const server = await service.api();
  const { token } = await account(server.origin, 'stuck@example.org');
  const form = multipart([['file', 'never.bin', randomBytes(64 * 1024)]]);
  const upload = halfSent(server.origin, UPLOAD, { ...form.headers, authorization: `JWT ${token}` }, form.payload);
  await started(server, UPLOAD);

  server.child.kill('SIGTERM');
  t.equal(await server.exited, 1, 'the process exits 1 while the body is still unfinished');
  t.match(
    server.output(),
    /SIGTERM: the shutdown did not end within 2 seconds \(SHUTDOWN_TIMEOUT_SECONDS\); exiting anyway/,
    'and logs why',
  );
  await t.rejects(upload.answered, 'the unfinished request gets no answer');
});

t.test('API_PROCESSES=2: SIGTERM to the primary drains its processes, exit 0', async (t) => {
  const service = await startService(t, { LOG_LEVEL: 'info', SHUTDOWN_TIMEOUT_SECONDS: '60', API_PROCESSES: '2' });
  const server = await service.api();
  const { token } = await account(server.origin, 'cluster@example.org');
  const bytes = randomBytes(128 * 1024);
  const { upload, create } = await inFlight(server, token, bytes, 'Created In A Cluster');

  server.child.kill('SIGTERM');
  await until('both processes closing', async () =>
    (server.output().match(/SIGTERM: shutting down/g) ?? []).length === 2 ? true : undefined,
  );
  upload.finish();
  create.finish();
  await expectUploadStored(t, service, upload, bytes);
  const created = await create.answered;
  t.equal(created.status, 201, 'the event create in flight succeeded');
  t.equal(await server.exited, 0, 'the primary exits 0 once its processes did');
  const [row] = await service.sql`select count(*)::int as n from events where name = 'Created In A Cluster'`;
  t.equal(row!.n, 1, 'the event is stored');
});
