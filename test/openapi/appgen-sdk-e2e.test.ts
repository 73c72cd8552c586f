/**
 * The app generator through the typed SDK against a listening server: an anonymous client asks for
 * an app of a published event, polls the task it was given until the zip is built, and downloads it;
 * a refused request comes back as the typed `{"status": "error"}` failure.
 */
import AdmZip from 'adm-zip';
import t from 'tap';
import { createApiClient, type components } from '../../openapi/client/index.js';
import { buildTestApp, until } from '../helpers/app.js';
import { createCast, createEvent } from '../helpers/events.js';
import { reservePort } from '../helpers/postgres.js';
import { startSmtp } from '../helpers/smtp.js';

const reserved = await reservePort();
const baseUrl = `http://127.0.0.1:${reserved.port}`;
const smtp = await startSmtp(t);
const { app } = await buildTestApp(t, {
  ROLE: 'all',
  SMTP_URL: smtp.url,
  PUBLIC_URL: baseUrl,
  FETCH_ALLOW_PRIVATE: 'true',
});
await reserved.release();
await app.listen({ port: reserved.port, host: '127.0.0.1' });
const event = await createEvent(app, await createCast(app), 'SDK Summit', 'published');

t.test('ask for an app, poll its task, download the zip', async (t) => {
  const client = createApiClient(baseUrl);
  const started = await client.POST('/api/api.php', {
    body: { email: 'maker@example.org', app_name: 'SDK Summit', endpoint: `${baseUrl}/v1/events/${event.id}` },
  });
  t.equal(started.response.status, 202);
  const accepted: components['schemas']['AppStarted'] | undefined = started.data;
  t.equal(accepted?.status, 'ok');
  const taskId = accepted!.task_url.split('/').pop()!;
  const task = await until('the build to end', async () => {
    const polled = await client.GET('/v1/tasks/{task_id}', { params: { path: { task_id: taskId } } });
    return polled.data?.state === 'WAITING' ? undefined : polled.data;
  });
  t.equal(task.state, 'SUCCESS', JSON.stringify(task));
  const url = (task.result as { download_url: string }).download_url;
  const zip = new AdmZip(Buffer.from(await (await fetch(url)).arrayBuffer()));
  t.ok(zip.getEntry('index.html') && zip.getEntry('manifest.webmanifest'), 'the download is the app');
  t.equal(JSON.parse(zip.readAsText('manifest.webmanifest')).name, 'SDK Summit');

  const refused = await client.POST('/api/api.php', {
    body: { email: 'not an address', app_name: 'x', endpoint: baseUrl },
  });
  t.equal(refused.response.status, 422);
  const failure: components['schemas']['AppgenFailure'] | undefined = refused.error;
  t.strictSame(failure, { status: 'error', code: 422, message: 'email must be a valid e-mail address' });
});
