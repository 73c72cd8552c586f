/**
 * open-event-frontend:app/components/public/ticket-list.js:262-276 (loadTicketAvailability): the ticket
 * list of the public event page (and of the organizers' add-order page) loads
 * `/events/{id}/tickets/availability` through the loader and, for each entry whose `id` is a ticket's
 * (`+ticket.id === t.id`: a number), shows `available` and caps the ticket's max-order at it. What is
 * taken counts as the reference counts it (app/api/attendees.py, get_sold_and_reserved_tickets_count):
 * holders of placed and completed orders, and of orders still open (initializing for the settings'
 * order expiry time, 15 minutes; pending for 30 minutes more).
 */
import t from 'tap';
import { buildTestApp } from '../helpers/app.js';
import { create, createCast, createEvent, rel } from '../helpers/events.js';
import { frontEnd, listening } from '../helpers/front-end-client.js';
import { ticketAttributes } from '../helpers/ticket-bodies.js';

const { app } = await buildTestApp(t);
const base = await listening(app);
const cast = await createCast(app);
const { id: event, identifier } = await createEvent(app, cast, 'Ticket Conf', 'published');
const { id: draft } = await createEvent(app, cast, 'Draft Tickets', 'draft');
const token = cast.owner.token;
const of = { event: rel('event', event) };
const standard = await create(
  app,
  token,
  'tickets',
  'ticket',
  ticketAttributes({ name: 'Standard', quantity: 10 }),
  of,
);
const few = await create(
  app,
  token,
  'tickets',
  'ticket',
  ticketAttributes({ name: 'Few', quantity: 2, 'max-order': 2 }),
  of,
);
const crew = await create(
  app,
  token,
  'tickets',
  'ticket',
  ticketAttributes({ name: 'Crew', quantity: 5, 'max-order': 5, 'is-hidden': true }),
  of,
);
await create(
  app,
  token,
  'tickets',
  'ticket',
  ticketAttributes({ name: 'Unlimited', quantity: null, 'max-order': null }),
  of,
);
const gone = await create(
  app,
  token,
  'tickets',
  'ticket',
  ticketAttributes({ name: 'Gone', quantity: 3, 'max-order': 3 }),
  of,
);
await create(app, token, 'tickets', 'ticket', ticketAttributes({ name: 'Draft ticket', quantity: 4, 'max-order': 4 }), {
  event: rel('event', draft),
});

/**
 * An order of `holders` tickets of `ticket`, then set to `status`, made `minutes` ago (a fixture, not a sale: its
 * holders are written as they are, even more than the ticket's quantity, which no sale would allow).
 */
async function order(ticket: string, holders: number, status: string, minutes = 0) {
  const id = await create(app, cast.other.token, 'orders', 'order', {}, of);
  for (let i = 0; i < holders; i++)
    await app.sql`insert into attendees (event_id, order_id, ticket_id, firstname)
      values (${Number(event)}, ${Number(id)}, ${Number(ticket)}, ${`Holder ${i}`})`;
  await app.sql`update orders set status = ${status}, created_at = now() - make_interval(mins => ${minutes})
    where id = ${Number(id)}`;
  return id;
}
await order(standard, 2, 'completed', 600);
await order(standard, 1, 'placed', 600);
await order(standard, 1, 'initializing', 5); // still open: held
await order(standard, 3, 'initializing', 20); // past the 15 minutes: released
await order(standard, 1, 'pending', 40); // pending: held for 15 + 30 minutes
await order(standard, 1, 'pending', 50); // past them: released
await order(standard, 2, 'cancelled');
await order(standard, 1, 'expired');
const deleted = await order(standard, 1, 'completed');
await app.sql`update orders set deleted_at = now() where id = ${Number(deleted)}`;
const partly = await order(few, 3, 'completed'); // more holders than the quantity: none left, never below 0
await app.sql`update attendees set deleted_at = now() where id = (select min(id) from attendees where order_id = ${Number(partly)})`;
await order(crew, 1, 'completed');
await deleteTicket(gone);

async function deleteTicket(id: string) {
  const res = await frontEnd(base, token).adapter('DELETE', `/v1/tickets/${id}`);
  if (res.status !== 200) throw new Error(`deleting ticket ${id}: ${res.status}`);
}

const publicList = [
  { id: Number(standard), name: 'Standard', quantity: 10, available: 5 },
  { id: Number(few), name: 'Few', quantity: 2, available: 0 },
];

t.test('the public page: what is left of each ticket on sale, ids as numbers', async (t) => {
  for (const who of [undefined, cast.other.token]) {
    const res = await frontEnd(base, who).loader('GET', `/v1/events/${event}/tickets/availability`);
    t.equal(res.status, 200);
    t.equal(res.headers.get('content-type'), 'application/json; charset=utf-8');
    t.strictSame(res.body, publicList, 'hidden, deleted and unlimited tickets are not listed');
  }
  const byIdentifier = await frontEnd(base).loader('GET', `/v1/events/${identifier}/tickets/availability`);
  t.strictSame(byIdentifier.body, publicList);
});

t.test("the organizers' add-order page sees the hidden ticket too", async (t) => {
  for (const who of [cast.organizer, cast.coorganizer, cast.admin]) {
    const res = await frontEnd(base, who.token).loader('GET', `/v1/events/${event}/tickets/availability`);
    t.strictSame(res.body, [...publicList, { id: Number(crew), name: 'Crew', quantity: 5, available: 4 }]);
  }
});

t.test("the settings' order expiry time decides how long open orders hold tickets", async (t) => {
  await app.sql`update settings set order_expiry_time = 60 where id = 1`;
  const res = await frontEnd(base).loader('GET', `/v1/events/${event}/tickets/availability`);
  // A 60-minute expiry holds both initializing orders and both pending ones: 2 + 1 + 1 + 3 + 1 + 1 of 10 taken.
  t.equal(res.body[0].available, 1);
  await app.sql`update settings set order_expiry_time = 15 where id = 1`;
});

t.test("a draft's tickets are its team's; unknown events and parameters are refused", async (t) => {
  for (const who of [undefined, cast.other.token]) {
    const res = await frontEnd(base, who).loader('GET', `/v1/events/${draft}/tickets/availability`);
    t.equal(res.status, 404);
    t.match(res.body.errors[0], { status: '404', detail: 'Event not found' });
  }
  const team = await frontEnd(base, cast.organizer.token).loader('GET', `/v1/events/${draft}/tickets/availability`);
  t.match(team.body, [{ name: 'Draft ticket', quantity: 4, available: 4 }]);
  t.equal((await frontEnd(base).loader('GET', '/v1/events/424242/tickets/availability')).status, 404);
  const bad = await frontEnd(base).loader('GET', `/v1/events/${event}/tickets/availability?page[size]=0`);
  t.equal(bad.status, 400);
  t.match(bad.body.errors[0], { source: { parameter: 'page[size]' } });
});
