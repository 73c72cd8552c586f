/**
 * Import of the ticket records: tickets.json, tax.json and speakers_call.json (also as nested members
 * of event.json), checked with the rules the API applies (a record breaking one is dropped with a
 * warning, never a failed import), one tax and one call per event.
 */
import t from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import { imported, listOf, warning, type Doc, type Entries } from '../helpers/imports.js';
import { seedUser } from '../helpers/users.js';

const { app } = await buildTestApp(t, { ROLE: 'all', PUBLIC_URL: 'https://events.example.test' });
const { token } = await seedUser(app);
const event = (fields: Record<string, unknown> = {}) => ({
  id: 7,
  name: 'Ticket Camp',
  'starts-at': '2030-06-01T09:00:00Z',
  'ends-at': '2030-06-02T18:00:00Z',
  timezone: 'UTC',
  ...fields,
});
const sales = { sales_starts_at: '2030-01-01T00:00:00Z', sales_ends_at: '2030-05-01T00:00:00Z' };

t.test('tickets breaking a rule, a second tax and a reversed call are dropped with warnings', async (t) => {
  const entries: Entries = {
    event: event(),
    tickets: [
      {
        id: 1,
        name: 'Fine',
        type: 'paid',
        price: 10,
        quantity: 50,
        min_order: 1,
        max_order: 5,
        is_hidden: true,
        ...sales,
      },
      { id: 2, name: 'Upside down', min_order: 5, max_order: 2, ...sales },
      { id: 3, name: 'Backwards', sales_starts_at: '2030-05-01T00:00:00Z', sales_ends_at: '2030-01-01T00:00:00Z' },
    ],
    tax: [
      { id: 1, name: 'VAT', rate: 19, tax_id: 'DE1' },
      { id: 2, name: 'GST', rate: 7 },
    ],
    speakers_call: [{ id: 1, starts_at: '2030-03-01T00:00:00Z', ends_at: '2030-02-01T00:00:00Z' }],
  };
  const done = await imported(t, app, token, entries);
  t.equal(done.state, 'SUCCESS');
  const tickets = (await listOf(app, token, done.id, 'tickets', '')).data as Doc[];
  t.same(
    tickets.map((d) => [d.attributes.name, d.attributes['is-hidden'], d.attributes.price]),
    [['Fine', true, 10]],
  );
  const tax = (await call(app, { url: `/v1/events/${done.id}/tax`, token })).body.data as Doc;
  t.match(
    tax.attributes,
    { name: 'VAT', rate: 19, 'tax-id': 'DE1' },
    'the first tax; its owner reads the private members',
  );
  t.same((await call(app, { url: `/v1/events/${done.id}/speakers-call`, token })).body.data, null, 'no call');
  t.strictSame(done.warnings, [
    warning('tickets', 2, null, null, 'max-order should be greater than min-order: the record is dropped'),
    warning('tickets', 3, null, null, 'sales-ends-at should be after sales-starts-at: the record is dropped'),
    warning('tax', 2, null, null, 'an event has one tax: the first is kept: the record is dropped'),
    warning('speakers_call', 1, null, null, 'ends-at must be after starts-at: the record is dropped'),
  ]);
});

t.test('a call for speakers and a tax nested in event.json', async (t) => {
  const done = await imported(t, app, token, {
    event: event({
      speakers_call: {
        id: 4,
        announcement: 'Talks!',
        starts_at: '2030-01-01T00:00:00Z',
        ends_at: '2030-02-01T00:00:00Z',
        privacy: 'private',
      },
      tax: { id: 9, name: 'VAT', rate: 20 },
    }),
  });
  t.equal(done.state, 'SUCCESS');
  const call_ = (await call(app, { url: `/v1/events/${done.id}/speakers-call`, token })).body.data as Doc;
  t.match(call_.attributes, { announcement: 'Talks!', privacy: 'private' });
  t.match(((await call(app, { url: `/v1/events/${done.id}/tax`, token })).body.data as Doc).attributes, {
    name: 'VAT',
    rate: 20,
  });
});
