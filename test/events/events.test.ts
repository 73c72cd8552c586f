/**
 * Events: creation (owner, identifier), addressing by id or identifier, the event-topic list,
 * includes, and the canonical time zone. Soft delete is in event-soft-delete.test.ts.
 */
import t from 'tap';
import { assertDocument, buildTestApp, call } from '../helpers/app.js';
import { buildWorld, create, createEvent, eventAttributes } from '../helpers/events.js';
import { expectError } from '../helpers/users.js';
import { eventOptions } from '../../src/resources/events/options.js';

const { app } = await buildTestApp(t);
const world = await buildWorld(app);
const { cast } = world;
const pub = world.published;

const ATTRIBUTES = [
  'code-of-conduct',
  'created-at',
  'deleted-at',
  'description',
  'ends-at',
  'external-event-url',
  'icon-image-url',
  'identifier',
  'large-image-url',
  'latitude',
  'location-name',
  'logo-url',
  'longitude',
  'name',
  'original-image-url',
  'privacy',
  'starts-at',
  'state',
  'thumbnail-image-url',
  'ticket-url',
  'timezone',
  // Where conference apps and calendars read the schedule (src/schedule).
  'ical-url',
  'pentabarf-url',
  'xcal-url',
  // The Open Event front end's settings of an event (issue 21).
  ...Object.keys(eventOptions),
].sort();
const RELATIONSHIPS = [
  'attendees',
  'coorganizers',
  'custom-forms',
  'event-copyright',
  'event-invoices',
  'event-topic',
  'microlocations',
  'orders',
  'organizers',
  'owner',
  'session-types',
  'sessions',
  'social-links',
  'speakers',
  'speakers-call',
  'sponsors',
  'stripe-authorization',
  'tax',
  'tickets',
  'tracks',
  'event-type',
  'event-sub-topic',
  'session-favourites',
  'feedbacks',
  'speaker-invites',
  'group',
  'video-stream',
  'moderators',
  'registrars',
  'role-invites',
  'roles',
  'track-organizers',
  'general-statistics',
  'order-statistics',
  // Ticketing (issue 41): the event's codes, its fee code, its ticket tags and attendee tags.
  'access-codes',
  'discount-codes',
  'discount-code',
  'ticket-tags',
  'tags',
  // The door (issue 42): its stations, check-ins and badge layouts.
  'stations',
  'user-check-in',
  'badge-forms',
].sort();
const ids = (res: { body: { data: { id: string }[] } }) =>
  res.body.data.map((d) => d.id).sort((a, b) => Number(a) - Number(b));

t.test('POST /v1/events: the creator owns the event, which gets an 8-char identifier', async (t) => {
  const res = await call(app, {
    method: 'POST',
    url: '/v1/events',
    token: cast.other.token,
    body: { data: { type: 'event', attributes: eventAttributes('Mine', 'draft') } },
  });
  assertDocument(t, res, 201);
  const { data } = res.body;
  t.same(Object.keys(res.body).sort(), ['data', 'jsonapi', 'links']);
  t.equal(res.headers.location, `/v1/events/${data.id}`, 'Location');
  t.same(res.body.links, { self: `/v1/events/${data.id}` });
  t.equal(data.type, 'event');
  t.match(data.id, /^\d+$/);
  t.same(Object.keys(data).sort(), ['attributes', 'id', 'links', 'relationships', 'type']);
  t.same(data.links, { self: `/v1/events/${data.id}` });
  t.same(Object.keys(data.attributes).sort(), ATTRIBUTES, 'every event attribute, nothing else');
  t.match(data.attributes, {
    name: 'Mine',
    state: 'draft',
    timezone: 'Europe/Berlin',
    privacy: 'public',
    'deleted-at': null,
  });
  t.match(data.attributes.identifier, /^[a-z][a-z0-9]{7}$/, 'identifier: 8 characters, a letter first');
  t.same(Object.keys(data.relationships).sort(), RELATIONSHIPS);
  for (const [name, member] of Object.entries(data.relationships) as [string, { links: unknown }][])
    t.same(
      member.links,
      { self: `/v1/events/${data.id}/relationships/${name}`, related: `/v1/events/${data.id}/${name}` },
      name,
    );
  t.same(data.relationships.owner.data, { type: 'user', id: cast.other.id }, 'the creator is the owner');
  t.same(data.relationships['event-topic'].data, null);

  const owner = await call(app, { url: `/v1/events/${data.id}/relationships/owner`, token: cast.other.token });
  t.same(owner.body.data, { type: 'user', id: cast.other.id });
  const mine = await call(app, { url: `/v1/events/${data.id}`, token: cast.other.token });
  t.equal(mine.status, 200, 'the owner sees their draft');

  const identifiers = [data.attributes.identifier as string];
  for (let i = 0; i < 15; i++) {
    const id = await create(app, cast.other.token, 'events', 'event', eventAttributes(`Many ${i}`));
    const got = await call(app, { url: `/v1/events/${id}` });
    identifiers.push(got.body.data.attributes.identifier);
  }
  t.ok(
    identifiers.every((i) => /^[a-z][a-z0-9]{7}$/.test(i)),
    'all well-formed',
  );
  t.equal(new Set(identifiers).size, identifiers.length, 'all different');

  const fixed = await call(app, {
    method: 'POST',
    url: '/v1/events',
    token: cast.other.token,
    body: { data: { type: 'event', attributes: { ...eventAttributes('Fixed'), identifier: 'abcdefgh' } } },
  });
  expectError(t, fixed, 422, { pointer: '/data/attributes/identifier' });
});

