/**
 * open-event-frontend:app/adapters/discount-code.js (urlForQueryRecord) with app/components/public/ticket-list.js
 * (applyPromotionalCode) and app/controllers/public/index.js: the public event page looks a promotional code up with
 * `store.queryRecord('discount-code', {eventIdentifier, code, include: 'event,tickets'})`, which GETs
 * `/v1/events/{eventIdentifier}/discount-codes/{code}` with the query as parameters too. Whoever knows the code (a
 * visitor not logged in as well: the discount link opens the page) reads it while it can be used; then compares the
 * included event's identifier with the page's and reads the included tickets. Inactive, not yet valid, expired and
 * used up codes answer 422 with a detail; unknown ones 404; by id, a buyer finds nothing.
 */
import t from 'tap';
import { buildTestApp } from '../helpers/app.js';
import { discountCodeDocument } from '../helpers/code-bodies.js';
import { create, createCast, createEvent, rel } from '../helpers/events.js';
import { frontEnd, listening } from '../helpers/front-end-client.js';
import { createTicket } from '../helpers/tickets.js';
import { discountCodeFor } from '../../src/resources/discount-codes/usage.js';

const { app } = await buildTestApp(t);
const base = await listening(app);
const cast = await createCast(app);
const { id: event, identifier } = await createEvent(app, cast, 'Promo Conf', 'published');
const { id: draft } = await createEvent(app, cast, 'Promo Draft', 'draft');
const token = cast.owner.token;
const of = { event: rel('event', event) };
const paid = await createTicket(app, token, event, { name: 'Paid', type: 'paid', price: 20 });
const hidden = await createTicket(app, token, event, { name: 'Secret', type: 'paid', price: 30, 'is-hidden': true });

