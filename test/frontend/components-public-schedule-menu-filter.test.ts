/**
 * open-event-frontend `app/components/public/schedule-menu-filter.js:162`: the public schedule's
 * language filter loads `/events/{event.id}/sessions/languages` (the event named by its identifier,
 * the front end's record id) through the loader and lists the answer, an array of strings.
 */
import t from 'tap';
import { buildTestApp } from '../helpers/app.js';
import { buildWorld, create, rel } from '../helpers/events.js';
import { frontEnd, listening } from '../helpers/front-end-client.js';

const { app } = await buildTestApp(t);
const world = await buildWorld(app);
const base = await listening(app);
const { published, draft, cast } = world;

t.test('the languages of the sessions a visitor sees, sorted, once each', async (t) => {
  const add = (title: string, language: string | null, state: string) =>
    create(
      app,
      cast.owner.token,
      'sessions',
      'session',
      { title, language, state },
      { event: rel('event', published.event) },
    );
  await add('Eins', 'German', 'accepted');
  await add('Zwei', 'German', 'confirmed');
  await add('Un', 'French', 'accepted');
  await add('Secret', 'Klingon', 'draft');
  await add('Silent', null, 'accepted');
  await add('Blank', '', 'accepted');
  const gone = await add('Deleted', 'Latin', 'accepted');
  await app.sql`update sessions set deleted_at = now() where id = ${gone}`;
  const visitor = frontEnd(base);
  const res = await visitor.loader('GET', `/v1/events/${published.identifier}/sessions/languages`);
  t.equal(res.status, 200);
  t.equal(res.headers.get('access-control-allow-origin'), '*');
  t.strictSame(res.body, ['French', 'German'], 'live accepted and confirmed sessions only; no empty language');
  const organizer = await frontEnd(base, cast.organizer.token).loader(
    'GET',
    `/v1/events/${published.event}/sessions/languages`,
  );
  t.strictSame(
    organizer.body,
    ['French', 'German', 'Klingon'],
    'an organizer sees the draft too (by numeric id as well)',
  );
});

t.test("a draft event is none of a visitor's business", async (t) => {
  t.equal((await frontEnd(base).loader('GET', `/v1/events/${draft.identifier}/sessions/languages`)).status, 404);
  t.equal(
    (await frontEnd(base, cast.owner.token).loader('GET', `/v1/events/${draft.identifier}/sessions/languages`)).status,
    200,
  );
  t.equal((await frontEnd(base).loader('GET', '/v1/events/nosuchev/sessions/languages')).status, 404);
});