t.test("a new event starts with the attendee form's email field, as the front end's order page reads it", async (t) => {
  const id = await create(app, cast.other.token, 'events', 'event', eventAttributes('Forms', 'draft'));
  // app/routes/orders/new.js: the event's attendee fields, every one, by id.
  const filter = encodeURIComponent(JSON.stringify([{ name: 'form', op: 'eq', val: 'attendee' }]));
  const res = await call(app, {
    url: `/v1/events/${id}/custom-forms?filter=${filter}&page[size]=0&sort=id`,
    token: cast.other.token,
  });
  assertDocument(t, res, 200);
  t.equal(res.body.meta.count, 1);
  t.match(res.body.data[0].attributes, {
    form: 'attendee',
    'field-identifier': 'email',
    type: 'email',
    name: 'Email',
    'is-required': true,
    'is-included': true,
    'is-fixed': true,
    'is-public': false,
    'is-complex': false,
    position: 0,
  });
  t.same(res.body.data[0].relationships.event.data, { type: 'event', id });
  const all = await call(app, { url: `/v1/events/${id}/custom-forms?page[size]=0`, token: cast.other.token });
  t.equal(all.body.meta.count, 1, 'no session or speaker fields');

  const forms = async () => (await app.sql`select count(*)::int as n from custom_forms`)[0]!.n as number;
  const before = await forms();
  const refused = await call(app, {
    method: 'POST',
    url: '/v1/events',
    token: cast.other.token,
    body: {
      data: { type: 'event', attributes: { ...eventAttributes('Backwards'), 'ends-at': '2030-04-01T09:00:00Z' } },
    },
  });
  expectError(t, refused, 422, { pointer: '/data/attributes/ends-at' });
  t.equal(await forms(), before, 'a refused event leaves no form behind');
});

