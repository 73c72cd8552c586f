/**
 * Ticket fees, ticket tags, attendee tags and custom form options (the reference's ticket_fees.py, ticket_tags.py,
 * tags.py, custom_form_options.py), and the ticket, attendee and order members issue 41 adds: what each stores and
 * answers, who may write it, the fee lookup the order computation uses (ticketFeeFor), and bad input refused with
 * nothing written.
 */
import t from 'tap';
import { ticketFeeFor } from '../../src/resources/ticket-fees/fee.js';
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
import { expectError } from '../helpers/users.js';

const { app } = await buildTestApp(t);
const cast = await createCast(app);
const event = await createEvent(app, cast, 'Tag Conf', 'published');
const other = await createEvent(app, cast, 'Other Conf', 'published');
const owner = cast.owner.token;
const admin = cast.admin.token;
const of = (id = event.id) => ({ event: rel('event', id) });
const at = (name: string) => `/data/attributes/${name}`;
const sales = { 'sales-starts-at': '2030-01-01T00:00:00Z', 'sales-ends-at': '2030-02-01T00:00:00Z' };
/** A ticket of the event (or of `id`'s) on sale in `sales`. */
const newTicket = (attributes: Record<string, unknown>, id = event.id) =>
  create(app, owner, 'tickets', 'ticket', { ...attributes, ...sales }, of(id));
/** A select field of the event's attendee form: the kind of field that has options. */
const selectField = (identifier: string) =>
  create(
    app,
    owner,
    'custom-forms',
    'custom-form',
    { form: 'attendee', 'field-identifier': identifier, type: 'select' },
    of(),
  );
const ticket = await newTicket({ name: 'Standard' });
const hidden = await newTicket({ name: 'Crew', 'is-hidden': true });
const otherTicket = await newTicket({ name: 'Elsewhere' }, other.id);

const send = (method: 'POST' | 'PATCH' | 'DELETE', url: string, token: string | undefined, data?: unknown) =>
  call(app, { method, url, token, ...(data === undefined ? {} : { body: { data } }) });

t.test('ticket fees: administrators keep one per currency and country', async (t) => {
  const made = await send('POST', '/v1/ticket-fees', admin, {
    type: 'ticket-fee',
    attributes: { currency: 'EUR', country: 'DE', 'service-fee': '2.5', 'maximum-fee': 4 },
  });
  t.equal(made.status, 201);
  t.strictSame(made.body.data.attributes, { currency: 'EUR', country: 'DE', 'service-fee': 2.5, 'maximum-fee': 4 });
  const id = made.body.data.id;
  // The front end's global settings row: country "global", no currency, the fees the administrator typed.
  const global = await send('POST', '/v1/ticket-fees', admin, {
    type: 'ticket-fee',
    attributes: { country: 'global', currency: null, 'service-fee': 1, 'maximum-fee': null },
  });
  t.equal(global.status, 201, JSON.stringify(global.body.errors ?? []));
  t.strictSame(global.body.data.attributes, { currency: '', country: 'global', 'service-fee': 1, 'maximum-fee': 0 });
  // The blueprint's example names no country: the fee is the global one of that currency.
  const noCountry = await send('POST', '/v1/ticket-fees', admin, {
    type: 'ticket-fee',
    attributes: { currency: 'USD', 'service-fee': '3.14', 'maximum-fee': '5.14' },
  });
  t.equal(noCountry.status, 201);
  t.equal(noCountry.body.data.attributes.country, 'global');

  const twice = await send('POST', '/v1/ticket-fees', admin, {
    type: 'ticket-fee',
    attributes: { currency: 'EUR', country: 'DE' },
  });
  expectError(t, twice, 409, { pointer: at('currency') });

  const list = await call(app, { url: '/v1/ticket-fees', token: admin });
  t.equal(list.body.meta.count, 3);
  const patched = await send('PATCH', `/v1/ticket-fees/${id}`, admin, {
    type: 'ticket-fee',
    id,
    attributes: { 'service-fee': 3 },
  });
  t.equal(patched.status, 200);
  t.equal(patched.body.data.attributes['service-fee'], 3);

  for (const [who, token, status] of [
    ['anonymous', undefined, 401],
    ['a user', cast.other.token, 403],
    ["an event's owner", owner, 403],
  ] as const) {
    t.equal((await call(app, { url: '/v1/ticket-fees', token })).status, status, `${who} lists: ${status}`);
    t.equal((await call(app, { url: `/v1/ticket-fees/${id}`, token })).status, status, `${who} reads: ${status}`);
    const post = await send('POST', '/v1/ticket-fees', token, {
      type: 'ticket-fee',
      attributes: { currency: 'INR', country: 'IN' },
    });
    t.equal(post.status, status, `${who} creates: ${status}`);
    t.equal((await send('DELETE', `/v1/ticket-fees/${id}`, token)).status, status, `${who} deletes: ${status}`);
  }
});

