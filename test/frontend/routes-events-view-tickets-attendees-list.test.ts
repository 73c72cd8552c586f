/**
 * open-event-frontend:app/routes/events/view/tickets/attendees/list.js:44-127: the organizers' attendees
 * table. Its search goes through applySearchFiltersExtend (app/mixins/ember-table-route.js:87-141) with
 * six fields, so the filter always ends with `{"or": [...]}`, empty while nothing is searched: every load
 * of the page sends `[{"or": []}]` (all attendees) or a tab's condition and `{"or": []}`. An empty `or`
 * is no condition, as the reference rendered it (src/jsonapi/filter.ts). Fields written `ticket__name`
 * become `{name: 'ticket', op: 'has', val: {name: 'name', ...}}`.
 */
import t from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import { create, createCast, createEvent, rel } from '../helpers/events.js';
import { frontEnd, listening } from '../helpers/front-end-client.js';
import { ticketAttributes } from '../helpers/ticket-bodies.js';

const { app } = await buildTestApp(t);
const base = await listening(app);
const cast = await createCast(app);
const { id: event } = await createEvent(app, cast, 'Attendee Conf', 'published');
const { id: draft } = await createEvent(app, cast, 'Attendee Draft', 'draft');
const token = cast.owner.token;
const of = { event: rel('event', event) };
const standard = await create(app, token, 'tickets', 'ticket', ticketAttributes({ name: 'Standard' }), of);
const vip = await create(app, token, 'tickets', 'ticket', ticketAttributes({ name: 'VIP Pass' }), of);

async function orderOf(status: string, holders: [string, string, boolean][]) {
  const order = await create(app, cast.other.token, 'orders', 'order', { amount: 0 }, of);
  const ids: string[] = [];
  for (const [firstname, ticket, checkedIn] of holders)
    ids.push(
      await create(
        app,
        token,
        'attendees',
        'attendee',
        { firstname, 'is-checked-in': checkedIn },
        {
          ...of,
          order: rel('order', order),
          ticket: rel('ticket', ticket),
        },
      ),
    );
  if (status !== 'initializing') {
    const res = await call(app, {
      method: 'PATCH',
      url: `/v1/orders/${order}`,
      token,
      body: { data: { type: 'order', id: order, attributes: { status } } },
    });
    if (res.status !== 200) throw new Error(`order ${status}: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return ids;
}
const [ada, bob] = await orderOf('completed', [
  ['Ada Lovelace', standard, true],
  ['Bob', vip, false],
]);
const [cid] = await orderOf('pending', [['Cid', standard, false]]);

const SEARCH_FIELDS = ['firstname', 'lastname', 'email', 'ticket__name', 'ticket__price', 'order__identifier'];

/** applySearchFiltersExtend for a search (or none): the `or` it appends. */
function searchOr(search?: string) {
  const filters: unknown[] = [];
  for (const field of SEARCH_FIELDS) {
    if (!search) continue;
    const [name, inner] = field.split('__');
    if (!inner) filters.push({ name, op: 'ilike', val: `%${search}%` });
    else if (inner !== 'price')
      filters.push({ name, op: 'has', val: { name: inner, op: 'ilike', val: `%${search}%` } });
    else if (!Number.isNaN(Number(search)))
      filters.push({
        name,
        op: 'has',
        val: Number(search) ? { name: inner, op: 'eq', val: search } : { name: inner, op: 'is_', val: null },
      });
  }
  return { or: filters };
}

/** The page's attendee query for a tab's conditions and a search (lines 117-124; per_page unset, no sort). */
const attendees = (client: ReturnType<typeof frontEnd>, tab: unknown[], search?: string, at = event) =>
  client.adapter('GET', `/v1/events/${at}/attendees`, {
    query: { include: 'user,ticket', filter: [...tab, searchOr(search)], 'page[number]': 1 },
  });
const organizer = frontEnd(base, cast.organizer.token);
const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((a) => a.id);

t.test('the all tab sends [{"or": []}] and lists every attendee', async (t) => {
  const res = await attendees(organizer, []);
  t.equal(res.status, 200, JSON.stringify(res.body?.errors ?? ''));
  t.strictSame(ids(res), [ada, bob, cid]);
  t.equal(res.body.meta.count, 3);
  t.strictSame(
    res.body.included.map((r: { type: string; id: string }) => `${r.type} ${r.id}`).sort(),
    [`ticket ${standard}`, `ticket ${vip}`].sort(),
  );
  const url = new URL(res.body.links.self, 'http://x');
  t.equal(url.searchParams.get('filter'), '[{"or":[]}]', 'the links keep the filter');
});

t.test("a tab's condition beside the empty search", async (t) => {
  const completed = [{ name: 'order', op: 'has', val: { name: 'status', op: 'eq', val: 'completed' } }];
  t.strictSame(ids(await attendees(organizer, completed)), [ada, bob]);
  const pending = [{ name: 'order', op: 'has', val: { name: 'status', op: 'eq', val: 'pending' } }];
  t.strictSame(ids(await attendees(organizer, pending)), [cid]);
  t.strictSame(ids(await attendees(organizer, [{ name: 'is-checked-in', op: 'eq', val: true }])), [ada]);
  t.strictSame(ids(await attendees(organizer, [{ name: 'is-checked-in', op: 'eq', val: false }])), [bob, cid]);
});

t.test('a search fills the or: names, ticket names, a price', async (t) => {
  // Letters no order identifier (a UUID, hex) holds.
  t.strictSame(ids(await attendees(organizer, [], 'love')), [ada]);
  t.strictSame(ids(await attendees(organizer, [], 'vip')), [bob], 'by ticket name');
  t.strictSame(ids(await attendees(organizer, [], '0')), [ada, bob, cid], 'free tickets: price is null');
  const completed = [{ name: 'order', op: 'has', val: { name: 'status', op: 'eq', val: 'completed' } }];
  t.strictSame(ids(await attendees(organizer, completed, 'standard')), [ada]);
});

t.test('who sees what; a bad filter is still 400', async (t) => {
  // The event's attendees are its organizers' list (a buyer reads their order's holders elsewhere).
  for (const who of [cast.other, cast.speaker]) t.equal((await attendees(frontEnd(base, who.token), [])).status, 403);
  t.strictSame(ids(await attendees(frontEnd(base, cast.coorganizer.token), [])), [ada, bob, cid], 'coorganizers too');
  t.equal((await attendees(frontEnd(base), [])).status, 401);
  t.equal((await attendees(frontEnd(base, cast.other.token), [], undefined, draft)).status, 404, "a draft's");
  t.equal((await attendees(frontEnd(base, cast.organizer.token), [], undefined, draft)).status, 200);
  const bad = await organizer.adapter('GET', `/v1/events/${event}/attendees`, { query: { filter: [{ or: {} }] } });
  t.equal(bad.status, 400);
  t.match(bad.body.errors[0], { source: { parameter: 'filter' }, detail: 'Invalid filter: "or" takes an array' });
});
