/**
 * Fault: the database connection of a request dies in the middle of its transaction (the backend is
 * terminated, as a restart or a failover does to every session). postgres.js then sends the rollback
 * on a connection without a socket; unpatched (3.4.9, porsager/postgres#1208) that throws from a timer
 * and ends the whole process, here the test runner. The request must answer 503 with Retry-After,
 * nothing of it is written, and the next request is served.
 */
import t from 'tap';
import { buildTestApp, call, until } from '../helpers/app.js';
import { holdLock } from '../helpers/database.js';
import { create, eventAttributes } from '../helpers/events.js';
import { expectError, seedUser } from '../helpers/users.js';

t.test(
  'a transaction whose connection is terminated: 503 with Retry-After, nothing written, the process serves on',
  async (t) => {
    const { app, url } = await buildTestApp(t);
    const owner = await seedUser(app);
    const id = await create(app, owner.token, 'events', 'event', eventAttributes('Before'));
    const patch = (name: string) =>
      call(app, {
        method: 'PATCH',
        url: `/v1/events/${id}`,
        token: owner.token,
        body: { data: { type: 'event', id, attributes: { name } } },
      });

    // A session of its own holds the event's row, so the PATCH waits inside its transaction.
    const lock = await holdLock(t, url, (tx) => tx`select id from events where id = ${id} for update`);
    const answer = patch('Lost');
    const waiting = await until('the PATCH waiting for the row lock', async () => {
      const [row] = await app.sql<{ pid: number }[]>`
      select pid from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock' and pid <> ${lock.pid}`;
      return row?.pid;
    });
    const [terminated] = await app.sql<{ ok: boolean }[]>`select pg_terminate_backend(${waiting}) as ok`;
    t.equal(terminated!.ok, true, "the PATCH's connection is terminated");
    const res = await answer;
    expectError(t, res, 503, { detail: 'The database is not available at the moment; try again later' });
    t.equal(res.headers['retry-after'], '5', 'Retry-After');
    await lock.release();

    const [row] = await app.sql<{ name: string }[]>`select name from events where id = ${id}`;
    t.equal(row!.name, 'Before', 'the interrupted PATCH wrote nothing');
    const again = await patch('After');
    t.equal(again.status, 200, 'the next PATCH is served by the same process');
    t.equal(again.body.data.attributes.name, 'After');
  },
);
