/**
 * open-event-frontend `app/controllers/events/view/settings/export.js` and
 * `app/components/events/view/export/download-zip.js`: the organizer starts an export with the loader
 * (`POST /events/{identifier}/export/json`, a JSON body of the four media flags), polls `task_url`
 * (`withoutPrefix`) every 3 seconds, then downloads `result.download_url` with the loader's
 * `isExternal: true`: an XMLHttpRequest without any header of the front end's, so without the token.
 */
import AdmZip from 'adm-zip';
import t from 'tap';
import { buildTestApp, until } from '../helpers/app.js';
import { buildWorld } from '../helpers/events.js';
import { frontEnd, listening } from '../helpers/front-end-client.js';

const { app } = await buildTestApp(t, { ROLE: 'all' });
const world = await buildWorld(app);
const base = await listening(app);

t.test('export, poll and download as the front end does: the archive arrives without a token', async (t) => {
  const organizer = frontEnd(base, world.cast.organizer.token);
  const started = await organizer.loader('POST', `/v1/events/${world.draft.identifier}/export/json`, {
    image: false,
    audio: false,
    video: false,
    document: false,
  });
  t.equal(started.status, 200);
  t.equal(started.headers.get('access-control-allow-origin'), '*');
  const task = await until('the export', async () => {
    const res = await organizer.loader('GET', started.body.task_url);
    return res.body.state === 'WAITING' ? undefined : res.body;
  });
  t.equal(task.state, 'SUCCESS');
  // The public URL of the service is where the front end fetches it; this test's server is on another port.
  const link = new URL(task.result.download_url);
  const download = await organizer.external(`${base}${link.pathname}${link.search}`);
  t.equal(download.status, 200, 'downloaded without Authorization');
  t.equal(download.headers.get('access-control-allow-origin'), '*', 'the browser hands the blob to the front end');
  t.ok(new AdmZip(download.bytes).getEntry('event.json'), 'the archive, not an error saved as EventExport.zip');
  t.equal(
    (await organizer.external(`${base}${link.pathname}`)).status,
    401,
    'the path without its signature still needs the token',
  );
});
