/**
 * The activity log's lines of an event's export and import (the reference's `export_event` and `import_event`),
 * written by the jobs in the transaction that ends their task, by the requester.
 */
import t from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import { create, createCast, eventAttributes } from '../helpers/events.js';
import { startImport } from '../helpers/imports.js';
import { taskEnded } from '../helpers/service.js';

const { app } = await buildTestApp(t, { ROLE: 'all' });
const cast = await createCast(app);
const actor = `${cast.owner.email} (${cast.owner.id})`;

t.test('an export and the import of its archive each leave their line', async (t) => {
  const event = await create(app, cast.owner.token, 'events', 'event', eventAttributes('Moving Camp'));
  const started = await call(app, {
    method: 'POST',
    url: `/v1/events/${event}/export/json`,
    token: cast.owner.token,
    body: {},
    headers: { 'content-type': 'application/json' },
  });
  t.equal(started.status, 200);
  const done = await taskEnded(app, started.body.task_url, cast.owner.token, 60_000);
  const exported = await app.sql`select actor, action from activities where action = ${`Event ${event} exported`}`;
  t.same(exported, [{ actor, action: `Event ${event} exported` }]);

  const url = new URL(String(done.result?.download_url ?? ''), 'http://localhost');
  const zip = await app.inject({ url: url.pathname, headers: { authorization: `JWT ${cast.owner.token}` } });
  t.equal(zip.statusCode, 200);
  const task = await startImport(t, app, cast.owner.token, zip.rawPayload);
  const result = await taskEnded(app, task, cast.owner.token, 60_000);
  const id = String((result.result as { id?: string }).id);
  const imported = await app.sql`select actor, action from activities where action = ${`Event ${id} imported`}`;
  t.same(imported, [{ actor, action: `Event ${id} imported` }]);
});
