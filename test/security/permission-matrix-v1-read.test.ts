/**
 * The permission matrix, GET routes of the event service: every route the app serves, for every
 * caller, against the outcome written once in permission-matrix.ts. The export read here was built
 * by the export job itself; the stored file by an upload.
 */
import t from 'tap';
import { loadConfig } from '../../src/config.js';
import { jobs } from '../../src/jobs/index.js';
import { EXPORT_QUEUE } from '../../src/transfer/jobs.js';
import { TEST_SECRET } from '../helpers/app.js';
import { multipart } from '../helpers/images.js';
import { appWithRoutes, checkCoverage, inject, runMatrix, type Recipe } from './matrix.js';
import { buildMatrixWorld } from './matrix-world.js';

const { app, routes } = await appWithRoutes(t);

t.test('every GET route of the event service has an entry', async (t) => checkCoverage(t, routes, 'v1-read'));

t.test('GET routes of the event service x callers', async (t) => {
  const w = await buildMatrixWorld(app);
  const { owner } = w.users;
  const event = w.world.published.event;

  const started = await inject(app, 'POST', `/v1/events/${event}/export/json`, { token: owner.token, json: {} });
  const task = String(started.body?.task_url).split('/').pop()!;
  const exportJob = jobs({ ...loadConfig({ LOG_LEVEL: 'silent' }), JWT_SECRET: TEST_SECRET }).find(
    (j) => j.name === EXPORT_QUEUE,
  )!;
  await exportJob.handler(app)([{ data: { taskId: task } }] as never);
  const exported = await inject(app, 'GET', `/v1/tasks/${task}`, { token: owner.token });
  t.equal(exported.body?.state, 'SUCCESS', 'the export the matrix downloads is finished');

  // No extension: served as application/octet-stream, the type the contract names.
  const form = multipart([['file', 'agenda', 'the agenda']]);
  const uploaded = await inject(app, 'POST', '/v1/upload/file', {
    token: owner.token,
    query: { force_local: 'true' },
    ...form,
  });
  const media = new URL(uploaded.body?.url).pathname.replace('/static/media/', '');

  const build = await inject(app, 'POST', '/api/api.php', {
    json: { email: 'builder@example.org', app_name: 'Summit', endpoint: `https://api.example.org/v1/events/${event}` },
  });
  const appTask = String(build.body?.task_url).split('/').pop()!;

  const ids = { ...w.ids, tasks: task, exports: `${task}/event${event}.zip`, media };
  // A ticket holder of the completed order, for its ticket as PDF.
  const [holder] = await app.sql<{ id: number }[]>`insert into attendees (event_id, order_id, ticket_id, firstname)
    select event_id, id, ${Number(w.bazaarTicket)}, 'Ada' from orders where identifier = ${w.completed} returning id`;
  // The door's ticket holder (matrix-world.ts), whose ticket has the matrix's badge form.
  const [door] = await app.sql<{ holder: number }[]>`select ticket_holder_id as holder from user_check_ins
    where id = ${Number(w.ids['user-check-in'])}`;
  const RECIPES: Record<string, Recipe> = {
    'GET /v1/user-check-in/stats/event/{event_id}': () => ({
      path: `/v1/user-check-in/stats/event/${event}`,
      query: { session_ids: w.world.published.session },
    }),
    'GET /v1/events/{event_id}/attendees/search': () => ({ query: { name: 'Kim' } }),
    'GET /v1/badge-forms/print-badge-pdf': () => ({ query: { attendee_id: String(door!.holder) } }),
    'GET /v1/events/{event_id}/export/badges/pdf': () => ({ query: { checked_in: 'all' } }),
    // The matrix's badge (matrix-world.ts).
    'GET /v1/events/{id}/badge-forms/{badge_id}': () => ({ path: `/v1/events/${event}/badge-forms/matrix` }),
    'GET /v1/badge-forms/{id}/badge-field-forms/{badge_id}': () => ({
      path: `/v1/badge-forms/${w.ids['badge-forms']}/badge-field-forms/matrix`,
    }),
    'GET /v1/events/{id} [include=orders]': () => ({
      path: `/v1/events/${w.bazaar}`,
      query: { include: 'orders' },
      sees: (body) =>
        (body?.included ?? []).some((r: { type: string; id: string }) => r.type === 'order' && r.id === w.order),
    }),
    'GET /v1/tasks/{task_id} [app build]': () => ({ path: `/v1/tasks/${appTask}` }),
    'GET /v1/events/{event_id}/exports/{*} [signed link]': () => {
      const link = new URL(exported.body?.result?.download_url);
      return { path: link.pathname, query: Object.fromEntries(link.searchParams) };
    },
    // Where the export job stores the archive, as its download URL gives away.
    'GET /static/media/{*} [an export archive]': () => ({
      path: `/static/media/exports/${event}/${task}/event${event}.zip`,
    }),
    'GET /v1/settings/{id} [storage and mail secrets]': () => ({
      sees: (body) => ['s3-secret-key', 'smtp-password'].every((k) => k in (body?.data?.attributes ?? {})),
    }),
    'GET /v1/taxes/{id} [tax-id, email]': () => ({
      sees: (body) => body?.data?.attributes?.['tax-id'] !== undefined && body?.data?.attributes?.email !== undefined,
    }),
    'GET /v1/video-streams/{id} [url, password]': () => ({
      sees: (body) => body?.data?.attributes?.url !== undefined && body?.data?.attributes?.password !== undefined,
    }),
    'GET /v1/groups/{id} [include=followers]': () => ({
      query: { include: 'followers' },
      sees: (body) =>
        (body?.included ?? []).some(
          (r: { type: string; id: string }) => r.type === 'user-follow-group' && r.id === w.follow,
        ),
    }),
    'GET /v1/states': () => ({ query: { event_id: w.bazaar, attendee_id: w.ids.attendees! } }),
    // The lookups name the codes by their text (whatever its case), as the public page sends it.
    'GET /v1/events/{event}/discount-codes/{code}': () => ({ path: `/v1/events/${event}/discount-codes/matrix` }),
    'GET /v1/events/{event}/access-codes/{code}': () => ({ path: `/v1/events/${event}/access-codes/matrix` }),
    'GET /v1/orders/{identifier}/tickets-pdf': () => ({ path: `/v1/orders/${w.completed}/tickets-pdf` }),
    'GET /v1/tickets/{order_identifier}': () => ({ path: `/v1/tickets/${w.completed}` }),
    'GET /v1/orders/attendees/{attendee_id}.pdf': () => ({ path: `/v1/orders/attendees/${holder!.id}.pdf` }),
    'GET /v1/orders/invoices/{identifier}': () => ({ path: `/v1/orders/invoices/${w.completed}` }),
    'GET /v1/speakers/{id} [email, mobile]': () => ({
      sees: (body) => body?.data?.attributes?.email !== undefined && body?.data?.attributes?.mobile !== undefined,
    }),
  };
  await runMatrix(t, app, 'v1-read', ids, w.tokens, RECIPES);
});
