/**
 * Custom forms: created under /v1/events/{id}/custom-forms with the spec's sample body (quoted
 * booleans), read by any logged-in user, written by organizers; PATCH ids, DELETE, sort and filter.
 */
import t from 'tap';
import { assertDocument, buildTestApp, call } from '../helpers/app.js';
import { buildWorld, create, rel } from '../helpers/events.js';
import { expectError } from '../helpers/users.js';

const { app } = await buildTestApp(t);
const world = await buildWorld(app);
const { cast } = world;
const pub = world.published;
const owner = cast.owner.token;

const SAMPLE = {
  data: {
    type: 'custom_form',
    attributes: {
      form: 'speaker',
      type: 'text',
      'field-identifier': 'abc',
      'is-required': 'true',
      'is-included': 'false',
      'is-fixed': 'false',
    },
  },
};
const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((d) => d.id);
const encode = (value: unknown) => encodeURIComponent(JSON.stringify(value));
const patch = (id: string, bodyId: string, attributes: Record<string, unknown>, token: string | null = owner) =>
  call(app, {
    method: 'PATCH',
    url: `/v1/custom-forms/${id}`,
    token: token ?? undefined,
    body: { data: { type: 'custom_form', id: bodyId, attributes } },
  });

t.test("POST /v1/events/{id}/custom-forms with the spec's sample body", async (t) => {
  const res = await call(app, {
    method: 'POST',
    url: `/v1/events/${pub.event}/custom-forms`,
    token: owner,
    body: SAMPLE,
  });
  assertDocument(t, res, 201);
  const id = res.body.data.id as string;
  t.match(id, /^\d+$/);
  t.equal(res.headers.location, `/v1/custom-forms/${id}`);
  t.strictSame(res.body, {
    data: {
      type: 'custom_form',
      id,
      attributes: {
        form: 'speaker',
        'field-identifier': 'abc',
        type: 'text',
        name: null,
        description: null,
        'is-required': true,
        'is-included': false,
        'is-fixed': false,
        'is-public': false,
        position: 0,
        'is-complex': false,
        'is-allow-edit': false,
        'form-id': null,
        min: 0,
        max: 10,
        translations: null,
        'main-language': 'en',
      },
      relationships: {
        event: {
          links: { self: `/v1/custom-forms/${id}/relationships/event`, related: `/v1/custom-forms/${id}/event` },
          data: { type: 'event', id: pub.event },
        },
        // The choices of a select field (issue 41: custom form options), linked by their own records.
        'custom-form-options': {
          links: {
            self: `/v1/custom-forms/${id}/relationships/custom-form-options`,
            related: `/v1/custom-forms/${id}/custom-form-options`,
          },
        },
      },
      links: { self: `/v1/custom-forms/${id}` },
    },
    links: { self: `/v1/custom-forms/${id}` },
    jsonapi: { version: '1.0' },
  });
  const read = await call(app, { url: `/v1/custom-forms/${id}`, token: cast.other.token });
  assertDocument(t, read, 200);
  t.strictSame(read.body, res.body, 'reads back the same, for any logged-in user');

  const byKey = await call(app, {
    method: 'POST',
    url: `/v1/events/${pub.identifier}/custom-forms`,
    token: owner,
    body: {
      data: { type: 'custom-form', attributes: { form: 'session', 'field-identifier': 'abc', 'is-required': true } },
    },
  });
  t.equal(byKey.status, 201, 'by identifier, with the dasherized type and JSON booleans');
  t.equal(byKey.body.data.type, 'custom_form');
  t.equal(byKey.body.data.attributes['is-required'], true);
  t.equal(byKey.body.data.attributes.type, 'text', 'type defaults to text');

  expectError(
    t,
    await call(app, { method: 'POST', url: `/v1/events/${pub.event}/custom-forms`, token: owner, body: SAMPLE }),
    409,
    {
      pointer: '/data/attributes/field-identifier',
    },
  );
  const elsewhere = { data: { ...SAMPLE.data, relationships: { event: rel('event', world.draft.event) } } };
  expectError(
    t,
    await call(app, { method: 'POST', url: `/v1/events/${pub.event}/custom-forms`, token: owner, body: elsewhere }),
    409,
    {
      pointer: '/data/relationships/event',
    },
  );
  expectError(t, await call(app, { method: 'POST', url: `/v1/events/${pub.event}/custom-forms`, body: SAMPLE }), 401);
  expectError(
    t,
    await call(app, {
      method: 'POST',
      url: `/v1/events/${pub.event}/custom-forms`,
      token: cast.other.token,
      body: SAMPLE,
    }),
    403,
  );
  const yes = {
    data: {
      type: 'custom_form',
      attributes: { ...SAMPLE.data.attributes, 'field-identifier': 'x', 'is-fixed': 'yes' },
    },
  };
  expectError(
    t,
    await call(app, { method: 'POST', url: `/v1/events/${pub.event}/custom-forms`, token: owner, body: yes }),
    422,
    {
      pointer: '/data/attributes/is-fixed',
    },
  );
});

