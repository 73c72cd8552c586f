/**
 * A badge form's fields sent and read within the form (`badge-fields`), as the reference's badge_forms.py,
 * BadgeFormLayer.py and BadgeFieldForms.convert_to_dict do; the reference's list routes of badge forms and
 * field forms by badge (`/v1/events/{id}/badge-forms/{badge_id}`, `/v1/badge-forms/{id}/badge-field-forms/{badge_id}`)
 * and `GET /v1/tickets/{ticket_id}/badge-forms` (app/api/custom/tickets.py). Bad input is refused with nothing written.
 */
import t from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import {
  create,
  createCast,
  createEvent,
  expectRefused,
  rel,
  snapshotOf,
  type RefusedCase,
} from '../helpers/events.js';
import { expectError, seedUser } from '../helpers/users.js';

const { app } = await buildTestApp(t);
const cast = await createCast(app);
const event = await createEvent(app, cast, 'Badge Conf', 'published');
const other = await createEvent(app, cast, 'Other Conf', 'published');
const owner = cast.owner.token;
const registrar = (await seedUser(app))!;
await app.sql`insert into event_roles (event_id, user_id, role) values (${Number(event.id)}, ${Number(registrar.id)}, 'registrar')`;
const of = (id = event.id) => ({ event: rel('event', id) });

const send = (method: 'POST' | 'PATCH' | 'DELETE' | 'GET', url: string, token: string | undefined, data?: unknown) =>
  call(app, { method, url, token, ...(data === undefined ? {} : { body: { data } }) });

/** A field as the front end's badge editor adds it (app/models/badge-field-form.js defaults), serialised by ember-data's JSON serializer. */
const newField = (badge: string, over: Record<string, unknown> = {}) => ({
  badge_field_id: null,
  badge_id: badge,
  field_identifier: null,
  custom_field: null,
  sample_text: 'Sample Text',
  font_size: 14,
  font_name: 'Arial',
  font_color: '#000000',
  text_rotation: 0,
  margin_top: 0,
  margin_bottom: 0,
  margin_left: 0,
  margin_right: 0,
  text_alignment: 'center',
  text_type: 'None',
  is_deleted: false,
  is_field_expanded: true,
  event: null,
  ...over,
});

/** What reads carry of a stored field (convert_to_dict), from what was sent. */
const stored = (sent: Record<string, unknown>, id: number, badge: string) => ({
  id,
  field_identifier: sent.field_identifier ?? null,
  custom_field: sent.custom_field ?? null,
  sample_text: sent.sample_text ?? null,
  badge_id: badge,
  font_size: sent.font_size ?? null,
  font_name: sent.font_name ?? null,
  font_weight: sent.font_weight ?? null,
  font_color: sent.font_color ?? null,
  text_rotation: sent.text_rotation ?? null,
  text_alignment: sent.text_alignment ?? null,
  text_type: sent.text_type ?? null,
  is_deleted: false,
  margin_top: sent.margin_top ?? null,
  margin_bottom: sent.margin_bottom ?? null,
  margin_left: sent.margin_left ?? null,
  margin_right: sent.margin_right ?? null,
  qr_custom_field: sent.qr_custom_field ?? null,
  is_field_expanded: sent.is_field_expanded ?? false,
});

/** A badge form as the front end's badge page posts it (app/models/badge-form.js). */
const formDocument = (badge: string, fields: unknown[], id?: string) => ({
  type: 'badge-form',
  ...(id ? { id } : {}),
  attributes: {
    'badge-id': badge,
    'is-showing-sample-data': false,
    'badge-size': '4 x 6 inch (101.6 x 152.4 mm)',
    'badge-color': null,
    'badge-image-url': null,
    'badge-orientation': 'Portrait',
    'badge-fields': fields,
    'selected-image': null,
    'image-url': null,
  },
  relationships: of(),
});

