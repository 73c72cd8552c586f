/**
 * The site-wide face through the typed SDK against a listening server: an administrator configures
 * mail and writes a footer page, a user buys tickets for a published event and pays by bank transfer, the
 * organizer marks the order paid, the buyer has the receipt sent (it arrives at a real SMTP server) and the administrator
 * reads the statistics; the settings variants are typed as the two schemas of the contract.
 */
import type { AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import { createApiClient, type components } from '../../openapi/client/index.js';
import { buildTestApp } from '../helpers/app.js';
import { createCast, createEvent } from '../helpers/events.js';
import { startSmtp } from '../helpers/smtp.js';
import { seedUser } from '../helpers/users.js';

type Schemas = components['schemas'];

function expect<D>(
  t: Test,
  label: string,
  result: { data?: D; error?: unknown; response: Response },
  status: number,
): D {
  t.equal(result.response.status, status, `${label}: ${status}`);
  if (result.data === undefined) throw new Error(`${label}: ${result.response.status} ${JSON.stringify(result.error)}`);
  return result.data;
}

const smtp = await startSmtp(t);
const { app } = await buildTestApp(t);
await app.listen({ port: 0, host: '127.0.0.1' });
const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
const cast = await createCast(app);
const event = await createEvent(app, cast, 'SDK Conf', 'published');
const admin = createApiClient(baseUrl, { token: cast.admin.token });
const buyerUser = await seedUser(app);
const buyer = createApiClient(baseUrl, { token: buyerUser.token });

t.test('settings: the administrator configures mail; everyone else sees the limited variant', async (t) => {
  const changes = {
    'app-name': 'SDK Events',
    'email-service': 'smtp',
    'smtp-host': smtp.host,
    'smtp-port': smtp.port,
    'email-from': 'tickets@sdk.example.com',
    'email-from-name': 'SDK Events',
  } satisfies Partial<Schemas['SettingFull']['attributes']>;
  const patched = expect(
    t,
    'patch settings',
    await admin.PATCH('/v1/settings/{id}', {
      params: { path: { id: '1' } },
      body: { data: { type: 'setting', id: '1', attributes: changes } },
    }),
    200,
  );
  const full = patched.data as Schemas['SettingFull'];
  t.equal(full.attributes['smtp-host'], smtp.host);
  const anonymous = expect(t, 'anonymous settings', await createApiClient(baseUrl).GET('/v1/settings'), 200);
  const limited = anonymous.data as Schemas['SettingLimited'];
  t.equal(limited.attributes['app-name'], 'SDK Events');
  t.equal(limited.attributes['order-expiry-time'], 15);
  t.notOk('smtp-host' in limited.attributes, 'no mail settings for anonymous callers');
});

t.test('pages: the administrator writes a footer page that anyone lists', async (t) => {
  const page = {
    name: 'Terms',
    title: 'Terms of use',
    url: '/terms',
    description: 'Be nice',
    place: 'footer',
    index: 1,
  } satisfies Schemas['PageCreateRequest']['data']['attributes'];
  expect(t, 'create page', await admin.POST('/v1/pages', { body: { data: { type: 'page', attributes: page } } }), 201);
  const listed = expect(
    t,
    'list pages',
    await createApiClient(baseUrl).GET('/v1/pages', {
      params: { query: { filter: JSON.stringify([{ name: 'place', op: 'eq', val: 'footer' }]) } },
    }),
    200,
  );
  t.same(
    listed.data.map((p) => p.attributes.url),
    ['/terms'],
  );
});

t.test('an order from purchase to receipt', async (t) => {
  const attendees = [{ name: 'Ada Lovelace', email: 'ada@example.org' }];
  const organizer = createApiClient(baseUrl, { token: cast.organizer.token });
  const ticket = expect(
    t,
    'create ticket',
    await organizer.POST('/v1/tickets', {
      body: {
        data: {
          type: 'ticket',
          attributes: {
            name: 'Day pass',
            type: 'paid',
            price: 25,
            quantity: 100,
            'sales-starts-at': new Date(Date.now() - 86_400_000).toISOString(),
            'sales-ends-at': new Date(Date.now() + 86_400_000).toISOString(),
          },
          relationships: { event: { data: { type: 'event', id: event.id } } },
        },
      },
    }),
    201,
  );
  expect(
    t,
    'accept bank transfers',
    await organizer.PATCH('/v1/events/{id}', {
      params: { path: { id: event.id } },
      body: { data: { type: 'event', id: event.id, attributes: { 'can-pay-by-bank': true } } },
    }),
    200,
  );
  const priced = expect(
    t,
    'calculate amount',
    await buyer.POST('/v1/orders/calculate-amount', { body: { tickets: [{ id: ticket.data.id, quantity: 1 }] } }),
    200,
  );
  t.equal(priced.total, 25);
  const created = expect(
    t,
    'create order',
    await buyer.POST('/v1/orders/create-order', { body: { tickets: [{ id: ticket.data.id, quantity: 1 }] } }),
    200,
  );
  const identifier = created.data.attributes.identifier!;
  t.match(created.data.attributes, { status: 'initializing', amount: 25, 'payment-mode': null });
  expect(
    t,
    'place',
    await buyer.PATCH('/v1/orders/{id}', {
      params: { path: { id: identifier } },
      body: {
        data: {
          type: 'order',
          id: created.data.id,
          attributes: { attendees, 'payment-mode': 'bank', status: 'placed' },
        },
      },
    }),
    200,
  );
  const listed = expect(
    t,
    'event orders',
    await organizer.GET('/v1/events/{id}/orders', { params: { path: { id: event.id } } }),
    200,
  );
  t.same(
    listed.data.map((o) => o.id),
    [created.data.id],
  );
  expect(
    t,
    'complete',
    await organizer.PATCH('/v1/orders/{id}', {
      params: { path: { id: identifier } },
      body: { data: { type: 'order', id: created.data.id, attributes: { status: 'completed' } } },
    }),
    200,
  );
  const sent = expect(
    t,
    'send receipt',
    await buyer.POST('/v1/attendees/send-receipt', { body: { 'order-identifier': identifier } }),
    200,
  );
  t.equal(sent.message, 'receipt sent to attendees');
  const mails = await smtp.waitFor(2);
  t.same(mails.map((m) => m.envelope.to[0]).sort(), ['ada@example.org', buyerUser.email].sort());
  t.equal(mails[0]?.parsed.from?.value[0]?.address, 'tickets@sdk.example.com');
  const stats = expect(
    t,
    'mail statistics',
    await admin.GET('/v1/admin/statistics/mails', {
      params: { query: { filter: JSON.stringify([{ name: 'id', op: 'eq', val: 1 }]) } },
    }),
    200,
  );
  t.equal(stats.data.attributes['one-day'], 2);
  const sessions = expect(t, 'session statistics', await admin.GET('/v1/admin/statistics/sessions'), 200);
  t.equal(sessions.data.id, '1');
});
