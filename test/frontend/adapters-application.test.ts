/**
 * open-event-frontend `app/adapters/application.js` (with `config/environment.js:34-35`): the front end
 * calls the API from its own origin. `record.save()` of a loaded record is a preflighted PATCH with
 * the adapter's headers (`Content-Type: application/vnd.api+json`, `Authorization: JWT ...`),
 * `destroyRecord()` a DELETE. The preflight must allow them, and the answers must carry the CORS
 * headers the browser needs to hand them to the front end. CORS_ORIGINS narrows the origins.
 */
import t from 'tap';
import { buildTestApp } from '../helpers/app.js';
import { buildWorld, rel } from '../helpers/events.js';
import { FRONTEND_ORIGIN, frontEnd, listening, preflight } from '../helpers/front-end-client.js';

const { app } = await buildTestApp(t);
const world = await buildWorld(app);
const base = await listening(app);
const owner = frontEnd(base, world.cast.owner.token);
const ADAPTER_HEADERS = ['authorization', 'content-type', 'accept'];

t.test('the preflight of a save and of a delete allows their method and the adapter headers', async (t) => {
  for (const method of ['PATCH', 'DELETE', 'POST', 'GET']) {
    const res = await preflight(base, `/v1/social-links/${world.published.socialLink}`, method, ADAPTER_HEADERS);
    t.equal(res.status, 204, `${method}: 204`);
    t.equal(res.headers.get('access-control-allow-origin'), '*', `${method}: any origin`);
    const methods = (res.headers.get('access-control-allow-methods') ?? '').split(',').map((m) => m.trim());
    t.ok(methods.includes(method), `${method} allowed (${methods.join(', ')})`);
    const allowed = (res.headers.get('access-control-allow-headers') ?? '').toLowerCase();
    for (const header of ADAPTER_HEADERS) t.ok(allowed.includes(header), `${method}: ${header} allowed`);
    t.notOk(res.headers.get('access-control-allow-credentials'), 'never credentials: tokens travel in a header');
  }
  const refresh = await preflight(base, '/v1/auth/token/refresh', 'POST', [
    'authorization',
    'content-type',
    'x-csrf-token',
  ]);
  t.ok(
    (refresh.headers.get('access-control-allow-headers') ?? '').toLowerCase().includes('x-csrf-token'),
    "the token refresh's X-CSRF-Token header is allowed",
  );
});

t.test('a save (PATCH) and a delete from the front end origin reach the API and hand back their answers', async (t) => {
  const id = world.published.socialLink;
  // app/models/social-link.js: every attribute goes out on save, with the event relationship.
  const saved = await owner.adapter('PATCH', `/v1/social-links/${id}`, {
    body: {
      data: {
        type: 'social-link',
        id,
        attributes: { name: 'Mastodon', link: 'https://social.example.org/@summit', identifier: null },
        relationships: { event: { data: rel('event', world.published.event).data } },
      },
    },
  });
  t.equal(saved.status, 200);
  t.equal(saved.headers.get('access-control-allow-origin'), '*', 'the browser hands the answer over');
  t.match(saved.body.data.attributes, { name: 'Mastodon', link: 'https://social.example.org/@summit' });
  const gone = await owner.adapter('DELETE', `/v1/social-links/${id}`);
  t.equal(gone.status, 200);
  t.equal(gone.headers.get('access-control-allow-origin'), '*');
  t.strictSame(gone.body.meta, { message: 'Object successfully deleted' });
});

t.test('CORS_ORIGINS narrows the origins: the allowed one is named, others get no CORS headers', async (t) => {
  const narrowed = await buildTestApp(t, { CORS_ORIGINS: `${FRONTEND_ORIGIN}, https://admin.example.org` });
  const narrow = await listening(narrowed.app);
  const allowed = await preflight(narrow, '/v1/events', 'PATCH', ADAPTER_HEADERS);
  t.equal(allowed.headers.get('access-control-allow-origin'), FRONTEND_ORIGIN, 'the allowed origin, named');
  t.match(allowed.headers.get('vary') ?? '', /Origin/, 'caches tell origins apart');
  const read = await fetch(`${narrow}/v1/events`, {
    headers: { Origin: 'https://elsewhere.example.com', Accept: 'application/vnd.api+json' },
  });
  t.equal(read.status, 200, 'a request from another origin is still answered (CORS is for browsers)');
  t.equal(
    read.headers.get('access-control-allow-origin'),
    null,
    'without CORS headers: a browser keeps the answer from that page',
  );
});