t.test('a form posted with its fields stores them and reads them back within it', async (t) => {
  const name = newField('b1', { field_identifier: 'firstname', custom_field: 'First Name' });
  const qr = newField('b1', {
    field_identifier: 'QR',
    custom_field: 'QR',
    qr_custom_field: ['email', 'firstname'],
    font_weight: [{ name: 'Bold', font_weight: 'bold' }],
    // The front end's number inputs send what the person typed: strings, fractions.
    margin_top: '2.7',
    font_size: 18.9,
  });
  const dropped = newField('b1', { custom_field: 'Organisation', is_deleted: true });
  const made = await send('POST', '/v1/badge-forms', registrar.token, formDocument('b1', [name, qr, dropped]));
  t.equal(made.status, 201, JSON.stringify(made.body.errors ?? []));
  const fields = made.body.data.attributes['badge-fields'];
  t.equal(fields.length, 2, 'a field removed before the form was saved is not stored');
  t.strictSame(fields, [
    stored(name, fields[0].id, 'b1'),
    stored({ ...qr, margin_top: 2, font_size: 18 }, fields[1].id, 'b1'),
  ]);
  t.ok(fields[0].id < fields[1].id, 'by id, in the order sent');
  for (const member of ['is-showing-sample-data', 'selected-image', 'image-url'])
    t.notOk(member in made.body.data.attributes, `${member} is accepted and ignored, as the reference ignores it`);
  const id = made.body.data.id as string;

  const read = await send('GET', `/v1/badge-forms/${id}`, registrar.token);
  t.strictSame(read.body.data.attributes['badge-fields'], fields, 'a read carries them');
  const list = await send('GET', `/v1/events/${event.identifier}/badge-forms?page[size]=0`, owner);
  t.strictSame(
    list.body.data.map((d: any) => d.attributes['badge-fields']),
    [fields],
    'the event list carries them',
  );
  const sparse = await send('GET', `/v1/badge-forms/${id}?fields[badge-form]=badge-id`, owner);
  t.strictSame(sparse.body.data.attributes, { 'badge-id': 'b1' }, 'sparse fieldsets leave them out');
  const [row] = await app.sql`select count(*)::int as n from badge_field_forms where badge_form_id = ${Number(id)}`;
  t.equal(row!.n, 2, 'each a badge field form');
  const own = await send('GET', `/v1/badge-forms/${id}/badge-field-forms`, owner);
  t.equal(own.body.meta.count, 2, 'listed as the form’s badge field forms');
  t.equal(own.body.data[0].attributes['field-identifier'], 'firstname');
});

t.test('flags sent as null are false, as the columns default', async (t) => {
  const made = await send(
    'POST',
    '/v1/badge-forms',
    owner,
    formDocument('nulls', [{ badge_id: 'nulls', custom_field: 'N', is_deleted: null, is_field_expanded: null }]),
  );
  t.equal(made.status, 201, JSON.stringify(made.body.errors ?? []));
  const [field] = made.body.data.attributes['badge-fields'];
  t.match(field, { is_deleted: false, is_field_expanded: false, font_size: null, margin_top: null });
  const own = await send('GET', `/v1/badge-forms/${made.body.data.id}/badge-field-forms`, owner);
  t.match(own.body.data[0].attributes, { 'is-deleted': false, 'is-field-expanded': false }, 'read as field forms too');
});

t.test('a save changes, adds and removes fields by badge_field_id; the answer carries them', async (t) => {
  const made = await send(
    'POST',
    '/v1/badge-forms',
    owner,
    formDocument('b2', [newField('b2', { custom_field: 'A' }), newField('b2', { custom_field: 'B' })]),
  );
  const id = made.body.data.id as string;
  const [a, b] = made.body.data.attributes['badge-fields'];
  // The badge page re-creates each stored field as a record with badge_field_id (badge-step.js), then saves the form.
  const changed = await send(
    'PATCH',
    `/v1/badge-forms/${id}`,
    cast.coorganizer.token,
    formDocument(
      'b2',
      [
        { badge_field_id: a.id, badge_id: 'b2', custom_field: 'A2', font_size: '20', is_deleted: false, event: null },
        { badge_field_id: b.id, badge_id: 'b2', custom_field: 'B', is_deleted: true },
        newField('b2', { custom_field: 'C' }),
      ],
      id,
    ),
  );
  t.equal(changed.status, 200, JSON.stringify(changed.body.errors ?? []));
  const after = changed.body.data.attributes['badge-fields'];
  t.same(
    after.map((f: any) => [f.custom_field, f.font_size]),
    [
      ['A2', 20],
      ['C', 14],
    ],
    'A changed, B removed, C added',
  );
  t.equal(after[0].id, a.id, 'a changed field keeps its id');
  t.equal(after[0].sample_text, 'Sample Text', 'members not sent keep their values');
  const [gone] = await app.sql`select deleted_at is not null as deleted from badge_field_forms where id = ${b.id}`;
  t.ok(gone!.deleted, 'the removed field is deleted');

  // Sent back as read (members as convert_to_dict writes them, `id` included): no field is duplicated.
  const again = await send('PATCH', `/v1/badge-forms/${id}`, owner, formDocument('b2', after, id));
  t.equal(again.status, 200, JSON.stringify(again.body.errors ?? []));
  t.strictSame(again.body.data.attributes['badge-fields'], after, 'the fields read back, saved again, are unchanged');

  // The badge page gives a form a new badge id when no ticket names one (badge-step.js): its fields go with it.
  const moved = await send('PATCH', `/v1/badge-forms/${id}`, owner, {
    type: 'badge-form',
    id,
    attributes: {
      'badge-id': 'b2-new',
      'badge-fields': [{ badge_field_id: after[1].id, badge_id: 'b2', text_type: 'Uppercase' }],
    },
  });
  t.equal(moved.status, 200, JSON.stringify(moved.body.errors ?? []));
  t.same(
    moved.body.data.attributes['badge-fields'].map((f: any) => [f.id, f.badge_id, f.text_type]),
    [
      [after[0].id, 'b2-new', 'None'],
      [after[1].id, 'b2-new', 'Uppercase'],
    ],
    'every field moves to the new badge, those named and those not',
  );
  const unchanged = await send('PATCH', `/v1/badge-forms/${id}`, owner, {
    type: 'badge-form',
    id,
    attributes: { 'badge-color': '#ffffff', 'badge-fields': null },
  });
  t.equal(unchanged.body.data.attributes['badge-fields'].length, 2, 'null and absent fields change none');
});

