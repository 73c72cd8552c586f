/**
 * open-event-frontend app/routes/events/view/tags.js and app/components/forms/add-tag-form.js (the organizers'
 * Tags page), and the attendee table's tags (app/routes/events/view/tickets/attendees/list.js:132,
 * app/controllers/events/view/tickets/attendees/list.js:103-116, cell-tag.js:13-18). The page reads
 * `event.query('tags', {})` (GET /v1/events/{id}/tags); when there are none it makes the three read-only defaults
 * with `createRecord('tag', {...})` and saves them, and "+" adds `createRecord('tag')`: neither sets the event, and
 * the application serializer leaves out an empty belongsTo, so those POSTs name no event (422 here, as in the
 * reference: a tag belongs to an event). Submit saves each tag (`tag.save()`: a PATCH of every attribute) and
 * deletes the removed ones. The attendee table tags holders with `attendee.set('tagId', id); attendee.save()` and
 * untags them with `tagId = ''` (the number transform sends null).
 */
import t from 'tap';
import { buildTestApp } from '../helpers/app.js';
import { create, createCast, createEvent, rel } from '../helpers/events.js';
import { frontEnd, listening } from '../helpers/front-end-client.js';
import { attendeeAttributes, ticketAttributes } from '../helpers/ticket-bodies.js';

const { app } = await buildTestApp(t);
const base = await listening(app);
const cast = await createCast(app);
const { id: event } = await createEvent(app, cast, 'Tags Conf', 'published');
const of = { event: rel('event', event) };
const organizer = frontEnd(base, cast.organizer.token);
const tag = (attributes: Record<string, unknown>, id?: string) => ({
  data: {
    ...(id ? { id } : {}),
    type: 'tag',
    attributes: { name: null, color: null, 'is-read-only': false, ...attributes },
  },
});
const query = () => organizer.adapter('GET', `/v1/events/${event}/tags`);

t.test('the first visit: no tags; the defaults the page makes name no event', async (t) => {
  const none = await query();
  t.equal(none.status, 200);
  t.strictSame(none.body.data, []);
  const orphan = await organizer.adapter('POST', '/v1/tags', {
    body: tag({ name: 'Speakers', color: '#FF0000', 'is-read-only': true }),
  });
  t.equal(orphan.status, 422);
  t.equal(orphan.body.errors[0].source.pointer, '/data/relationships');
  t.equal((await query()).body.meta.count, 0);
});

t.test("the page's tags once the event has them: read, renamed, recoloured, removed", async (t) => {
  for (const [name, color] of [
    ['Speakers', '#FF0000'],
    ['Attendees', '#0000FF'],
    ['VIPs', '#0000FF'],
  ])
    await create(app, cast.owner.token, 'tags', 'tag', { name, color, 'is-read-only': true }, of);
  const made = await organizer.adapter('POST', '/v1/tags', {
    body: {
      data: { type: 'tag', attributes: { name: 'Press', color: '#00FF00', 'is-read-only': false }, relationships: of },
    },
  });
  t.equal(made.status, 201);
  const read = await query();
  t.strictSame(
    read.body.data.map((d: { attributes: { name: string } }) => d.attributes.name),
    ['Speakers', 'Attendees', 'VIPs', 'Press'],
  );
  // Submit: `tag.save()` on every tag, each PATCH carrying all of its attributes.
  for (const d of read.body.data as { id: string; attributes: Record<string, unknown> }[]) {
    const attributes = d.attributes.name === 'VIPs' ? { ...d.attributes, color: '#FFD700' } : d.attributes;
    const { 'deleted-at': _, ...sent } = attributes;
    const res = await organizer.adapter('PATCH', `/v1/tags/${d.id}`, { body: tag(sent, d.id) });
    t.equal(res.status, 200, JSON.stringify(res.body.errors ?? ''));
  }
  const vips = (read.body.data as { id: string; attributes: { name: string } }[]).find(
    (d) => d.attributes.name === 'VIPs',
  )!;
  const renamed = await organizer.adapter('PATCH', `/v1/tags/${vips.id}`, {
    body: tag({ name: 'Guests', color: '#FFD700', 'is-read-only': true }, vips.id),
  });
  t.equal(renamed.status, 409, 'a read-only tag keeps its name (its input is read-only on the page)');
  const removed = await organizer.adapter('DELETE', `/v1/tags/${made.body.data.id}`);
  t.equal(removed.status, 200);
  t.equal((await query()).body.meta.count, 3);
  t.equal((await frontEnd(base, cast.other.token).adapter('GET', `/v1/events/${event}/tags`)).status, 403);
});

t.test('the attendee table tags and untags holders', async (t) => {
  const ticket = await create(app, cast.owner.token, 'tickets', 'ticket', ticketAttributes({ name: 'Standard' }), of);
  const order = await create(app, cast.other.token, 'orders', 'order', { amount: 0 }, of);
  const holder = await create(
    app,
    cast.other.token,
    'attendees',
    'attendee',
    attendeeAttributes({ firstname: 'Ada', lastname: 'Lovelace', email: 'ada@example.com' }),
    { ...of, order: rel('order', order), ticket: rel('ticket', ticket) },
  );
  const tags = (await query()).body.data as { id: string; attributes: { name: string } }[];
  const speakers = tags.find((d) => d.attributes.name === 'Speakers')!;
  const read = await organizer.adapter('GET', `/v1/attendees/${holder}`);
  const {
    identifier: _i,
    'ticket-id': _t,
    'pdf-url': _p,
    'created-at': _c,
    'deleted-at': _d,
    ...attributes
  } = read.body.data.attributes;
  const save = (tagId: number | null) =>
    organizer.adapter('PATCH', `/v1/attendees/${holder}`, {
      body: { data: { id: holder, type: 'attendee', attributes: { ...attributes, 'tag-id': tagId } } },
    });
  const tagged = await save(Number.parseInt(speakers.id, 10));
  t.equal(tagged.status, 200, JSON.stringify(tagged.body.errors ?? ''));
  t.equal(tagged.body.data.attributes['tag-id'], Number(speakers.id));
  const untagged = await save(null);
  t.equal(untagged.body.data.attributes['tag-id'], null);
  // The buyer cannot tag their own ticket holder.
  const buyer = await frontEnd(base, cast.other.token).adapter('PATCH', `/v1/attendees/${holder}`, {
    body: { data: { id: holder, type: 'attendee', attributes: { 'tag-id': Number(speakers.id) } } },
  });
  t.equal(buyer.status, 403);
  t.equal(buyer.body.errors[0].source.pointer, '/data/attributes/tag-id');
});
