/**
 * Event copyright: one live copyright per event, the /v1/event-copyright/{id} alias, and the
 * /v1/events/{id}/event-copyright related route.
 */
import t from 'tap';
import { assertDocument, buildTestApp, call } from '../helpers/app.js';
import { buildWorld, create, eventAttributes, rel } from '../helpers/events.js';
import { expectError } from '../helpers/users.js';

const { app } = await buildTestApp(t);
const world = await buildWorld(app);
const { cast } = world;
const pub = world.published;
const owner = cast.owner.token;

const post = (event: string, attributes: Record<string, unknown>, token: string = owner) =>
  call(app, {
    method: 'POST',
    url: '/v1/event-copyrights',
    token,
    body: { data: { type: 'event-copyright', attributes, relationships: { event: rel('event', event) } } },
  });
const related = (event: string, token?: string) => call(app, { url: `/v1/events/${event}/event-copyright`, token });

t.test('one copyright per event: a second one is 409', async (t) => {
  const second = await post(pub.event, { licence: 'MIT' });
  expectError(t, second, 409, { pointer: '/data/relationships/event', detail: 'The event already has a copyright' });
  const list = await call(app, { url: `/v1/events/${pub.event}/event-copyrights`, token: owner });
  t.equal(list.status, 404, 'the to-one relationship has no list route');
  const all = await call(app, { url: '/v1/event-copyrights?page[size]=100', token: cast.admin.token });
  t.same(
    all.body.data
      .filter(
        (c: { relationships: { event: { data: { id: string } } } }) => c.relationships.event.data.id === pub.event,
      )
      .map((c: { id: string }) => c.id),
    [pub.copyright],
    'still just the one',
  );
  const other = await create(app, owner, 'events', 'event', eventAttributes('Fresh'));
  const first = await post(other, { licence: 'MIT', holder: 'Me', year: 2020 });
  assertDocument(t, first, 201);
  t.equal(first.headers.location, `/v1/event-copyrights/${first.body.data.id}`);
  expectError(t, await post(other, { licence: 'GPL' }), 409, { pointer: '/data/relationships/event' });
});

t.test('/v1/event-copyright/{id} is an alias of /v1/event-copyrights/{id}', async (t) => {
  const id = pub.copyright;
  const canonical = await call(app, { url: `/v1/event-copyrights/${id}` });
  const alias = await call(app, { url: `/v1/event-copyright/${id}` });
  assertDocument(t, alias, 200);
  t.strictSame(alias.body, canonical.body, 'the same document');
  t.strictSame(alias.body, {
    data: {
      type: 'event-copyright',
      id,
      attributes: {
        holder: 'FOSSASIA',
        'holder-url': null,
        licence: 'CC BY 4.0',
        'licence-url': null,
        year: 2024,
        'logo-url': null,
        'deleted-at': null,
      },
      relationships: {
        event: {
          links: {
            self: `/v1/event-copyrights/${id}/relationships/event`,
            related: `/v1/event-copyrights/${id}/event`,
          },
          data: { type: 'event', id: pub.event },
        },
      },
      links: { self: `/v1/event-copyrights/${id}` },
    },
    links: { self: `/v1/event-copyrights/${id}` },
    jsonapi: { version: '1.0' },
  });
  t.equal(
    (await call(app, { url: `/v1/event-copyright/${world.draft.copyright}` })).status,
    404,
    'a draft event hides it on the alias too',
  );
  t.equal(
    (await call(app, { url: `/v1/event-copyright/${world.draft.copyright}`, token: cast.coorganizer.token })).status,
    200,
  );

  const patched = await call(app, {
    method: 'PATCH',
    url: `/v1/event-copyright/${id}`,
    token: cast.coorganizer.token,
    body: {
      data: {
        type: 'event-copyright',
        id,
        attributes: { holder: 'FOSSASIA e.V.', 'licence-url': 'https://creativecommons.org/licenses/by/4.0/' },
      },
    },
  });
  assertDocument(t, patched, 200);
  t.match(patched.body.data.attributes, {
    holder: 'FOSSASIA e.V.',
    'licence-url': 'https://creativecommons.org/licenses/by/4.0/',
    licence: 'CC BY 4.0',
  });
  t.same(patched.body.links, { self: `/v1/event-copyrights/${id}` });
  t.strictSame(
    (await call(app, { url: `/v1/event-copyrights/${id}` })).body.data,
    patched.body.data,
    'seen through the canonical path',
  );
  const mismatch = await call(app, {
    method: 'PATCH',
    url: `/v1/event-copyright/${id}`,
    token: owner,
    body: { data: { type: 'event-copyright', id: world.draft.copyright, attributes: { holder: 'X' } } },
  });
  expectError(t, mismatch, 409, { pointer: '/data/id' });
  expectError(t, await call(app, { method: 'DELETE', url: `/v1/event-copyright/${id}` }), 401);
  expectError(t, await call(app, { method: 'DELETE', url: `/v1/event-copyright/${id}`, token: cast.other.token }), 403);
});