t.test("a badge_field_id of another form's field adds a field here and leaves that one alone", async (t) => {
  const theirs = await send('POST', '/v1/badge-forms', owner, {
    ...formDocument('o1', [newField('o1', { custom_field: 'Theirs' })]),
    relationships: of(other.id),
  });
  const [foreign] = theirs.body.data.attributes['badge-fields'];
  const mine = await send('POST', '/v1/badge-forms', owner, formDocument('m1', []));
  const id = mine.body.data.id as string;
  t.strictSame(mine.body.data.attributes['badge-fields'], [], 'a form without fields reads an empty list');
  const patched = await send(
    'PATCH',
    `/v1/badge-forms/${id}`,
    owner,
    formDocument('m1', [{ badge_field_id: foreign.id, badge_id: 'o1', custom_field: 'Mine' }], id),
  );
  t.equal(patched.status, 200, JSON.stringify(patched.body.errors ?? []));
  const [added] = patched.body.data.attributes['badge-fields'];
  t.not(added.id, foreign.id, 'a new field');
  t.equal(added.custom_field, 'Mine');
  const [theirsNow] =
    await app.sql`select custom_field, badge_form_id, deleted_at from badge_field_forms where id = ${foreign.id}`;
  t.strictSame(
    { ...theirsNow },
    { custom_field: 'Theirs', badge_form_id: Number(theirs.body.data.id), deleted_at: null },
    "the other event's field is untouched",
  );
  const removing = await send(
    'PATCH',
    `/v1/badge-forms/${id}`,
    owner,
    formDocument('m1', [{ badge_field_id: foreign.id, is_deleted: true }], id),
  );
  t.equal(removing.status, 200);
  const [still] = await app.sql`select deleted_at from badge_field_forms where id = ${foreign.id}`;
  t.equal(still!.deleted_at, null, 'nor removed through this form');
});

