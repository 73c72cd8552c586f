/**
 * An order worth printing: a published event in Berlin time with a tax, a paid and a free ticket, a discount code,
 * and an order of a buyer (through the API) with ticket holders. The holders, their prices and discounts, the
 * order's amount and billing details are written in the database as the checkout leaves them: these tests are about
 * what the documents show of an order, not how the checkout makes it (test/orders/).
 */
import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { type Cast, create, createEvent, rel } from './events.js';
import { FRONTEND_ORIGIN } from './front-end-client.js';
import { taxAttributes } from './ticket-bodies.js';
import { createTicket } from './tickets.js';
import { seedUser, type TestUser } from './users.js';

export interface PrintedOrder {
  buyer: TestUser;
  /** A user holding one of the tickets (linked to its holder record). */
  holderUser: TestUser;
  event: { id: string; identifier: string };
  order: { id: string; identifier: string };
  /** Ids and identifiers of the holders, in the order they were added. */
  holders: { id: string; identifier: string; name: string; email: string }[];
}

export const EVENT_NAME = 'Open Summit Zürich';

/** Sets up the event once for a cast; each call of the answer adds an order of new holders to it. */
export async function printedEvent(app: FastifyInstance, cast: Cast) {
  const event = await createEvent(app, cast, EVENT_NAME, 'published');
  const of = { event: rel('event', event.id) };
  const token = cast.owner.token;
  const vip = await createTicket(app, token, event.id, { name: 'VIP', type: 'paid', price: 100 });
  const free = await createTicket(app, token, event.id, { name: 'Community' });
  await create(
    app,
    token,
    'taxes',
    'tax',
    taxAttributes({
      name: 'VAT',
      rate: 19,
      'registered-company': 'Summit GmbH',
      'tax-id': 'DE123456789',
      city: 'Berlin',
      'invoice-footer': 'Thank you for coming.',
    }),
    of,
  );
  await app.sql`update events set location_name = 'Kongresshaus, Zürich', payment_currency = 'EUR', is_tax_enabled = true,
    after_order_message = 'Doors open at 8:30.' where id = ${Number(event.id)}`;
  const [code] = await app.sql<{ id: number }[]>`insert into discount_codes (code, value, type, event_id, used_for)
    values ('EARLY20', 20, 'percent', ${Number(event.id)}, 'ticket') returning id`;

  /** A buyer's order with holders of `holders` [ticket, first name, email]; the VIP ones discounted by EARLY20. */
  async function order(holders: ['vip' | 'free', string, string][]): Promise<PrintedOrder> {
    const buyer = await seedUser(app);
    const holderUser = await seedUser(app);
    const id = await create(app, buyer.token, 'orders', 'order', {}, of);
    const made: PrintedOrder['holders'] = [];
    for (const [kind, firstname, email] of holders) {
      const [row] = await app.sql<{ id: number; identifier: string }[]>`insert into attendees
        (event_id, order_id, ticket_id, firstname, lastname, email, price, is_discount_applied)
        values (${Number(event.id)}, ${Number(id)}, ${Number(kind === 'vip' ? vip : free)}, ${firstname}, 'Tester',
          ${email}, ${kind === 'vip' ? 100 : 0}, ${kind === 'vip'}) returning id, identifier`;
      made.push({ id: String(row!.id), identifier: row!.identifier, name: `${firstname} Tester`, email });
    }
    // The first holder is the holder user's own ticket.
    if (made[0])
      await app.sql`update attendees set user_id = ${Number(holderUser.id)} where id = ${Number(made[0].id)}`;
    const vips = holders.filter(([kind]) => kind === 'vip').length;
    // 100 less 20% for each VIP ticket, plus 19% VAT: the total the order computation stores.
    const [row] = await app.sql<{ identifier: string }[]>`update orders set discount_code_id = ${code!.id},
      amount = ${Math.round(vips * 80 * 1.19 * 100) / 100}, company = 'Buyer AG', address = 'Bahnhofstrasse 1',
      city = 'Zürich', country = 'CH', tax_business_info = 'CHE-123.456.789', is_billing_enabled = true
      where id = ${Number(id)} returning identifier`;
    return { buyer, holderUser, event, order: { id, identifier: row!.identifier }, holders: made };
  }
  return { event, order };
}

/**
 * A new printed event's order of two holders, Ada Tester with the VIP ticket (ada@example.org) and Grace Tester with
 * the free one (grace@example.org), set to `status`: the order the front end's order pages open.
 */
export async function printedOrder(app: FastifyInstance, cast: Cast, status: string) {
  const order = await (await printedEvent(app, cast)).order([
    ['vip', 'Ada', 'ada@example.org'],
    ['free', 'Grace', 'grace@example.org'],
  ]);
  await setStatus(app, order.order.id, status);
  return order;
}

/**
 * Sets the order's status in the database: which transitions the API allows, and what they send, is the order state
 * machine's business (test/orders/); these tests need orders in each status.
 */
export async function setStatus(app: FastifyInstance, id: string, status: string) {
  await app.sql`update orders set status = ${status},
    completed_at = case when ${status} = 'completed' then now() end where id = ${Number(id)}`;
}

export interface Download {
  status: number;
  /** Lower-case names. */
  headers: OutgoingHttpHeaders;
  bytes: Buffer;
  body: string;
}

/**
 * GET of a PDF route as the front end's loader.downloadFile sends it (app/services/loader.ts:201-225: the adapter's
 * Accept and token, no Content-Type): through `app.inject`, or, given the base URL of the app listening, over HTTP
 * as the browser's XMLHttpRequest sends it, from the front end's origin, the answer read as a blob.
 */
export async function download(via: FastifyInstance | string, url: string, token?: string): Promise<Download> {
  const headers = { accept: 'application/vnd.api+json', ...(token ? { authorization: `JWT ${token}` } : {}) };
  if (typeof via === 'string') {
    const res = await fetch(`${via}${url}`, { headers: { origin: FRONTEND_ORIGIN, ...headers } });
    const bytes = Buffer.from(await (await res.blob()).arrayBuffer());
    return { status: res.status, headers: Object.fromEntries(res.headers), bytes, body: bytes.toString() };
  }
  const res = await via.inject({ method: 'GET', url, headers });
  return { status: res.statusCode, headers: res.headers, bytes: res.rawPayload, body: res.body };
}