t.test('ticketFeeFor: the fee of exactly that currency and country, in the caller’s transaction', async (t) => {
  t.strictSame(await ticketFeeFor(app.db, 'EUR', 'DE'), { serviceFee: 3, maximumFee: 4 });
  t.equal(await ticketFeeFor(app.db, 'EUR', 'FR'), undefined, 'no fee for another country');
  t.equal(await ticketFeeFor(app.db, 'GBP', 'DE'), undefined, 'no fee for another currency');
  const inside = await app.db
    .transaction(async (tx) => {
      await tx.execute(
        "insert into ticket_fees (currency, country, service_fee, maximum_fee) values ('EUR', 'FR', 1.5, 2)",
      );
      const fee = await ticketFeeFor(tx, 'EUR', 'FR');
      tx.rollback();
      return fee;
    })
    .catch((e: unknown) => (e instanceof Error && /rollback/i.test(e.message) ? 'rolled back' : Promise.reject(e)));
  t.equal(inside, 'rolled back');
  t.equal(await ticketFeeFor(app.db, 'EUR', 'FR'), undefined, 'what the transaction wrote went with it');
});

t.test('ticket tags: organizers tag the tickets of their event; everyone reads them where the event is', async (t) => {
  const made = await send('POST', '/v1/ticket-tags', cast.coorganizer.token, {
    type: 'ticket-tag',
    attributes: { name: 'Early' },
    relationships: { ...of(), tickets: { data: [{ type: 'ticket', id: ticket }] } },
  });
  t.equal(made.status, 201);
  const id = made.body.data.id;
  const related = await call(app, { url: `/v1/ticket-tags/${id}/tickets` });
  t.strictSame(
    related.body.data.map((d: { id: string }) => d.id),
    [ticket],
  );
  const ofTicket = await call(app, { url: `/v1/tickets/${ticket}/ticket-tags` });
  t.strictSame(
    ofTicket.body.data.map((d: { id: string }) => d.id),
    [id],
  );
  const ofEvent = await call(app, { url: `/v1/events/${event.identifier}/ticket-tags` });
  t.equal(ofEvent.body.meta.count, 1);

  const elsewhere = await send('POST', `/v1/ticket-tags/${id}/relationships/tickets`, owner, [
    { type: 'ticket', id: otherTicket },
  ]);
  t.equal(elsewhere.status, 422, 'a ticket of another event: 422');
  const added = await send('POST', `/v1/ticket-tags/${id}/relationships/tickets`, owner, [
    { type: 'ticket', id: hidden },
  ]);
  t.equal(added.status, 200);
  const seen = await call(app, { url: `/v1/ticket-tags/${id}/tickets` });
  t.strictSame(
    seen.body.data.map((d: { id: string }) => d.id),
    [ticket],
    'a hidden ticket is not shown to everyone',
  );

  const byOther = await send('PATCH', `/v1/ticket-tags/${id}`, cast.other.token, {
    type: 'ticket-tag',
    id,
    attributes: { name: 'Mine' },
  });
  t.equal(byOther.status, 403);
  const onOther = await send('POST', '/v1/ticket-tags', cast.other.token, {
    type: 'ticket-tag',
    attributes: { name: 'Mine' },
    relationships: of(),
  });
  t.equal(onOther.status, 403);
  t.equal((await send('DELETE', `/v1/ticket-tags/${id}`, owner)).status, 200);
  t.equal((await call(app, { url: `/v1/ticket-tags/${id}` })).status, 404);
});