t.test('bad fields are refused with a pointer at the member; nothing is written', async (t) => {
  const made = await send('POST', '/v1/badge-forms', owner, formDocument('bad', [newField('bad')]));
  const id = made.body.data.id as string;
  const [field] = made.body.data.attributes['badge-fields'];
  const snapshot = snapshotOf(app, ['badge_forms', 'badge_field_forms']);
  const before = await snapshot();
  const many = (n: number) => Array.from({ length: n }, () => newField('bad'));
  const at = (i: number, member: string) => `/data/attributes/badge-fields/${i}/${member}`;
  const cases: RefusedCase<unknown[]>[] = [
    ['a font size in words', [newField('bad', { font_size: 'big' })], 422, at(0, 'font_size')],
    ['a font size out of bounds', [newField('bad'), newField('bad', { font_size: 100000 })], 422, at(1, 'font_size')],
    ['a margin out of bounds, as text', [newField('bad', { margin_left: '5000' })], 422, at(0, 'margin_left')],
    ['a rotation beyond a turn', [newField('bad', { text_rotation: -720 })], 422, at(0, 'text_rotation')],
    ['an over-long sample text', [newField('bad', { sample_text: 'x'.repeat(2049) })], 422, at(0, 'sample_text')],
    ['an over-long custom field', [newField('bad', { custom_field: 'x'.repeat(256) })], 422, at(0, 'custom_field')],
    ['a font weight that is not a list', [newField('bad', { font_weight: 'bold' })], 422, at(0, 'font_weight')],
    [
      'a font weight with unknown members',
      [newField('bad', { font_weight: [{ colour: 'red' }] })],
      422,
      `${at(0, 'font_weight')}/0/colour`,
    ],
    [
      'QR fields that are not text',
      [newField('bad', { qr_custom_field: [1, 2] })],
      422,
      `${at(0, 'qr_custom_field')}/0`,
    ],
    ['a member nobody knows', [newField('bad', { colour: 'red' })], 422, at(0, 'colour')],
    ['is_deleted as a number', [newField('bad', { is_deleted: 1 })], 422, at(0, 'is_deleted')],
    ['a badge_field_id that is no id', [newField('bad', { badge_field_id: 'one' })], 422, at(0, 'badge_field_id')],
    ['a field that is no object', ['name'], 422, '/data/attributes/badge-fields/0'],
    ['more fields than a form holds in one request', many(101), 422, '/data/attributes/badge-fields'],
    ['more fields than a form holds in all', many(100), 422, '/data/attributes/badge-fields'],
    ['NUL in a member', [newField('bad', { custom_field: 'a\u0000b' })], 422, '/data/attributes/badge-fields'],
    [
      'a good change beside a bad field',
      [{ badge_field_id: field.id, custom_field: 'Changed' }, newField('bad', { font_size: -1 })],
      422,
      at(1, 'font_size'),
    ],
  ];
  await expectRefused(
    t,
    cases,
    (fields) => send('PATCH', `/v1/badge-forms/${id}`, owner, formDocument('bad', fields, id)),
    snapshot,
    before,
  );
  const badForm = await send(
    'POST',
    '/v1/badge-forms',
    owner,
    formDocument('bad2', [newField('bad2', { font_size: [] })]),
  );
  expectError(t, badForm, 422, { pointer: at(0, 'font_size') });
  t.same(await snapshot(), before, 'a refused create writes no form');
  const selected = await send('POST', '/v1/badge-forms', owner, {
    ...formDocument('bad3', []),
    attributes: { 'badge-id': 'bad3', 'is-showing-sample-data': 'yes' },
  });
  expectError(t, selected, 422, { pointer: '/data/attributes/is-showing-sample-data' });
});

t.test('the door reads and writes the fields; others find nothing; deleting a form deletes its fields', async (t) => {
  const made = await send('POST', '/v1/badge-forms', owner, formDocument('d1', [newField('d1')]));
  const id = made.body.data.id as string;
  for (const outsider of [cast.other.token, cast.speaker.token]) {
    expectError(t, await send('GET', `/v1/badge-forms/${id}`, outsider), 404);
    expectError(
      t,
      await send('PATCH', `/v1/badge-forms/${id}`, outsider, formDocument('d1', [newField('d1')], id)),
      404,
    );
  }
  expectError(t, await send('POST', '/v1/badge-forms', cast.other.token, formDocument('x', [newField('x')])), 404);
  expectError(t, await send('GET', `/v1/badge-forms/${id}`, undefined), 404);
  const byRegistrar = await send(
    'PATCH',
    `/v1/badge-forms/${id}`,
    registrar.token,
    formDocument('d1', [newField('d1')], id),
  );
  t.equal(byRegistrar.body.data.attributes['badge-fields'].length, 2, 'the registrar adds a field');
  t.equal((await send('DELETE', `/v1/badge-forms/${id}`, registrar.token)).status, 200);
  const [row] =
    await app.sql`select count(*)::int as n from badge_field_forms where badge_form_id = ${Number(id)} and deleted_at is null`;
  t.equal(row!.n, 0, 'its fields are deleted with it');
});

