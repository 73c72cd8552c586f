/**
 * Bad input to POST /v1/orders and PATCH /v1/orders/{id}. The event's organizer sends every request
 * (it may write every writable field, order notes included), so only validation decides: each answer is a 4xx
 * error document with the expected status and source, never a 500, and the orders table does not change.
 */
import t from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import {
  buildWorld,
  create,
  eventAttributes,
  expectRefused,
  rel,
  snapshotOf,
  type RefusedCase,
} from '../helpers/events.js';
import { seedUser } from '../helpers/users.js';

/** A body (a string is sent as is) with, when given, another Content-Type or caller. */
interface Input {
  body: unknown;
  type?: string;
  anonymous?: boolean;
  /** The order the PATCH path names (default: the buyer's order). */
  path?: string;
}
type Case = RefusedCase<Input>;

const at = (name: string) => `/data/attributes/${name}`;
const ATTENDEE = { name: 'Ada', email: 'ada@example.org' };
const item = (n: number, more = '') => `/data/attributes/attendees/${n}${more}`;

/** [attribute, value, what, pointer (default: the attribute)]: refused on create and update alike. */
const WRONG: [string, unknown, string, string?][] = [
  ['amount', -1, 'a negative amount'],
  ['amount', -0.01, 'a negative cent'],
  ['amount', 'ten', 'an amount as a word'],
  ['amount', '10', 'an amount as a numeric string'],
  ['amount', 1e12, 'an amount of 1e12'],
  ['amount', 10_000_000_000, 'an amount just past the maximum'],
  ['amount', true, 'a boolean amount'],
  ['amount', [10], 'an amount in an array'],
  ['amount', 5, 'an amount (read-only: the server computes it)'],
  ['status', 'paid', 'an unknown status'],
  ['status', 'Completed', 'a status in another case'],
  ['status', 3, 'a numeric status'],
  ['status', null, 'status cleared'],
  ['status', 'expired', 'expired, which only the server sets'],
  ['payment-mode', 'cash', 'an unknown payment mode'],
  ['payment-mode', '', 'an empty payment mode'],
  ['payment-mode', { mode: 'bank' }, 'a payment mode object'],
  ['payment-mode', 'stripe', 'an online method (none is configured)'],
  ['payment-mode', 'bank', 'a method the event does not accept'],
  ['attendees', 'Ada <ada@example.org>', 'attendees as a string'],
  ['attendees', ATTENDEE, 'one attendee not in an array'],
  ['attendees', null, 'attendees cleared'],
  ['attendees', ['ada@example.org'], 'an attendee as a string', item(0)],
  ['attendees', [{ name: 'Ada' }], 'an attendee without email', item(0, '/email')],
  ['attendees', [{ email: 'ada@example.org' }], 'an attendee without name', item(0, '/name')],
  ['attendees', [ATTENDEE, { name: 'Grace' }], 'the second attendee without email', item(1, '/email')],
  ['attendees', [{ name: 'Ada', email: 'not-an-email' }], 'a bad email', item(0, '/email')],
  ['attendees', [{ name: 'Ada', email: 'ada@localhost' }], 'an email without a domain', item(0, '/email')],
  [
    'attendees',
    [{ name: 'Ada', email: 'ada lovelace@example.org' }],
    'an email with a blank inside',
    item(0, '/email'),
  ],
  [
    'attendees',
    [{ name: 'Ada', email: `${'a'.repeat(250)}@example.org` }],
    'an email over 254 characters',
    item(0, '/email'),
  ],
  ['attendees', [{ name: 'Ada', email: 42 }], 'a numeric email', item(0, '/email')],
  ['attendees', [{ ...ATTENDEE, phone: '+49 30 1' }], 'an attendee with an extra member', item(0, '/phone')],
  ['attendees', [{ name: '', email: 'ada@example.org' }], 'an empty name', item(0, '/name')],
  ['attendees', [{ name: 'n'.repeat(256), email: 'ada@example.org' }], 'a name over 255 characters', item(0, '/name')],
  ['attendees', [{ name: null, email: 'ada@example.org' }], 'a null name', item(0, '/name')],
  ['attendees', [{ name: 'A\u0000da', email: 'ada@example.org' }], 'a name with a NUL character'],
  [
    'attendees',
    Array.from({ length: 501 }, (_, i) => ({ name: `A${i}`, email: `a${i}@example.org` })),
    '501 attendees',
  ],
  ['company', 'c'.repeat(256), 'a company over 255 characters'],
  ['tax-business-info', { vat: 'DE1' }, 'tax info as an object'],
  ['address', 'a'.repeat(1025), 'an address over 1024 characters'],
  ['city', 42, 'a numeric city'],
  ['state', ['Berlin'], 'a state in an array'],
  ['country', true, 'a boolean country'],
  ['zipcode', '1'.repeat(33), 'a zipcode over 32 characters'],
  ['is-billing-enabled', 'yes', 'billing enabled as a word'],
  ['is-billing-enabled', null, 'billing enabled cleared'],
  ['exp-month', '12', 'read-only exp-month'],
  ['exp-year', '2030', 'read-only exp-year'],
  ['brand', 'Visa', 'read-only brand'],
  ['last4', '4242', 'read-only last4'],
  ['paid-via', 'stripe', 'read-only paid-via'],
  ['tickets-pdf-url', 'https://files.example.org/tickets.pdf', 'read-only tickets-pdf-url'],
  ['identifier', '00000000-0000-4000-8000-000000000000', 'read-only identifier'],
  ['completed-at', '2030-01-01T00:00:00Z', 'read-only completed-at'],
  ['created-at', '2030-01-01T00:00:00Z', 'read-only created-at'],
  ['deleted-at', '2020-01-01T00:00:00Z', 'read-only deleted-at'],
  ['bogus', 1, 'an unknown attribute'],
  ['user-id', 1, 'a foreign key as an attribute'],
];

