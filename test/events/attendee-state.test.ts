/**
 * `GET /v1/states?event_id=&attendee_id=` (src/resources/attendees/states.ts): whether a ticket holder
 * registered, as the reference answers it to the check-in apps (app/api/custom/attendees.py,
 * check_attendee_state; the blueprint's "Get Attendee State"), from the attendee's `is-registered` and
 * `register-times`, which only the event's organizers set. The reference answered any logged-in user;
 * here only those who may read the attendee.
 */
import t from 'tap';
import { assertError, buildTestApp, call } from '../helpers/app.js';
import { create, createCast, createEvent, rel } from '../helpers/events.js';
import { ticketAttributes } from '../helpers/ticket-bodies.js';

const { app } = await buildTestApp(t);
const cast = await createCast(app);
const { id: event } = await createEvent(app, cast, 'Station Conf', 'published');
const { id: other } = await createEvent(app, cast, 'Other Conf', 'published');
const { id: draft } = await createEvent(app, cast, 'Draft Station', 'draft');

/** A ticket holder of an order `buyer` placed (the owner for a draft, which no one else may order from). */
async function holder(at: string, buyer = cast.other) {
  const of = { event: rel('event', at) };
  const ticket = await create(app, cast.owner.token, 'tickets', 'ticket', ticketAttributes(), of);
  const order = await create(app, buyer.token, 'orders', 'order', { amount: 0 }, of);
  return create(
    app,
    buyer.token,
    'attendees',
    'attendee',
    { firstname: 'Ada' },
    {
      ...of,
      order: rel('order', order),
      ticket: rel('ticket', ticket),
    },
  );
}
const attendee = await holder(event);
const elsewhere = await holder(other);
const hidden = await holder(draft, cast.owner);
const state = (eventId: string, attendeeId: string, token?: string) =>
  call(app, { url: `/v1/states?event_id=${eventId}&attendee_id=${attendeeId}`, token });
const patch = (token: string, attributes: Record<string, unknown>) =>
  call(app, {
    method: 'PATCH',
    url: `/v1/attendees/${attendee}`,
    token,
    body: { data: { type: 'attendee', id: attendee, attributes } },
  });

t.test('not registered at first; an organizer registers the holder', async (t) => {
  const before = await state(event, attendee, cast.organizer.token);
  t.equal(before.status, 200);
  t.equal(before.headers['content-type'], 'application/json; charset=utf-8');
  t.strictSame(before.body, { is_registered: false, register_times: null });
  const times = '2030-05-01T09:12:00.000Z';
  const res = await patch(cast.organizer.token, { 'is-registered': true, 'register-times': times });
  t.equal(res.status, 200);
  t.match(res.body.data.attributes, { 'is-registered': true, 'register-times': times });
  for (const who of [cast.organizer, cast.coorganizer, cast.owner, cast.admin, cast.other]) {
    const after = await state(event, attendee, who.token);
    t.strictSame(after.body, { is_registered: true, register_times: times }, `as seen by user ${who.id}`);
  }
});

t.test('only organizers register holders; the buyer may not', async (t) => {
  const res = await patch(cast.other.token, { 'is-registered': false });
  assertError(t, res, 403, { pointer: '/data/attributes/is-registered' });
  const times = await patch(cast.other.token, { 'register-times': 'never' });
  assertError(t, times, 403, { pointer: '/data/attributes/register-times' });
  t.equal((await state(event, attendee, cast.other.token)).body.is_registered, true, 'unchanged');
});

t.test('who may ask', async (t) => {
  assertError(t, await state(event, attendee), 401);
  assertError(t, await state(event, attendee, cast.speaker.token), 403);
  assertError(t, await state(draft, hidden, cast.speaker.token), 404, undefined, 'Event not found');
  t.equal((await state(draft, hidden, cast.organizer.token)).status, 200, "a draft's team");
});

t.test('bad and wrong ids', async (t) => {
  for (const [query, parameter] of [
    ['', 'event_id'],
    [`event_id=${event}`, 'attendee_id'],
    [`attendee_id=${attendee}`, 'event_id'],
    [`event_id=abc&attendee_id=${attendee}`, 'event_id'],
    [`event_id=${event}&attendee_id=1.5`, 'attendee_id'],
    [`event_id=${event}&attendee_id=99999999999`, 'attendee_id'],
    [`event_id=${event}&attendee_id=${attendee}&extra=1`, 'extra'],
  ]) {
    const res = await call(app, { url: `/v1/states?${query}`, token: cast.organizer.token });
    assertError(t, res, 400, { parameter });
  }
  assertError(t, await state('424242', attendee, cast.organizer.token), 404, undefined, 'Event not found');
  assertError(t, await state(event, '424242', cast.organizer.token), 404, undefined, 'Attendee not found');
  assertError(
    t,
    await state(event, elsewhere, cast.organizer.token),
    422,
    { parameter: 'attendee_id' },
    'The attendee is not of this event',
  );
});