t.test("the reference's lists by badge", async (t) => {
  const one = await send('POST', '/v1/badge-forms', owner, formDocument('x1', [newField('x1'), newField('x1')]));
  await send('POST', '/v1/badge-forms', owner, formDocument('x2', [newField('x2')]));
  const byBadge = await send('GET', `/v1/events/${event.id}/badge-forms/x1`, registrar.token);
  t.equal(byBadge.status, 200);
  t.same(
    byBadge.body.data.map((d: any) => d.id),
    [one.body.data.id],
    'the forms of the badge',
  );
  t.match(byBadge.body.links.self, new RegExp(`^/v1/events/${event.id}/badge-forms/x1\\?`), 'its own self link');
  const byIdentifier = await send('GET', `/v1/events/${event.identifier}/badge-forms/x1`, owner);
  t.same(
    byIdentifier.body.data.map((d: any) => d.id),
    [one.body.data.id],
    'the event named by identifier',
  );
  t.equal((await send('GET', `/v1/events/${event.id}/badge-forms/nothing`, owner)).body.meta.count, 0);
  const fields = await send('GET', `/v1/badge-forms/${one.body.data.id}/badge-field-forms/x1`, registrar.token);
  t.equal(fields.body.meta.count, 2, 'the fields of the form on the badge');
  t.equal((await send('GET', `/v1/badge-forms/${one.body.data.id}/badge-field-forms/x2`, owner)).body.meta.count, 0);
  expectError(t, await send('GET', `/v1/events/${event.id}/badge-forms/x1`, cast.other.token), 404);
  expectError(t, await send('GET', `/v1/badge-forms/${one.body.data.id}/badge-field-forms/x1`, cast.other.token), 404);
  expectError(t, await send('GET', `/v1/events/${event.id}/badge-forms/x1`, undefined), 401);
  expectError(t, await send('GET', `/v1/events/${event.id}/badge-forms/x1?sort=nope`, owner), 400, {
    parameter: 'sort',
  });
});

t.test("GET /v1/tickets/{id}/badge-forms: the fields of the ticket's badge, for the door", async (t) => {
  const ticket = await create(
    app,
    owner,
    'tickets',
    'ticket',
    { name: 'Entry', 'sales-starts-at': '2030-01-01T00:00:00Z', 'sales-ends-at': '2030-02-01T00:00:00Z' },
    of(),
  );
  const get = (token?: string, id = ticket) =>
    app.inject({ url: `/v1/tickets/${id}/badge-forms`, headers: token ? { authorization: `JWT ${token}` } : {} });
  const none = await get(owner);
  t.equal(none.statusCode, 200);
  t.equal(none.headers['content-type'], 'application/json; charset=utf-8', 'plain JSON, as the reference');
  t.strictSame(none.json(), [], 'a ticket without a badge has no fields');
  const form = await send(
    'POST',
    '/v1/badge-forms',
    owner,
    formDocument('t1', [
      newField('t1', { field_identifier: 'firstname', custom_field: 'First Name' }),
      newField('t1', { field_identifier: 'QR', custom_field: 'QR' }),
    ]),
  );
  // Another event's form on a badge of the same name is not this ticket's.
  await send('POST', '/v1/badge-forms', owner, {
    ...formDocument('t1', [newField('t1')]),
    relationships: of(other.id),
  });
  await send('PATCH', `/v1/tickets/${ticket}`, owner, { type: 'ticket', id: ticket, attributes: { 'badge-id': 't1' } });
  const [a, b] = form.body.data.attributes['badge-fields'];
  const answer = await get(registrar.token);
  t.strictSame(answer.json(), [
    { id: a.id, field_identifier: 'firstname', custom_field: 'First Name' },
    { id: b.id, field_identifier: 'QR', custom_field: 'QR' },
  ]);
  t.equal((await get(cast.admin.token)).statusCode, 200, 'administrators read it');
  for (const [who, token] of [
    ['another user', cast.other.token],
    ['a speaker', cast.speaker.token],
  ] as const) {
    const refused = await get(token);
    t.equal(refused.statusCode, 404, `${who}: no ticket`);
    t.equal(refused.json().errors[0].detail, `Ticket "${ticket}" not found`);
  }
  t.equal((await get(undefined)).statusCode, 401, 'a login first');
  t.equal((await get(owner, '99999')).statusCode, 404, 'no such ticket');
  t.equal((await get(owner, 'abc')).statusCode, 404, 'no ticket id');
  await send('DELETE', `/v1/badge-forms/${form.body.data.id}`, owner);
  t.strictSame((await get(owner)).json(), [], "a deleted form's fields are not the badge's");
});
