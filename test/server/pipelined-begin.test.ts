/**
 * The driver's transactions with `begin` pipelined (db/patches/postgres+3.4.9-pipelined-begin.patch):
 * the first statement of a transaction leaves before PostgreSQL has answered `begin` (seen through a
 * proxy that holds the server's answers back), and a transaction still commits, rolls back on an
 * error of any of its statements, and leaves its connection outside any transaction. Its commit
 * leaves at once (db/patches/postgres+3.4.9-commit-flush.patch), not a turn of the event loop later.
 */
import { createServer, connect, Socket } from 'node:net';
import postgres from 'postgres';
import t from 'tap';
import { createTestDatabase } from '../helpers/database.js';

const database = await createTestDatabase({ migrated: false });
t.teardown(() => database.drop());
const target = new URL(database.url);

/** What crossed the proxy, in order: the client's bytes as they came, the server's as they were let through. */
const crossed: { from: 'client' | 'server'; text: string }[] = [];
const sockets = new Set<Socket>();
const proxy = createServer((client) => {
  const server = connect(Number(target.port), target.hostname);
  sockets.add(client).add(server);
  client.on('data', (chunk) => {
    crossed.push({ from: 'client', text: chunk.toString('latin1') });
    server.write(chunk);
  });
  // The server's answers are held back a moment: a client that waited for them would send nothing meanwhile.
  server.on('data', (chunk) =>
    setTimeout(() => {
      crossed.push({ from: 'server', text: chunk.toString('latin1') });
      client.write(chunk);
    }, 20),
  );
  client.on('close', () => server.destroy());
  server.on('close', () => client.destroy());
});
await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
t.teardown(() => {
  for (const socket of sockets) socket.destroy();
  proxy.close();
});
const viaProxy = new URL(database.url);
viaProxy.hostname = '127.0.0.1';
viaProxy.port = String((proxy.address() as { port: number }).port);
const sql = postgres(viaProxy.toString(), {
  max: 1,
  onnotice: () => {},
  connection: { application_name: 'pipelined' },
});
t.teardown(() => sql.end());
const direct = postgres(database.url, { max: 1, onnotice: () => {} });
t.teardown(() => direct.end());
await sql`create table pipelined (x int)`;

t.test("a transaction's first statement leaves before begin is answered", async (t) => {
  crossed.length = 0;
  await sql.begin(async (tx) => {
    await tx`select 'first statement'`;
    await tx`select 'second statement'`;
  });
  const index = (from: 'client' | 'server', text: string, after = -1) =>
    crossed.findIndex((c, i) => i > after && c.from === from && c.text.includes(text));
  const begin = index('client', 'begin');
  t.ok(begin >= 0, 'begin was sent');
  const first = index('client', 'first statement');
  const answered = crossed.findIndex((c, i) => i > begin && c.from === 'server');
  t.ok(first >= 0 && first < answered, 'the first statement went out before any answer came back');
  t.ok(index('client', 'second statement') > answered, 'a statement that waits for the first goes after its answer');
});

t.test('a transaction commits, rolls back on any error, and leaves no transaction open', async (t) => {
  await sql.begin(async (tx) => {
    await tx`insert into pipelined values (1)`;
  });
  t.strictSame([...(await sql`select x from pipelined`)], [{ x: 1 }], 'committed');
  await t.rejects(
    sql.begin(async (tx) => {
      await tx`insert into pipelined values (2)`;
      await tx`select 1 / 0`;
    }),
    /division by zero/,
  );
  await t.rejects(
    sql.begin(async (tx) => tx`select * from no_such_table`),
    /no_such_table/,
    'the first statement failing',
  );
  t.strictSame(
    [...(await sql`select x from pipelined order by x`)],
    [{ x: 1 }],
    'nothing of the failed transactions stays',
  );
  const states = await direct`select state from pg_stat_activity where application_name = 'pipelined'`;
  t.strictSame([...states], [{ state: 'idle' }], 'the connection is outside any transaction');
  const results = await sql.begin((tx) => [tx`select 1 as a`, tx`select 2 as b`]);
  t.strictSame(
    results.flatMap((r) => [...r]),
    [{ a: 1 }, { b: 2 }],
    'statements returned as an array still run in the transaction',
  );
});

t.test('the commit is written at once, before the callbacks of the next turn of the event loop', async (t) => {
  const order: string[] = [];
  let armed = false;
  const write = Socket.prototype.write;
  // After the transaction's last statement has been answered, the driver's next write to the proxy is the commit.
  Socket.prototype.write = function (this: Socket, ...args: unknown[]) {
    if (armed && this.remotePort === Number(viaProxy.port)) {
      order.push('commit written');
      armed = false;
    }
    return (write as (...a: unknown[]) => boolean).apply(this, args);
  } as typeof write;
  t.teardown(() => void (Socket.prototype.write = write));
  await sql.begin(async (tx) => {
    await tx`select 'last statement'`;
    armed = true;
    setImmediate(() => order.push('next turn'));
  });
  await new Promise((resolve) => setImmediate(resolve));
  t.strictSame(order, ['commit written', 'next turn']);
});
