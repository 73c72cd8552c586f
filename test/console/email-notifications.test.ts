/**
 * E-mail notifications (/v1/email-notifications, /v1/users/{id}/email-notifications): a user's choices of the mails
 * it receives about one event, who reads and writes them, and the mailer honouring them: with
 * `after-ticket-purchase` off, the ticket purchase mails of that event stop (through a real SMTP server).
 */
import t from 'tap';
import { assertError, buildTestApp, call } from '../helpers/app.js';
import { createCast, rel } from '../helpers/events.js';
import { printedEvent, setStatus } from '../helpers/order-documents.js';
import { startSmtp } from '../helpers/smtp.js';
import { seedUser, type TestUser } from '../helpers/users.js';
import { sendOrderConfirmation } from '../../src/resources/orders/documents/confirmation.js';

const smtp = await startSmtp(t);
const { app } = await buildTestApp(t, { ROLE: 'all', SMTP_URL: smtp.url });
const cast = await createCast(app);
const printed = await printedEvent(app, cast);
const eventId = printed.event.id;

const choose = (user: TestUser, attributes: Record<string, unknown>, event = eventId) =>
  call(app, {
    method: 'POST',
    url: '/v1/email-notifications',
    token: user.token,
    body: { data: { type: 'email-notification', attributes, relationships: { event: rel('event', event) } } },
  });

t.test('a user makes its choices for an event, once; it and administrators read and change them', async (t) => {
  const ann = await seedUser(app);
  const made = await choose(ann, { 'new-paper': true });
  t.equal(made.status, 201);
  const id = made.body.data.id as string;
  t.same(made.body.data.attributes, {
    'next-event': false,
    'new-paper': true,
    'session-accept-reject': false,
    'session-schedule': false,
    'after-ticket-purchase': true,
    'event-id': Number(eventId),
    'deleted-at': null,
  });
  t.same(made.body.data.relationships.user.data, { type: 'user', id: ann.id }, 'the caller is its user');
  assertError(t, await choose(ann, {}), 409, { pointer: '/data/relationships/event' });

  const own = await call(app, { url: `/v1/users/${ann.id}/email-notifications`, token: ann.token });
  t.same(
    own.body.data.map((n: { id: string }) => n.id),
    [id],
  );
  const ofUser = await call(app, { url: `/v1/users/${ann.id}?include=email-notifications`, token: ann.token });
  t.same(ofUser.body.data.relationships['email-notifications'].data, [{ type: 'email-notification', id }]);
  const other = cast.other;
  assertError(t, await call(app, { url: `/v1/users/${ann.id}/email-notifications`, token: other.token }), 403);
  assertError(t, await call(app, { url: `/v1/email-notifications/${id}`, token: other.token }), 404);
  assertError(t, await call(app, { url: `/v1/email-notifications/${id}` }), 401);
  assertError(t, await call(app, { url: '/v1/email-notifications', token: ann.token }), 403, undefined);
  const all = await call(app, { url: '/v1/email-notifications', token: cast.admin.token });
  t.ok(
    all.body.data.some((n: { id: string }) => n.id === id),
    'the administrators list holds it',
  );

  const patch = (token: string, attributes: Record<string, unknown>, relationships?: Record<string, unknown>) =>
    call(app, {
      method: 'PATCH',
      url: `/v1/email-notifications/${id}`,
      token,
      body: { data: { type: 'email-notification', id, attributes, ...(relationships ? { relationships } : {}) } },
    });
  t.equal((await patch(ann.token, { 'session-schedule': true })).status, 200);
  t.equal((await patch(cast.admin.token, { 'next-event': true })).status, 200, 'an administrator too');
  assertError(t, await patch(other.token, { 'next-event': false }), 404);
  assertError(t, await patch(ann.token, { 'next-event': 'no' }), 422, { pointer: '/data/attributes/next-event' });
  assertError(t, await patch(ann.token, { 'event-id': 999 }), 422, { pointer: '/data/attributes/event-id' });
  const moved = await patch(ann.token, {}, { event: rel('event', cast.admin.id) });
  t.ok(moved.status >= 400 && moved.status < 500, 'the event never changes');
  const [row] =
    await app.sql`select next_event, session_schedule, event_id from email_notifications where id = ${Number(id)}`;
  t.same(row, { next_event: true, session_schedule: true, event_id: Number(eventId) });

  assertError(t, await call(app, { method: 'DELETE', url: `/v1/email-notifications/${id}`, token: other.token }), 404);
  t.equal((await call(app, { method: 'DELETE', url: `/v1/email-notifications/${id}`, token: ann.token })).status, 200);
  assertError(t, await call(app, { url: `/v1/email-notifications/${id}`, token: ann.token }), 404);
  t.equal((await choose(ann, {})).status, 201, 'made again once deleted');
});