t.test('every event path takes the id or the identifier', async (t) => {
  const token = cast.owner.token;
  const byId = await call(app, { url: `/v1/events/${pub.event}`, token });
  const byKey = await call(app, { url: `/v1/events/${pub.identifier}`, token });
  assertDocument(t, byKey, 200);
  t.same(byKey.body, byId.body, 'the same document');
  t.equal(byKey.body.data.id, pub.event, 'the id stays numeric');
  t.equal(byKey.body.links.self, `/v1/events/${pub.event}`);
  t.equal(
    (await call(app, { url: `/v1/events/${world.draft.identifier}` })).status,
    404,
    'a draft is hidden by identifier too',
  );
  expectError(t, await call(app, { url: '/v1/events/zzzzzzzz' }), 404, { detail: 'Object not found.' });

  for (const list of [
    'sessions',
    'speakers',
    'tracks',
    'microlocations',
    'sponsors',
    'session-types',
    'social-links',
    'custom-forms',
  ]) {
    const a = await call(app, { url: `/v1/events/${pub.event}/${list}`, token });
    const b = await call(app, { url: `/v1/events/${pub.identifier}/${list}`, token });
    t.equal(b.status, 200, `${list} by identifier`);
    t.same(b.body, a.body, `${list}: the same list`);
    // Custom forms: the test's field and the attendee email field every new event starts with.
    t.equal(b.body.meta.count, list === 'custom-forms' ? 2 : 1, `${list}: the event's one record`);
  }
  for (const one of ['event-copyright', 'event-topic', 'owner']) {
    const b = await call(app, { url: `/v1/events/${pub.identifier}/${one}`, token });
    t.same(b.body, (await call(app, { url: `/v1/events/${pub.event}/${one}`, token })).body, `${one} by identifier`);
  }
  const linkage = await call(app, { url: `/v1/events/${pub.identifier}/relationships/organizers`, token });
  t.same(linkage.body.data, [{ type: 'user', id: cast.organizer.id }]);
  t.same(linkage.body.links, {
    self: `/v1/events/${pub.event}/relationships/organizers`,
    related: `/v1/events/${pub.event}/organizers`,
  });

  const speaker = await call(app, {
    method: 'POST',
    url: `/v1/events/${pub.identifier}/speakers`,
    token,
    body: { data: { type: 'speaker', attributes: { name: 'By key' } } },
  });
  t.equal(speaker.status, 201, 'POST on a related path by identifier');
  t.same(speaker.body.data.relationships.event.data, { type: 'event', id: pub.event });
  t.equal((await call(app, { method: 'DELETE', url: `/v1/speakers/${speaker.body.data.id}`, token })).status, 200);
});

t.test('PATCH and DELETE by identifier; the body id may be the numeric id or the identifier', async (t) => {
  const token = cast.owner.token;
  const { id, identifier } = await createEvent(app, cast, 'Renamed', 'published');
  const patch = (path: string, bodyId: string, name: string) =>
    call(app, {
      method: 'PATCH',
      url: `/v1/events/${path}`,
      token,
      body: { data: { type: 'event', id: bodyId, attributes: { name } } },
    });

  const numeric = await patch(identifier, id, 'First');
  assertDocument(t, numeric, 200);
  t.equal(numeric.body.data.id, id);
  t.equal(numeric.body.data.attributes.name, 'First');
  t.equal(numeric.body.data.attributes.identifier, identifier, 'the identifier does not change');
  t.same(numeric.body.links, { self: `/v1/events/${id}` });
  t.equal((await patch(identifier, identifier, 'Second')).body.data?.attributes.name, 'Second');
  t.equal((await patch(id, id, 'Third')).body.data?.attributes.name, 'Third');
  expectError(t, await patch(identifier, String(Number(id) + 1000), 'Nope'), 409, { pointer: '/data/id' });
  expectError(t, await patch(id, identifier, 'Nope'), 409, { pointer: '/data/id' });
  expectError(t, await patch(identifier, pub.event, 'Nope'), 409, { pointer: '/data/id' });
  t.equal(
    (await call(app, { url: `/v1/events/${id}` })).body.data.attributes.name,
    'Third',
    'refused changes left nothing',
  );

  const del = await call(app, { method: 'DELETE', url: `/v1/events/${identifier}`, token });
  assertDocument(t, del, 200);
  t.same(del.body, { meta: { message: 'Object successfully deleted' }, jsonapi: { version: '1.0' } });
  t.equal((await call(app, { url: `/v1/events/${id}`, token })).status, 404);
  t.equal((await call(app, { url: `/v1/events/${identifier}`, token })).status, 404);
});