async function code(attributes: Record<string, unknown>, tickets = [paid], at = event) {
  const res = await frontEnd(base, token).adapter('POST', '/v1/discount-codes', {
    body: discountCodeDocument({ event: at, marketer: cast.owner.id, tickets, attributes }),
  });
  if (res.status !== 201) throw new Error(`code: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.id as string;
}
const promo = await code({ code: 'Promo10', type: 'percent', value: 10, 'tickets-number': 3, 'max-quantity': 3 }, [
  paid,
  hidden,
]);
await code({ code: 'OFF', 'is-active': false });
await code({ code: 'LATER', 'valid-from': '2099-01-01T00:00:00Z', 'valid-till': '2099-02-01T00:00:00Z' });
await code({ code: 'PAST', 'valid-from': '2020-01-01T00:00:00Z', 'valid-till': '2020-02-01T00:00:00Z' });
const gone = await code({ code: 'GONE' });
await frontEnd(base, token).adapter('DELETE', `/v1/discount-codes/${gone}`);

/** The request ember-data's queryRecord sends through the adapter. */
const lookUp = (who: string | undefined, eventIdentifier: string, text: string, include?: string) =>
  frontEnd(base, who).adapter('GET', `/v1/events/${eventIdentifier}/discount-codes/${text}`, {
    query: { eventIdentifier, code: text, ...(include ? { include } : {}) },
  });

t.test('anyone who knows the code reads it with its event and tickets, by identifier or id', async (t) => {
  for (const who of [undefined, cast.other.token, cast.organizer.token]) {
    for (const named of [identifier, event]) {
      const res = await lookUp(who, named, 'promo10', 'event,tickets');
      t.equal(res.status, 200, JSON.stringify(res.body?.errors));
      t.match(res.body.data, {
        id: promo,
        type: 'discount-code',
        attributes: { code: 'Promo10', type: 'percent', value: 10, 'tickets-number': 3 },
        relationships: { event: { data: { type: 'event', id: event } } },
      });
      t.equal(res.body.links.self, `/v1/discount-codes/${promo}`);
      const included = res.body.included as { type: string; id: string; attributes: Record<string, unknown> }[];
      t.equal(included.find((r) => r.type === 'event')?.attributes.identifier, identifier);
      const tickets = included.filter((r) => r.type === 'ticket').map((r) => r.id);
      // A discount code shows no hidden ticket: only an access code does.
      t.strictSame(tickets, who === cast.organizer.token ? [paid, hidden] : [paid]);
    }
  }
});

t.test('a code that cannot be used now is 422 with a detail; none is 404', async (t) => {
  const cases: [string, number, RegExp][] = [
    ['OFF', 422, /not active/],
    ['LATER', 422, /not valid yet/],
    ['PAST', 422, /expired/],
    ['GONE', 404, /does not exist/],
    ['NOPE', 404, /does not exist/],
  ];
  for (const [text, status, detail] of cases) {
    const res = await lookUp(cast.other.token, identifier, text, 'event,tickets');
    t.equal(res.status, status, text);
    t.match(res.body.errors[0], { status: String(status), detail }, text);
    if (status === 422) t.match(res.body.errors[0].source, { parameter: 'code' });
  }
  t.equal((await lookUp(cast.other.token, draft, 'promo10')).status, 404, "a draft's codes are its team's");
  t.equal((await lookUp(undefined, '424242', 'promo10')).status, 404);
});

t.test('used up: the holders of live orders that applied it count, others do not', async (t) => {
  const order = async (status: string, holders: number, applied = true) => {
    const id = await create(app, cast.other.token, 'orders', 'order', { amount: 0 }, of);
    for (let i = 0; i < holders; i++)
      await create(
        app,
        token,
        'attendees',
        'attendee',
        { firstname: `H${i}` },
        { ...of, order: rel('order', id), ticket: rel('ticket', paid) },
      );
    await app.sql`update orders set status = ${status}, discount_code_id = ${Number(promo)} where id = ${Number(id)}`;
    await app.sql`update attendees set is_discount_applied = ${applied} where order_id = ${Number(id)}`;
  };
  await order('cancelled', 3);
  await order('completed', 2, false);
  await order('placed', 2);
  const use = await discountCodeFor(app.db, Number(event), 'PROMO10');
  t.equal(use.used, 2);
  t.equal(use.remaining, 1);
  t.strictSame(use.ticketIds, [Number(paid), Number(hidden)]);
  t.equal((await lookUp(cast.other.token, identifier, 'promo10')).status, 200);
  await order('pending', 1);
  const res = await lookUp(cast.other.token, identifier, 'promo10');
  t.equal(res.status, 422);
  t.match(res.body.errors[0], { detail: /used up/ });
  const refused = await discountCodeFor(app.db, Number(event), Number(promo), {
    source: { pointer: '/discount-code' },
  }).catch((err: { status: number; source: unknown }) => err);
  t.match(refused, { status: 422, source: { pointer: '/discount-code' } }, 'by id, pointing where the caller says');
});

t.test('by id and in lists, a buyer finds nothing', async (t) => {
  for (const who of [undefined, cast.other.token]) {
    t.equal((await frontEnd(base, who).adapter('GET', `/v1/discount-codes/${promo}`)).status, 404);
    t.equal((await frontEnd(base, who).adapter('GET', `/v1/discount-codes/${promo}/tickets`)).status, 404);
  }
  t.equal((await frontEnd(base, cast.other.token).adapter('GET', `/v1/events/${event}/discount-codes`)).status, 403);
  t.equal((await frontEnd(base).adapter('GET', `/v1/events/${event}/discount-codes`)).status, 401);
  t.equal((await frontEnd(base, cast.other.token).adapter('GET', '/v1/discount-codes')).status, 403);
});

t.test('unknown query parameters are still refused', async (t) => {
  const res = await frontEnd(base).adapter('GET', `/v1/events/${event}/discount-codes/promo10`, {
    query: { bogus: 1 },
  });
  t.equal(res.status, 400);
});