t.test('reading needs a login: the list and the detail', async (t) => {
  const url = `/v1/events/${pub.event}/custom-forms`;
  expectError(t, await call(app, { url }), 401);
  expectError(t, await call(app, { url: `/v1/custom-forms/${pub.customForm}` }), 401);
  expectError(t, await call(app, { url: '/v1/custom-forms' }), 401);
  for (const role of ['other', 'speaker', 'coorganizer', 'owner', 'admin'] as const) {
    const res = await call(app, { url, token: cast[role].token });
    assertDocument(t, res, 200);
    t.ok(ids(res).includes(pub.customForm), `${role} reads the list`);
    t.ok(
      res.body.data.every((f: { type: string }) => f.type === 'custom_form'),
      `${role}: custom_form resources`,
    );
  }
  expectError(
    t,
    await call(app, { url: `/v1/events/${world.draft.event}/custom-forms`, token: cast.other.token }),
    404,
  );
  const draftForms = await call(app, {
    url: `/v1/events/${world.draft.event}/custom-forms`,
    token: cast.organizer.token,
  });
  t.same(
    draftForms.body.data.map((f: { attributes: Record<string, string> }) => f.attributes['field-identifier']).sort(),
    ['email', 'shirt'],
    "the organizer reads the draft's fields: the default attendee email and the test's one",
  );
  t.ok(ids(draftForms).includes(world.draft.customForm));
});

t.test('PATCH needs the path id in the body; DELETE removes the form', async (t) => {
  const id = await create(
    app,
    owner,
    'custom-forms',
    'custom_form',
    { form: 'attendee', 'field-identifier': 'city' },
    { event: rel('event', pub.event) },
  );
  const ok = await patch(id, id, { 'is-required': 'true', 'is-public': true, name: 'City', position: 4 });
  assertDocument(t, ok, 200);
  t.match(ok.body.data, {
    type: 'custom_form',
    id,
    attributes: { 'is-required': true, 'is-public': true, name: 'City', position: 4 },
  });
  t.same(ok.body.links, { self: `/v1/custom-forms/${id}` });
  t.equal(typeof ok.body.data.attributes['is-required'], 'boolean', 'a JSON boolean back');
  t.equal(
    (await patch(id, id, { 'is-required': 'false' }, cast.coorganizer.token)).body.data?.attributes['is-required'],
    false,
    'a coorganizer writes too',
  );

  expectError(t, await patch(id, pub.customForm, { name: 'Mismatch' }), 409, { pointer: '/data/id' });
  expectError(t, await patch(id, id, { name: 'Nope' }, cast.other.token), 403);
  expectError(t, await patch(id, id, { name: 'Nope' }, null), 401);
  expectError(t, await patch(id, id, { 'is-required': 'maybe' }), 422, { pointer: '/data/attributes/is-required' });
  t.equal(
    (await call(app, { url: `/v1/custom-forms/${id}`, token: owner })).body.data.attributes.name,
    'City',
    'refusals changed nothing',
  );

  expectError(t, await call(app, { method: 'DELETE', url: `/v1/custom-forms/${id}`, token: cast.other.token }), 403);
  const del = await call(app, { method: 'DELETE', url: `/v1/custom-forms/${id}`, token: owner });
  assertDocument(t, del, 200);
  t.strictSame(del.body, { meta: { message: 'Object successfully deleted' }, jsonapi: { version: '1.0' } });
  expectError(t, await call(app, { url: `/v1/custom-forms/${id}`, token: owner }), 404, {
    detail: 'Object not found.',
  });
  t.notOk(
    ids(await call(app, { url: `/v1/events/${pub.event}/custom-forms`, token: owner })).includes(id),
    'gone from the list',
  );
  const again = await create(
    app,
    owner,
    'custom-forms',
    'custom_form',
    { form: 'attendee', 'field-identifier': 'city' },
    { event: rel('event', pub.event) },
  );
  t.not(again, id, 'the field identifier is free again');
});

