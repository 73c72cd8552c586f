/**
 * open-event-frontend:app/controllers/public/cfs/view-session.js:23-46 (withdrawProposal): the speaker
 * opens their session (app/routes/public/cfs/view-session.js:11-16, `findRecord('session', id,
 * {include: 'session-type,speakers,track,event,speaker-invites'})`), sets `state` to `withdrawn` and
 * saves the whole record. Then organizers may reinstate it from their sessions list, whose buttons are
 * `Object.keys(sessionStateMap.organizer.withdrawn)` (app/components/ui-table/cell/events/view/sessions/
 * cell-buttons.js:11): the reference's organizer moves (src/resources/sessions/states.ts).
 */
import t from 'tap';
import { buildTestApp } from '../helpers/app.js';
import { buildWorld } from '../helpers/events.js';
import { frontEnd, listening } from '../helpers/front-end-client.js';
import { SESSION_ATTRIBUTES, saved } from '../helpers/front-end-session.js';

const { app } = await buildTestApp(t);
const world = await buildWorld(app);
const base = await listening(app);
const { cast, published, draft } = world;
const INCLUDE = 'session-type,speakers,track,event,speaker-invites';

/** The record as the route loads it, for the speaker (or another caller). */
const open = (token: string | undefined, id: string) =>
  frontEnd(base, token).adapter('GET', `/v1/sessions/${id}`, { query: { include: INCLUDE } });

/** `session.save()` of the loaded record with `changes`: its attributes and its loaded relationships. */
function save(
  token: string,
  record: { id: string; attributes: Record<string, unknown>; relationships: any },
  changes: Record<string, unknown>,
) {
  const linked = (name: string) => ({ data: record.relationships[name].data });
  return frontEnd(base, token).adapter('PATCH', `/v1/sessions/${record.id}`, {
    body: {
      data: {
        type: 'session',
        id: record.id,
        attributes: { ...saved(SESSION_ATTRIBUTES, record.attributes), ...changes },
        relationships: {
          event: linked('event'),
          'session-type': linked('session-type'),
          track: linked('track'),
          microlocation: linked('microlocation'),
          creator: linked('creator'),
          speakers: linked('speakers'),
        },
      },
    },
  });
}

t.test('the speaker withdraws their accepted session; it leaves the public schedule', async (t) => {
  const loaded = await open(cast.speaker.token, published.session);
  t.equal(loaded.status, 200);
  t.equal(loaded.body.data.attributes.state, 'accepted');
  const res = await save(cast.speaker.token, loaded.body.data, { state: 'withdrawn' });
  t.equal(res.status, 200, JSON.stringify(res.body?.errors));
  t.equal(res.body.data.attributes.state, 'withdrawn');
  t.equal(res.body.data.attributes.title, 'Opening', 'nothing else changed');

  t.equal((await open(undefined, published.session)).status, 404, 'no longer public');
  t.equal((await open(cast.other.token, published.session)).status, 404);
  const mine = await open(cast.speaker.token, published.session);
  t.equal(mine.body.data.attributes.state, 'withdrawn', 'its speaker still sees it');
  const listed = await frontEnd(base, cast.organizer.token).adapter('GET', `/v1/events/${published.event}/sessions`, {
    query: { filter: [{ name: 'state', op: 'eq', val: 'withdrawn' }], 'page[size]': 10 },
  });
  t.strictSame(
    listed.body.data.map((s: { id: string }) => s.id),
    [published.session],
    "on the organizers' withdrawn list",
  );

  const again = await save(cast.speaker.token, mine.body.data, { state: 'withdrawn' });
  t.equal(again.status, 200, 'saving it withdrawn again changes nothing');
  // The save's answer updates the record's attributes (its last-modified-at moved on); the loaded
  // relationships stay as they were.
  const record = { ...again.body.data, relationships: mine.body.data.relationships };
  const back = await save(cast.speaker.token, record, { state: 'accepted' });
  t.equal(back.status, 403, 'withdrawn is final for the speaker');
  t.match(back.body.errors[0], { detail: 'Only organizers may move a session from withdrawn to accepted' });
});

t.test("the organizers' buttons for a withdrawn session reinstate it", async (t) => {
  const states = await frontEnd(base).loader('GET', '/v1/sessions/states');
  const buttons = Object.keys(states.body.organizer.withdrawn);
  t.strictSame(buttons, ['pending', 'accepted', 'rejected', 'canceled']);
  const loaded = await open(cast.organizer.token, published.session);
  const res = await save(cast.organizer.token, loaded.body.data, { state: 'accepted' });
  t.equal(res.status, 200, JSON.stringify(res.body?.errors));
  t.equal(res.body.data.attributes.state, 'accepted');
  t.equal((await open(undefined, published.session)).status, 200, 'public again');
});

t.test('others may not withdraw it; a bad state is 422; a draft event stays hidden', async (t) => {
  const loaded = await open(cast.other.token, published.session);
  t.equal(loaded.status, 200, 'an accepted session is public');
  const refused = await save(cast.other.token, loaded.body.data, { state: 'withdrawn' });
  t.equal(refused.status, 403);
  const anonymous = await frontEnd(base).adapter('PATCH', `/v1/sessions/${published.session}`, {
    body: { data: { type: 'session', id: published.session, attributes: { state: 'withdrawn' } } },
  });
  t.equal(anonymous.status, 401);
  const bad = await save(cast.speaker.token, (await open(cast.speaker.token, published.session)).body.data, {
    state: 'gone',
  });
  t.equal(bad.status, 422);
  t.match(bad.body.errors[0], { source: { pointer: '/data/attributes/state' } });
  const hidden = await frontEnd(base, cast.other.token).adapter('PATCH', `/v1/sessions/${draft.session}`, {
    body: { data: { type: 'session', id: draft.session, attributes: { state: 'withdrawn' } } },
  });
  t.equal(hidden.status, 404, "a draft event's session does not exist for outsiders");
  t.equal((await open(cast.admin.token, published.session)).body.data.attributes.state, 'accepted', 'unchanged');
});