t.test('bad input: no event, an unknown event, unknown members, no login', async (t) => {
  const bob = await seedUser(app);
  const none = await call(app, {
    method: 'POST',
    url: '/v1/email-notifications',
    token: bob.token,
    body: { data: { type: 'email-notification', attributes: {} } },
  });
  assertError(t, none, 422, { pointer: '/data/relationships' });
  t.equal((await choose(bob, {}, '99999')).status, 404);
  assertError(t, await choose(bob, { colour: 'red' }), 422, { pointer: '/data/attributes/colour' });
  assertError(t, await choose(bob, { 'after-ticket-purchase': 1 }), 422, {
    pointer: '/data/attributes/after-ticket-purchase',
  });
  assertError(
    t,
    await call(app, {
      method: 'POST',
      url: '/v1/email-notifications',
      body: { data: { type: 'email-notification', relationships: { event: rel('event', eventId) } } },
    }),
    401,
  );
  t.same(await app.sql`select id from email_notifications where user_id = ${Number(bob.id)}`, [], 'nothing written');
});

const isOrganizers = (subject: string | undefined) => subject?.startsWith('New order for ') === true;

t.test('ticket purchase mails: sent by default; not to a buyer, holder or organizer who opted out', async (t) => {
  // Default: every mail goes.
  const first = await printed.order([['free', 'Zoe', 'zoe-e@example.org']]);
  await setStatus(app, first.order.id, 'placed');
  let before = smtp.received.length;
  await sendOrderConfirmation(app, Number(first.order.id));
  let received = (await smtp.waitFor(before + 5)).slice(before);
  t.ok(
    received.some((m) => m.envelope.to.includes(first.buyer.email)),
    'the buyer got it',
  );
  t.ok(
    received.some((m) => m.envelope.to.includes('zoe-e@example.org')),
    'the holder got it',
  );
  t.equal(received.filter((m) => isOrganizers(m.parsed.subject)).length, 3, 'each of the staff');

  // The buyer, a holder with an account, and the organizer opt out of this event's purchase mails.
  const holder = await seedUser(app);
  const second = await printed.order([['free', 'Hal', holder.email]]);
  for (const who of [second.buyer, holder, cast.organizer])
    t.equal((await choose(who, { 'after-ticket-purchase': false })).status, 201);
  await setStatus(app, second.order.id, 'placed');
  before = smtp.received.length;
  await sendOrderConfirmation(app, Number(second.order.id));
  // The owner and the coorganizer still get the organizers' mail: it arrives after the buyer's and holder's turns.
  received = (await smtp.waitFor(before + 2)).slice(before);
  const to = received.flatMap((m) => m.envelope.to).sort();
  t.same(to, [cast.coorganizer.email, cast.owner.email].sort(), 'only those who did not opt out');
  const logged = await app.sql`select recipient from mails where subject like ${`%(${'%'}`} and recipient in
    (${second.buyer.email}, ${holder.email}, ${cast.organizer.email})
    and created_at > now() - interval '1 minute' and action like 'ticket-purchased%'
    and position(${second.order.identifier} in coalesce(message, '')) > 0`;
  t.same(logged, [], 'nothing logged for them');
});