t.test('/v1/events/{id}/event-copyright answers the copyright, or data null', async (t) => {
  const res = await related(pub.event);
  assertDocument(t, res, 200);
  t.same(Object.keys(res.body).sort(), ['data', 'jsonapi', 'links']);
  t.same(res.body.links, { self: `/v1/events/${pub.event}/event-copyright` });
  t.strictSame(
    res.body.data,
    (await call(app, { url: `/v1/event-copyrights/${pub.copyright}` })).body.data,
    'the whole resource',
  );
  t.strictSame((await related(pub.identifier)).body, res.body, 'by identifier too');
  const linkage = await call(app, { url: `/v1/events/${pub.event}/relationships/event-copyright` });
  t.strictSame(linkage.body, {
    links: {
      self: `/v1/events/${pub.event}/relationships/event-copyright`,
      related: `/v1/events/${pub.event}/event-copyright`,
    },
    data: { type: 'event-copyright', id: pub.copyright },
    jsonapi: { version: '1.0' },
  });

  const bare = await create(app, owner, 'events', 'event', eventAttributes('Bare'));
  const none = await related(bare);
  assertDocument(t, none, 200);
  t.strictSame(none.body, {
    data: null,
    links: { self: `/v1/events/${bare}/event-copyright` },
    jsonapi: { version: '1.0' },
  });
  expectError(t, await related(world.draft.event), 404);
  t.equal(
    (await related(world.draft.event, owner)).body.data?.id,
    world.draft.copyright,
    'the owner reads the draft one',
  );
});

t.test('after deleting the copyright a new one may be created', async (t) => {
  const event = await create(app, owner, 'events', 'event', eventAttributes('Relicensed'));
  const old = (await post(event, { licence: 'CC0', year: 1999 })).body.data.id as string;
  const del = await call(app, { method: 'DELETE', url: `/v1/event-copyright/${old}`, token: owner });
  assertDocument(t, del, 200);
  t.strictSame(del.body, { meta: { message: 'Object successfully deleted' }, jsonapi: { version: '1.0' } });
  for (const path of ['event-copyright', 'event-copyrights'])
    expectError(t, await call(app, { url: `/v1/${path}/${old}`, token: owner }), 404, { detail: 'Object not found.' });
  t.strictSame((await related(event)).body.data, null, 'the event has none now');
  const included = await call(app, { url: `/v1/events/${event}?include=event-copyright` });
  t.same(
    [included.body.data.relationships['event-copyright'].data, included.body.included],
    [null, []],
    'nor includes one',
  );
  expectError(t, await call(app, { method: 'DELETE', url: `/v1/event-copyrights/${old}`, token: owner }), 404);

  const fresh = await post(event, { licence: 'CC BY-SA 4.0', year: 2021 });
  assertDocument(t, fresh, 201);
  t.not(fresh.body.data.id, old, 'a new record');
  t.equal((await related(event)).body.data?.id, fresh.body.data.id, 'the related route answers the new one');
  expectError(t, await post(event, { licence: 'third' }), 409, { pointer: '/data/relationships/event' });
  const [{ n }] = await app.sql<
    { n: number }[]
  >`select count(*)::int as n from event_copyrights where event_id = ${Number(event)}`;
  t.equal(n, 2, 'the deleted one is kept, soft-deleted');
});