t.test('attendee tags: the organizers label ticket holders', async (t) => {
  const made = await send('POST', '/v1/tags', cast.organizer.token, {
    type: 'tag',
    attributes: { name: 'VIPs', color: '#0000FF', 'is-read-only': true },
    relationships: of(),
  });
  t.equal(made.status, 201);
  t.strictSame(made.body.data.attributes, {
    name: 'VIPs',
    color: '#0000FF',
    'is-read-only': true,
    'deleted-at': null,
  });
  const vip = made.body.data.id;
  const press = await create(app, owner, 'tags', 'tag', { name: 'Press' }, of());
  const otherTag = await create(app, owner, 'tags', 'tag', { name: 'Press' }, of(other.id));
  expectError(
    t,
    await send('POST', '/v1/tags', owner, { type: 'tag', attributes: { name: 'Press' }, relationships: of() }),
    409,
    { pointer: at('name') },
  );
  // The front end's default tags name no event (app/routes/events/view/tags.js): nothing to put them in.
  expectError(
    t,
    await send('POST', '/v1/tags', owner, { type: 'tag', attributes: { name: 'Speakers', 'is-read-only': true } }),
    422,
    { pointer: '/data/relationships' },
  );
  expectError(
    t,
    await send('PATCH', `/v1/tags/${vip}`, owner, { type: 'tag', id: vip, attributes: { name: 'Guests' } }),
    409,
    { pointer: at('name') },
  );
  const recolored = await send('PATCH', `/v1/tags/${vip}`, owner, {
    type: 'tag',
    id: vip,
    attributes: { name: 'VIPs', color: '#FF0000' },
  });
  t.equal(recolored.status, 200, 'a read-only tag takes a colour');

  const list = await call(app, { url: `/v1/events/${event.id}/tags`, token: cast.coorganizer.token });
  t.equal(list.body.meta.count, 2);
  t.equal((await call(app, { url: `/v1/events/${event.id}/tags`, token: cast.other.token })).status, 403);
  t.equal((await call(app, { url: `/v1/tags/${vip}`, token: cast.other.token })).status, 403);
  t.equal((await call(app, { url: '/v1/tags', token: cast.other.token })).body.meta.count, 0);
  t.equal((await call(app, { url: `/v1/tags/${vip}` })).status, 401);

  const order = await create(app, owner, 'orders', 'order', { amount: 0 }, of());
  const attendee = await create(
    app,
    owner,
    'attendees',
    'attendee',
    { firstname: 'Ada', 'tag-id': Number(vip) },
    { ...of(), order: rel('order', order), ticket: rel('ticket', ticket) },
  );
  const read = await call(app, { url: `/v1/attendees/${attendee}?include=tag`, token: owner });
  t.equal(read.body.data.attributes['tag-id'], Number(vip));
  t.strictSame(read.body.data.relationships.tag.data, { type: 'tag', id: vip });
  t.equal(read.body.included[0].attributes.name, 'VIPs');
  const byRelationship = await send('PATCH', `/v1/attendees/${attendee}`, owner, {
    type: 'attendee',
    id: attendee,
    relationships: { tag: rel('tag', press) },
  });
  t.equal(byRelationship.status, 200);
  t.equal(byRelationship.body.data.attributes['tag-id'], Number(press));
  expectError(
    t,
    await send('PATCH', `/v1/attendees/${attendee}`, owner, {
      type: 'attendee',
      id: attendee,
      attributes: { 'tag-id': Number(otherTag) },
    }),
    422,
    { pointer: at('tag-id') },
  );
  t.equal(
    (
      await send('PATCH', `/v1/attendees/${attendee}`, owner, {
        type: 'attendee',
        id: attendee,
        relationships: { tag: rel('tag', otherTag) },
      })
    ).status,
    422,
    "another event's tag by relationship: 422",
  );
  t.equal((await send('DELETE', `/v1/tags/${press}`, owner)).status, 200);
  const untagged = await call(app, { url: `/v1/attendees/${attendee}`, token: owner });
  t.equal(untagged.body.data.attributes['tag-id'], null, 'deleting a tag takes it off its holders');
});