t.test('the list sorts and filters', async (t) => {
  const event = await create(app, owner, 'events', 'event', {
    name: 'Forms',
    'starts-at': '2030-01-01T09:00:00Z',
    'ends-at': '2030-01-02T09:00:00Z',
    timezone: 'UTC',
    state: 'published',
  });
  // The attendee email field every event starts with would tie with d on position: it goes first.
  const [defaultField] = ids(await call(app, { url: `/v1/events/${event}/custom-forms`, token: owner }));
  assertDocument(t, await call(app, { method: 'DELETE', url: `/v1/custom-forms/${defaultField}`, token: owner }), 200);
  const make = (form: string, field: string, position: number, required: boolean) =>
    create(
      app,
      owner,
      'custom-forms',
      'custom_form',
      { form, 'field-identifier': field, position, 'is-required': required },
      { event: rel('event', event) },
    );
  const a = await make('speaker', 'bio', 3, true);
  const b = await make('speaker', 'age', 1, false);
  const c = await make('session', 'slides', 2, true);
  const d = await make('attendee', 'zip', 0, false);
  const url = `/v1/events/${event}/custom-forms`;
  const token = cast.other.token;
  const list = (query: string) => call(app, { url: `${url}?${query}`, token });

  t.same(ids(await list('sort=position')), [d, b, c, a]);
  t.same(ids(await list('sort=-position')), [a, c, b, d]);
  t.same(ids(await list('sort=field-identifier')), [b, a, c, d]);
  t.same(ids(await list('sort=form,-field-identifier')), [d, c, a, b]);
  const speakerForm = await list(`filter=${encode([{ name: 'form', op: 'eq', val: 'speaker' }])}&sort=position`);
  assertDocument(t, speakerForm, 200);
  t.same(ids(speakerForm), [b, a]);
  t.equal(speakerForm.body.meta.count, 2);
  t.same(ids(await list(`filter=${encode([{ name: 'is-required', op: 'eq', val: true }])}&sort=position`)), [c, a]);
  const either = [
    {
      or: [
        { name: 'form', op: 'eq', val: 'attendee' },
        { name: 'field-identifier', op: 'like', val: 'sl%' },
      ],
    },
  ];
  t.same(ids(await list(`filter=${encode(either)}&sort=-position`)), [c, d]);
  t.same(ids(await list('page[size]=2&sort=position')), [d, b], 'and pages');
  expectError(t, await list('sort=colour'), 400, { parameter: 'sort' });
  expectError(t, await list(`filter=${encode([{ name: 'colour', op: 'eq', val: 1 }])}`), 400, { parameter: 'filter' });
});