t.test("/v1/event-topics/{id}/events: only the topic's events, only those the caller sees", async (t) => {
  const topic2 = await create(app, cast.admin.token, 'event-topics', 'event-topic', { name: 'Music' });
  const other = await createEvent(app, cast, 'Concert', 'published', topic2);
  await createEvent(app, cast, 'Loose', 'published');
  const list = (topic: string, token?: string) => call(app, { url: `/v1/event-topics/${topic}/events`, token });

  const anonymous = await list(world.topic);
  assertDocument(t, anonymous, 200);
  t.same(ids(anonymous), [pub.event], 'anonymous: the published event only');
  t.equal(anonymous.body.meta.count, 1);
  t.equal(anonymous.body.data[0].type, 'event');
  t.equal(anonymous.body.links.self, `/v1/event-topics/${world.topic}/events?page%5Bsize%5D=20&page%5Bnumber%5D=1`);
  t.same(ids(await list(world.topic, cast.other.token)), [pub.event], 'an unrelated user: the same');
  t.same(ids(await list(world.topic, cast.speaker.token)), [pub.event], "the draft's speaker user: the same");
  for (const role of ['owner', 'organizer', 'coorganizer', 'admin'] as const)
    t.same(ids(await list(world.topic, cast[role].token)), [pub.event, world.draft.event], `${role}: the draft too`);
  const linkage = (token?: string) => call(app, { url: `/v1/event-topics/${world.topic}/relationships/events`, token });
  t.same((await linkage()).body.data, [{ type: 'event', id: pub.event }], 'the linkage hides the draft from anonymous');
  t.same(
    (await linkage(cast.organizer.token)).body.data.map((e: { id: string }) => e.id),
    [pub.event, world.draft.event],
  );
  t.same(ids(await list(topic2)), [other.id], 'the other topic lists its own event');
  t.same(ids(await list(topic2, cast.owner.token)), [other.id]);
  t.equal((await list('999999')).status, 404);
});

t.test('GET /v1/events/{id}?include=social-links,event-copyright', async (t) => {
  const res = await call(app, { url: `/v1/events/${pub.event}?include=social-links,event-copyright` });
  assertDocument(t, res, 200);
  t.same(Object.keys(res.body).sort(), ['data', 'included', 'jsonapi', 'links']);
  t.same(res.body.data.relationships['social-links'].data, [{ type: 'social-link', id: pub.socialLink }]);
  t.same(res.body.data.relationships['event-copyright'].data, { type: 'event-copyright', id: pub.copyright });
  const byType = Object.fromEntries(res.body.included.map((r: { type: string }) => [r.type, r]));
  t.equal(res.body.included.length, 2, 'exactly the two included resources');
  t.match(byType['social-link'], {
    type: 'social-link',
    id: pub.socialLink,
    attributes: { name: 'Site', link: 'https://example.com' },
    relationships: { event: { links: { self: `/v1/social-links/${pub.socialLink}/relationships/event` } } },
    links: { self: `/v1/social-links/${pub.socialLink}` },
  });
  t.match(byType['event-copyright'], {
    type: 'event-copyright',
    id: pub.copyright,
    attributes: { holder: 'FOSSASIA', licence: 'CC BY 4.0', year: 2024 },
    links: { self: `/v1/event-copyrights/${pub.copyright}` },
  });
  t.same(byType['social-link'].relationships.event.data, { type: 'event', id: pub.event });
  const byKey = await call(app, { url: `/v1/events/${pub.identifier}?include=social-links,event-copyright` });
  t.same(byKey.body, res.body, 'the same through the identifier');
  t.equal(
    (await call(app, { url: `/v1/events/${world.draft.event}?include=social-links`, token: cast.other.token })).status,
    404,
  );
});

t.test('time zones are stored in their canonical spelling', async (t) => {
  const token = cast.owner.token;
  const res = await call(app, {
    method: 'POST',
    url: '/v1/events',
    token,
    body: { data: { type: 'event', attributes: { ...eventAttributes('Zoned'), timezone: 'europe/berlin' } } },
  });
  t.equal(res.status, 201);
  t.equal(res.body.data.attributes.timezone, 'Europe/Berlin');
  const id = res.body.data.id;
  t.equal((await call(app, { url: `/v1/events/${id}` })).body.data.attributes.timezone, 'Europe/Berlin', 'as stored');
  const patched = await call(app, {
    method: 'PATCH',
    url: `/v1/events/${id}`,
    token,
    body: { data: { type: 'event', id, attributes: { timezone: 'AMERICA/NEW_YORK' } } },
  });
  t.equal(patched.body.data?.attributes.timezone, 'America/New_York');
  const bad = await call(app, {
    method: 'PATCH',
    url: `/v1/events/${id}`,
    token,
    body: { data: { type: 'event', id, attributes: { timezone: 'Mars/Olympus' } } },
  });
  expectError(t, bad, 422, { pointer: '/data/attributes/timezone' });
});