const { app } = await buildTestApp(t);
const world = await buildWorld(app);
const { organizer } = world.cast;
const buyer = await seedUser(app);
const pub = world.published.event;
const order = await create(
  app,
  buyer.token,
  'orders',
  'order',
  { attendees: [ATTENDEE] },
  { event: rel('event', pub) },
);
const otherOrder = await create(app, buyer.token, 'orders', 'order', {}, { event: rel('event', pub) });
const otherEvent = await create(app, organizer.token, 'events', 'event', eventAttributes('Other Fair'));
const snapshot = snapshotOf(app, ['orders']);
const before = await snapshot();

const send = (method: 'POST' | 'PATCH') => (input: Input) =>
  call(app, {
    method,
    url: method === 'POST' ? '/v1/orders' : `/v1/orders/${input.path ?? order}`,
    token: input.anonymous ? undefined : organizer.token,
    body: input.body,
    ...(input.type ? { headers: { 'content-type': input.type } } : {}),
  });
const of = { event: rel('event', pub) };
const valid = { attendees: [ATTENDEE] };
const createDoc = (
  attributes: Record<string, unknown>,
  relationships: unknown = of,
  extra: Record<string, unknown> = {},
): Input => ({
  body: { data: { type: 'order', attributes, ...(relationships === null ? {} : { relationships }), ...extra } },
});
const updateDoc = (attributes: Record<string, unknown>, extra: Record<string, unknown> = {}): Input => ({
  body: { data: { type: 'order', id: order, attributes, ...extra } },
});