t.test('custom form options: the choices of a field, written by the organizers', async (t) => {
  const form = await selectField('diet');
  const formRel = { 'custom-form': rel('custom-form', form) };
  const made = await send('POST', '/v1/custom-form-options', cast.coorganizer.token, {
    type: 'custom-form-option',
    attributes: { value: 'Vegan' },
    relationships: formRel,
  });
  t.equal(made.status, 201);
  const related = await send('POST', `/v1/custom-forms/${form}/custom-form-options`, owner, {
    type: 'custom-form-option',
    attributes: { value: 'Halal' },
  });
  t.equal(related.status, 201, 'the reference’s path creates one too');
  const list = await call(app, { url: `/v1/custom-forms/${form}/custom-form-options`, token: cast.other.token });
  t.strictSame(
    list.body.data.map((d: { attributes: { value: string } }) => d.attributes.value),
    ['Vegan', 'Halal'],
  );
  const field = await call(app, { url: `/v1/custom-forms/${form}?include=custom-form-options`, token: owner });
  t.equal(field.body.included.length, 2);
  t.equal((await call(app, { url: `/v1/custom-form-options/${made.body.data.id}` })).status, 401);
  t.equal(
    (
      await send('POST', '/v1/custom-form-options', cast.other.token, {
        type: 'custom-form-option',
        attributes: { value: 'Mine' },
        relationships: formRel,
      })
    ).status,
    403,
  );
  t.equal((await send('DELETE', `/v1/custom-form-options/${made.body.data.id}`, cast.other.token)).status, 403);
  t.equal((await send('DELETE', `/v1/custom-form-options/${made.body.data.id}`, owner)).status, 200);
});

