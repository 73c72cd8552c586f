/**
 * open-event-frontend `app/controllers/events/view/tickets/attendees.js`: its `export(mode)` starts the attendees export
 * with the loader (`GET /events/{id}/export/attendees/{csv,pdf}`), polls `task_url` (`withoutPrefix`) every 3
 * seconds, and on SUCCESS sets `window.location` to `result.download_url`: the browser navigates there, with none
 * of the front end's headers, so the signed link alone must serve the file.
 */
import t from 'tap';
import { buildTestApp, until } from '../helpers/app.js';
import { buildWorld } from '../helpers/events.js';
import { frontEnd, listening } from '../helpers/front-end-client.js';

const { app } = await buildTestApp(t, { ROLE: 'all' });
const world = await buildWorld(app);
const base = await listening(app);

for (const [mode, type, magic] of [
  ['pdf', 'application/pdf', '%PDF-'],
  ['csv', 'text/csv; charset=utf-8', '\uFEFF'],
] as const) {
  t.test(`export(${mode}): started, polled, and downloaded by navigating to the link`, async (t) => {
    const organizer = frontEnd(base, world.cast.organizer.token);
    const started = await organizer.loader('GET', `/v1/events/${world.published.event}/export/attendees/${mode}`);
    t.equal(started.status, 200);
    t.match(started.body, { task_url: /^\/v1\/tasks\/[0-9a-f-]{36}$/ });
    const task = await until('the export', async () => {
      const res = await organizer.loader('GET', started.body.task_url);
      return res.body.state === 'WAITING' ? undefined : res.body;
    });
    t.equal(task.state, 'SUCCESS', JSON.stringify(task.result));
    const link = new URL(task.result.download_url);
    const download = await fetch(`${base}${link.pathname}${link.search}`);
    t.equal(download.status, 200, 'the navigation downloads it');
    t.equal(download.headers.get('content-type'), type);
    const bytes = Buffer.from(await download.arrayBuffer());
    t.equal(bytes.subarray(0, Buffer.byteLength(magic)).toString(), magic, `a ${mode.toUpperCase()} file`);
  });
}