/** Cases common to both methods: the document and its media type. */
const documentCases = (doc: Input['body']): Case[] => [
  ['malformed JSON', { body: '{"data":{"type":"order"' }, 400],
  ['not JSON at all', { body: 'amount=5' }, 400],
  ['an empty body', { body: '' }, 400],
  ['no data', { body: {} }, 422, '/data'],
  ['data is an array', { body: { data: [(doc as { data: unknown }).data] } }, 422, '/data'],
  ['data is null', { body: { data: null } }, 422, '/data'],
  ['a top-level member besides data', { body: { ...(doc as object), meta: {} } }, 422, '/meta'],
  ['type in the plural', { body: { data: { ...(doc as { data: object }).data, type: 'orders' } } }, 409, '/data/type'],
  [
    'type of another resource',
    { body: { data: { ...(doc as { data: object }).data, type: 'event' } } },
    409,
    '/data/type',
  ],
  ['application/json', { body: JSON.stringify(doc), type: 'application/json' }, 415],
  [
    'the media type with a charset',
    { body: JSON.stringify(doc), type: 'application/vnd.api+json; charset=utf-8' },
    415,
  ],
  ['text/plain', { body: JSON.stringify(doc), type: 'text/plain' }, 415],
  ['anonymous', { body: doc, anonymous: true }, 401],
];

const createCases: Case[] = [
  ...documentCases(createDoc(valid).body),
  ['client-generated id', createDoc(valid, of, { id: '777' }), 403, '/data/id'],
  ['attributes not an object', createDoc('amount' as unknown as Record<string, unknown>), 422, '/data/attributes'],
  ['relationships missing', createDoc(valid, null), 422, '/data/relationships'],
  ['event missing', createDoc(valid, {}), 422, '/data/relationships/event'],
  ['event is null', createDoc(valid, { event: { data: null } }), 422, '/data/relationships/event/data'],
  [
    'event linkage without data',
    createDoc(valid, { event: { type: 'event', id: pub } }),
    422,
    '/data/relationships/event/data',
  ],
  [
    'event linkage as a list',
    createDoc(valid, { event: { data: [{ type: 'event', id: pub }] } }),
    422,
    '/data/relationships/event/data',
  ],
  [
    'event of the wrong type',
    createDoc(valid, { event: rel('user', pub) }),
    409,
    '/data/relationships/event/data/type',
  ],
  [
    'event id as a number',
    createDoc(valid, { event: { data: { type: 'event', id: Number(pub) } } }),
    422,
    '/data/relationships/event/data/id',
  ],
  ['event id that is a word', createDoc(valid, { event: rel('event', 'abc') }), 404],
  ['event id that is a fraction', createDoc(valid, { event: rel('event', '1.5') }), 404],
  ['event id beyond int32', createDoc(valid, { event: rel('event', '99999999999') }), 404],
  ['event named by its identifier', createDoc(valid, { event: rel('event', world.published.identifier) }), 404],
  ['event that does not exist', createDoc(valid, { event: rel('event', '424242') }), 404],
  [
    'read-only user relationship naming another user',
    createDoc(valid, { ...of, user: rel('user', buyer.id) }),
    422,
    '/data/relationships/user',
  ],
  ['unknown relationship', createDoc(valid, { ...of, venue: rel('event', pub) }), 422, '/data/relationships/venue'],
  ...WRONG.map(
    ([name, value, what, pointer]): Case => [
      `${name}: ${what}`,
      createDoc({ ...valid, [name]: value }),
      422,
      pointer ?? at(name),
    ],
  ),
];