t.test('the ticket, attendee and order members of the reference', async (t) => {
  const restricted = await newTicket({
    name: 'Day pass',
    'is-checkin-restricted': true,
    'auto-checkin-enabled': 'true',
  });
  const read = await call(app, { url: `/v1/tickets/${restricted}` });
  t.match(read.body.data.attributes, { 'is-checkin-restricted': true, 'auto-checkin-enabled': true });

  const order = await create(app, cast.other.token, 'orders', 'order', { amount: 0 }, of());
  const holder = await create(
    app,
    cast.other.token,
    'attendees',
    'attendee',
    { firstname: 'Grace' },
    { ...of(), order: rel('order', order), ticket: rel('ticket', ticket) },
  );
  const mine = await call(app, { url: `/v1/attendees/${holder}`, token: cast.other.token });
  t.match(mine.body.data.attributes, {
    identifier: /^[0-9a-f-]{36}$/,
    'ticket-id': ticket,
    'is-discount-applied': false,
    'is-access-code-applied': false,
    'is-checked-out': false,
    'attendee-notes': null,
    'is-badge-printed': false,
    'badge-printed-at': null,
  });
  for (const [member, value] of [
    ['attendee-notes', 'Arrived late'],
    ['is-checked-out', true],
    ['device-name-checkin', 'Gate 1'],
    ['is-badge-printed', true],
    ['badge-printed-at', '2030-05-01T09:00:00Z'],
  ] as const) {
    const buyer = await send('PATCH', `/v1/attendees/${holder}`, cast.other.token, {
      type: 'attendee',
      id: holder,
      attributes: { [member]: value },
    });
    expectError(t, buyer, 403, { pointer: at(member) });
  }
  const unchanged = await send('PATCH', `/v1/attendees/${holder}`, cast.other.token, {
    type: 'attendee',
    id: holder,
    attributes: { firstname: 'Grace H.', 'attendee-notes': null, 'is-checked-out': false, 'badge-printed-at': null },
  });
  t.equal(unchanged.status, 200, 'the buyer sends them back unchanged with a change of their own');
  const staff = await send('PATCH', `/v1/attendees/${holder}`, cast.coorganizer.token, {
    type: 'attendee',
    id: holder,
    attributes: {
      'attendee-notes': 'Arrived late',
      'is-checked-out': true,
      'device-name-checkin': 'Gate 1',
      'is-badge-printed': true,
      'badge-printed-at': '2030-05-01T09:00:00.000Z',
    },
  });
  t.equal(staff.status, 200);
  t.match(staff.body.data.attributes, {
    'attendee-notes': 'Arrived late',
    'badge-printed-at': '2030-05-01T09:00:00.000Z',
  });
  const sentBack = await send('PATCH', `/v1/attendees/${holder}`, cast.coorganizer.token, {
    type: 'attendee',
    id: holder,
    attributes: { 'badge-printed-at': '2030-05-01T09:00:00Z' },
  });
  t.equal(sentBack.status, 200);
  for (const member of ['identifier', 'ticket-id', 'is-discount-applied', 'is-access-code-applied']) {
    const res = await send('PATCH', `/v1/attendees/${holder}`, owner, {
      type: 'attendee',
      id: holder,
      attributes: { [member]: member === 'identifier' || member === 'ticket-id' ? '999' : true },
    });
    t.equal(res.status, 422, `${member} is read-only`);
    expectError(t, res, 422, { pointer: at(member) });
  }

  const notes = await send('PATCH', `/v1/orders/${order}`, owner, {
    type: 'order',
    id: order,
    attributes: { 'order-notes': 'Called the buyer' },
  });
  t.equal(notes.status, 200);
  t.match(notes.body.data.attributes, {
    'order-notes': 'Called the buyer',
    'transaction-id': null,
    'discount-code-id': null,
  });
  t.strictSame(
    Object.keys(notes.body.data.relationships).filter((r) => ['marketer', 'discount-code', 'access-code'].includes(r)),
    ['marketer', 'discount-code', 'access-code'],
  );
  for (const [member, value] of [
    ['transaction-id', 'tx-1'],
    ['discount-code-id', 1],
  ] as const) {
    const res = await send('PATCH', `/v1/orders/${order}`, owner, {
      type: 'order',
      id: order,
      attributes: { [member]: value },
    });
    expectError(t, res, 422, { pointer: at(member) });
  }
  const marketer = await send('PATCH', `/v1/orders/${order}`, owner, {
    type: 'order',
    id: order,
    relationships: { marketer: rel('user', cast.owner.id) },
  });
  expectError(t, marketer, 422, { pointer: '/data/relationships/marketer' });
});

