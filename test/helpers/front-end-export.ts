/**
 * The export flow of the front end's ticket controllers (`app/controllers/events/view/tickets/{attendees,orders}.js`
 * `export(mode)`): start the export with the loader, poll `task_url` until it ends, then navigate to
 * `result.download_url` with none of the front end's headers, so the signed link alone must serve the file.
 */
import t from 'tap';
import { buildTestApp, until } from './app.js';
import { buildWorld } from './events.js';
import { frontEnd, listening } from './front-end-client.js';

export async function exportsByNavigation(kind: 'attendees' | 'orders') {
  const { app } = await buildTestApp(t, { ROLE: 'all' });
  const world = await buildWorld(app);
  const base = await listening(app);

  for (const [mode, type, magic] of [
    ['pdf', 'application/pdf', '%PDF-'],
    ['csv', 'text/csv; charset=utf-8', '\uFEFF'],
  ] as const) {
    t.test(`export(${mode}): started, polled, and downloaded by navigating to the link`, async (t) => {
      const organizer = frontEnd(base, world.cast.organizer.token);
      const started = await organizer.loader('GET', `/v1/events/${world.published.event}/export/${kind}/${mode}`);
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
}