const updateCases: Case[] = [
  ...documentCases(updateDoc({ company: 'ACME' }).body),
  ['id missing', { body: { data: { type: 'order', attributes: { company: 'ACME' } } } }, 422, '/data/id'],
  ['id as a number', updateDoc({ company: 'ACME' }, { id: Number(order) }), 422, '/data/id'],
  ['id of another order', updateDoc({ company: 'ACME' }, { id: otherOrder }), 409, '/data/id'],
  [
    'event moved to another event',
    updateDoc({}, { relationships: { event: rel('event', otherEvent) } }),
    422,
    '/data/relationships/event',
  ],
  ['event cleared', updateDoc({}, { relationships: { event: { data: null } } }), 422, '/data/relationships/event/data'],
  [
    'event of the wrong type',
    updateDoc({}, { relationships: { event: rel('user', pub) } }),
    409,
    '/data/relationships/event/data/type',
  ],
  [
    'read-only user relationship',
    updateDoc({}, { relationships: { user: rel('user', organizer.id) } }),
    422,
    '/data/relationships/user',
  ],
  ...WRONG.map(
    ([name, value, what, pointer]): Case => [
      `${name}: ${what}`,
      updateDoc({ [name]: value }),
      422,
      pointer ?? at(name),
    ],
  ),
];

t.test('POST /v1/orders', async (t) => {
  await expectRefused(t, createCases, send('POST'), snapshot, before);
});

t.test('PATCH /v1/orders/{id}', async (t) => {
  await expectRefused(t, updateCases, send('PATCH'), snapshot, before);
});

t.test('orders that do not exist, by any name', async (t) => {
  const cases: Case[] = ['abc', '99999999999', '0', '-1', '1.5', '424242', '00000000-0000-4000-8000-000000000000'].map(
    (id) => [
      `PATCH /v1/orders/${id}`,
      { body: { data: { type: 'order', id, attributes: { company: 'ACME' } } }, path: id },
      404,
    ],
  );
  await expectRefused(t, cases, send('PATCH'), snapshot, before);
});

t.test('bad queries on order lists are 400 naming the parameter', async (t) => {
  for (const url of ['/v1/orders', `/v1/events/${pub}/orders`, `/v1/users/${buyer.id}/orders`]) {
    for (const [query, parameter] of [
      ['sort=bogus', 'sort'],
      ['sort=attendees', 'sort'],
      [`filter=${encodeURIComponent('[{"name":"bogus","op":"eq","val":1}]')}`, 'filter'],
      [`filter=${encodeURIComponent('[{"name":"status","op":"nope","val":"x"}]')}`, 'filter'],
      ['filter=not-json', 'filter'],
      ['include=bogus', 'include'],
      ['page[size]=10001', 'page[size]'],
    ] as const) {
      const token = url.startsWith('/v1/users') ? buyer.token : organizer.token;
      const res = await call(app, { url: `${url}?${query}`, token });
      t.equal(res.status, 400, `${url}?${query}`);
      t.equal(res.body?.errors?.[0]?.source?.parameter, parameter, `${url}?${query}: names ${parameter}`);
    }
  }
  t.same(await snapshot(), before, 'nothing written');
});

// Last but one: should the app store such a name, the snapshots of the other cases stay unaffected.
t.test('a name of blanks only is empty once trimmed: refused like an empty name', async (t) => {
  const blank = [{ name: ' \t ', email: 'ada@example.org' }];
  const cases: Case[] = [
    ['POST', createDoc({ ...valid, attendees: blank }), 422, item(0, '/name')],
    ['PATCH', updateDoc({ attendees: blank }), 422, item(0, '/name')],
  ];
  for (const [what, input, status, pointer] of cases) {
    await expectRefused(
      t,
      [[what, input, status, pointer]],
      send(what as 'POST' | 'PATCH'),
      snapshot,
      await snapshot(),
    );
  }
});

t.test('the limits themselves are accepted', async (t) => {
  const attendees = Array.from({ length: 500 }, (_, i) => ({ name: 'n'.repeat(255), email: ` a${i}@example.org ` }));
  const res = await call(app, {
    method: 'POST',
    url: '/v1/orders',
    token: organizer.token,
    body: { data: { type: 'order', attributes: { attendees }, relationships: of } },
  });
  t.equal(res.status, 201, '500 attendees, 255-character names');
  t.equal(res.body.data.attributes.attendees.length, 500);
  t.equal(res.body.data.attributes.attendees[7].email, 'a7@example.org', 'emails trimmed');
});