t.test('bad input to the new resources: a 4xx error document, nothing written', async (t) => {
  const fee = await create(app, admin, 'ticket-fees', 'ticket-fee', { currency: 'INR', country: 'IN' });
  const tag = await create(app, owner, 'tags', 'tag', { name: 'Bad input' }, of());
  const ticketTag = await create(app, owner, 'ticket-tags', 'ticket-tag', { name: 'Bad input' }, of());
  const form = await selectField('size');
  const option = await create(
    app,
    owner,
    'custom-form-options',
    'custom-form-option',
    { value: 'S' },
    {
      'custom-form': rel('custom-form', form),
    },
  );
  const snapshot = snapshotOf(app, ['ticket_fees', 'tags', 'ticket_tags', 'ticket_tagging', 'custom_form_options']);
  const before = await snapshot();
  type Case = { method: 'POST' | 'PATCH'; url: string; data: unknown; token?: string } | string;
  const post = (path: string, type: string, attributes: unknown, relationships?: unknown): Case => ({
    method: 'POST',
    url: `/v1/${path}`,
    data: { type, attributes, ...(relationships ? { relationships } : {}) },
    token: path === 'ticket-fees' ? admin : owner,
  });
  const patch = (path: string, type: string, id: string, attributes: unknown): Case => ({
    method: 'PATCH',
    url: `/v1/${path}/${id}`,
    data: { type, id, attributes },
    token: path === 'ticket-fees' ? admin : owner,
  });
  const formRel = { 'custom-form': rel('custom-form', form) };
  const CASES: RefusedCase<Case>[] = [
    [
      'a service fee above 100',
      post('ticket-fees', 'ticket-fee', { currency: 'EUR', 'service-fee': 101 }),
      422,
      at('service-fee'),
    ],
    ['a negative maximum fee', patch('ticket-fees', 'ticket-fee', fee, { 'maximum-fee': -1 }), 422, at('maximum-fee')],
    ['a fee as words', patch('ticket-fees', 'ticket-fee', fee, { 'service-fee': 'ten' }), 422, at('service-fee')],
    [
      'a fee as a string above 100',
      patch('ticket-fees', 'ticket-fee', fee, { 'service-fee': '250' }),
      422,
      at('service-fee'),
    ],
    [
      'a currency that is not a code',
      post('ticket-fees', 'ticket-fee', { currency: 'euro', country: 'DE' }),
      422,
      at('currency'),
    ],
    ['no currency for a country', post('ticket-fees', 'ticket-fee', { country: 'FR' }), 422, at('currency')],
    [
      'a currency cleared for a country',
      patch('ticket-fees', 'ticket-fee', fee, { currency: null }),
      422,
      at('currency'),
    ],
    ['an empty country', patch('ticket-fees', 'ticket-fee', fee, { country: '' }), 422, at('country')],
    [
      'a second fee (update)',
      patch('ticket-fees', 'ticket-fee', fee, { currency: 'EUR', country: 'DE' }),
      409,
      at('currency'),
    ],
    ['an unknown fee member', post('ticket-fees', 'ticket-fee', { currency: 'EUR', fee: 1 }), 422, at('fee')],
    ['a tag without a name', post('tags', 'tag', { color: '#fff' }, of()), 422, at('name')],
    ['a tag name over 255', patch('tags', 'tag', tag, { name: 'n'.repeat(256) }), 422, at('name')],
    ['a colour over 32', patch('tags', 'tag', tag, { color: 'c'.repeat(33) }), 422, at('color')],
    ['is-read-only as a number', patch('tags', 'tag', tag, { 'is-read-only': 1 }), 422, at('is-read-only')],
    ['a tag of an unknown event', post('tags', 'tag', { name: 'x' }, of('999999')), 404],
    ['a ticket tag without an event', post('ticket-tags', 'ticket-tag', { name: 'x' }), 422, '/data/relationships'],
    ['an empty ticket tag name', patch('ticket-tags', 'ticket-tag', ticketTag, { name: '' }), 422, at('name')],
    [
      'a ticket tag naming an unknown ticket',
      post(
        'ticket-tags',
        'ticket-tag',
        { name: 'x' },
        { ...of(), tickets: { data: [{ type: 'ticket', id: '999999' }] } },
      ),
      404,
    ],
    [
      'a ticket tag naming a ticket of another event',
      post(
        'ticket-tags',
        'ticket-tag',
        { name: 'x' },
        { ...of(), tickets: { data: [{ type: 'ticket', id: otherTicket }] } },
      ),
      422,
      '/data/relationships/tickets',
    ],
    [
      'an option without a form',
      post('custom-form-options', 'custom-form-option', { value: 'M' }),
      422,
      '/data/relationships',
    ],
    ['an option without a value', post('custom-form-options', 'custom-form-option', {}, formRel), 422, at('value')],
    [
      'an option of an unknown form',
      post(
        'custom-form-options',
        'custom-form-option',
        { value: 'M' },
        { 'custom-form': rel('custom-form', '999999') },
      ),
      404,
    ],
    [
      'an option value over 1024',
      patch('custom-form-options', 'custom-form-option', option, { value: 'v'.repeat(1025) }),
      422,
      at('value'),
    ],
    ['malformed JSON', '{"data": {', 400],
  ];
  await expectRefused(
    t,
    CASES,
    (c) =>
      typeof c === 'string'
        ? call(app, { method: 'POST', url: '/v1/tags', token: owner, body: c })
        : call(app, { method: c.method, url: c.url, token: c.token, body: { data: c.data } }),
    snapshot,
    before,
  );
});
