/**
 * open-event-frontend `app/routes/events/view/sessions/list.js:102`: the organizer's sessions list
 * loads `sessions/states` through the loader service and
 * `app/components/ui-table/cell/events/view/sessions/cell-buttons.js:11` offers, for a session in
 * state `s`, the buttons `Object.keys(sessionStateMap.organizer[s])`. The map must be this service's
 * own transition table, so every button the front end shows is a move the API accepts.
 */
import t from 'tap';
import { SESSION_STATES, ORGANIZER_MOVES, SPEAKER_MOVES } from '../../src/resources/sessions/states.js';
import { buildTestApp } from '../helpers/app.js';
import { buildWorld } from '../helpers/events.js';
import { frontEnd, listening } from '../helpers/front-end-client.js';

const { app } = await buildTestApp(t);
const world = await buildWorld(app);
const base = await listening(app);

t.test('the states map: each state offers exactly the moves the API accepts', async (t) => {
  const res = await frontEnd(base, world.cast.organizer.token).loader('GET', '/v1/sessions/states');
  t.equal(res.status, 200);
  t.equal(res.headers.get('access-control-allow-origin'), '*');
  const map = res.body as Record<'organizer' | 'speaker', Record<string, Record<string, true>>>;
  t.strictSame(Object.keys(map).sort(), ['organizer', 'speaker']);
  for (const state of SESSION_STATES) {
    t.strictSame(Object.keys(map.organizer[state]!), ORGANIZER_MOVES[state], `organizer buttons from ${state}`);
    t.strictSame(Object.keys(map.speaker[state]!), SPEAKER_MOVES[state], `speaker moves from ${state}`);
  }
  t.strictSame(
    (await frontEnd(base).loader('GET', '/v1/sessions/states')).body,
    map,
    'public: the same without a login',
  );
});

t.test('a button the map offers is a move the API makes', async (t) => {
  const { body: map } = await frontEnd(base).loader('GET', '/v1/sessions/states');
  const session = world.published.session;
  const organizer = frontEnd(base, world.cast.organizer.token);
  const [target] = Object.keys(map.organizer.accepted);
  const res = await organizer.adapter('PATCH', `/v1/sessions/${session}`, {
    body: { data: { type: 'session', id: session, attributes: { state: target } } },
  });
  t.equal(res.status, 200, `accepted -> ${target!}`);
  t.equal(res.body.data.attributes.state, target);
});
