import t from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import { buildWorld, create, rel, type World } from '../helpers/events.js';
import { moveOrder, sellTickets } from '../helpers/orders.js';
import { startSmtp } from '../helpers/smtp.js';
import { ticketAttributes } from '../helpers/ticket-bodies.js';
import { expectError, seedUser } from '../helpers/users.js';

const smtp = await startSmtp(t);
const { app } = await buildTestApp(t, { SMTP_URL: smtp.url, MAIL_FROM: 'Open Event <no-reply@open-event.test>' });
const world: World = await buildWorld(app);
const { cast } = world;
const buyer = await seedUser(app);

const sendReceipt = (token: string | undefined, body: unknown, contentType = 'application/json') =>
  call(app, {
    method: 'POST',
    url: '/v1/attendees/send-receipt',
    token,
    body,
    headers: { 'content-type': contentType },
  });

const attendees = [
  { name: 'Ada Lovelace', email: 'ada@example.org' },
  { name: 'Grace Hopper', email: 'grace@example.org' },
  // The buyer holds a ticket too: one receipt for that address, not two.
  { name: 'The Buyer', email: buyer.email },
];

const of = { event: rel('event', world.published.event) };
const ticket = (name: string, price: number) =>
  create(app, cast.owner.token, 'tickets', 'ticket', ticketAttributes({ name, type: 'paid', price }), of);
const conference = await ticket('Conference', 42.5);

/** The identifier of an order of one 42.50 ticket for the attendees, bought by `buyer`: open, or paid (completed). */
async function order(status: 'initializing' | 'completed' = 'initializing') {
  const sale = await sellTickets(app, {
    buyer,
    organizerToken: cast.organizer.token,
    ticketId: conference,
    attendees,
    status,
  });
  return sale.identifier;
}

t.test('a completed order: the buyer and every other attendee get the receipt with the HTML attached', async (t) => {
  const identifier = await order('completed');
  const before = smtp.received.length;
  const res = await sendReceipt(buyer.token, { 'order-identifier': identifier });
  t.equal(res.status, 200);
  t.same(res.body, { message: 'receipt sent to attendees' });
  const mails = (await smtp.waitFor(before + 3)).slice(before);
  t.equal(mails.length, 3, 'one mail per address');
  t.same(mails.flatMap((m) => m.envelope.to).sort(), ['ada@example.org', buyer.email, 'grace@example.org'].sort());
  for (const mail of mails) {
    t.match(mail.parsed.subject, /Open Summit/);
    t.match(mail.parsed.subject, identifier);
    t.equal(mail.parsed.from?.value[0]?.address, 'no-reply@open-event.test');
    const [attachment] = mail.parsed.attachments;
    t.equal(attachment?.filename, `receipt-${identifier}.html`);
    t.equal(attachment?.contentType, 'text/html');
    const html = attachment!.content.toString('utf8');
    t.match(html, identifier);
    t.match(html, 'Open Summit');
    t.match(html, 'Ada Lovelace');
    t.match(html, '42.50');
  }
  const recorded =
    await app.sql`select recipient, action, status from mails where subject like ${`%${identifier}%`} order by recipient`;
  t.same(
    recorded.map((r) => [r.recipient, r.action, r.status]),
    [
      ['ada@example.org', 'receipt-attendee', 'sent'],
      [buyer.email, 'receipt', 'sent'],
      ['grace@example.org', 'receipt-attendee', 'sent'],
    ].sort((a, b) => a[0]!.localeCompare(b[0]!)),
  );
});

t.test('who may send it: buyer, organizers, coorganizers, admins; 403 for others; 401 anonymous', async (t) => {
  const identifier = await order('completed');
  for (const [who, token, status] of [
    ['organizer', cast.organizer.token, 200],
    ['coorganizer', cast.coorganizer.token, 200],
    ['admin', cast.admin.token, 200],
    ['other user', cast.other.token, 403],
    ['speaker', cast.speaker.token, 403],
    ['anonymous', undefined, 401],
  ] as const) {
    const res = await sendReceipt(token, { 'order-identifier': identifier });
    if (status === 200) t.equal(res.status, 200, who);
    else expectError(t, res, status);
  }
});

t.test('refusals', async (t) => {
  const open = await order();
  const before = await app.sql`select count(*)::int as n from mails`;
  expectError(t, await sendReceipt(undefined, {}), 401, { detail: 'Authentication is required' });
  const pointer = '/order-identifier';
  expectError(t, await sendReceipt(buyer.token, {}), 422, { pointer });
  expectError(t, await sendReceipt(buyer.token, { 'order-identifier': '' }), 422, { pointer });
  expectError(t, await sendReceipt(buyer.token, { 'order-identifier': 7 }), 422, { pointer });
  expectError(t, await sendReceipt(buyer.token, { 'order-identifier': 'x', extra: 1 }), 422, { pointer: '/extra' });
  expectError(t, await sendReceipt(buyer.token, '{"order-identifier":'), 400);
  expectError(t, await sendReceipt(buyer.token, 'order-identifier=x', 'text/plain'), 415);
  const missing = await sendReceipt(buyer.token, { 'order-identifier': 'no-such-order' });
  expectError(t, missing, 404);
  t.equal(missing.body.errors[0].detail, 'Order not found');
  const incomplete = await sendReceipt(buyer.token, { 'order-identifier': open });
  expectError(t, incomplete, 409);
  t.equal(incomplete.body.errors[0].detail, 'Cannot send receipt for an incomplete order');
  t.same(await app.sql`select count(*)::int as n from mails`, before, 'no mail recorded');
});

t.test('the JSON:API media type is accepted too', async (t) => {
  const identifier = await order('completed');
  const res = await sendReceipt(buyer.token, { 'order-identifier': identifier }, 'application/vnd.api+json');
  t.equal(res.status, 200);
});

t.test('ticket holders (attendee records) of the order get the receipt too', async (t) => {
  const holderBuyer = await seedUser(app);
  const movers = { buyer: holderBuyer, organizerToken: cast.organizer.token };
  const sale = await sellTickets(app, {
    ...movers,
    ticketId: await ticket('Day', 5),
    quantity: 2,
    status: 'initializing',
  });
  // The buyer fills in the blank ticket holders of the reservation, as app/controllers/orders/new.js does.
  for (const [id, attributes] of [
    [sale.holders[0]!, { firstname: 'Katherine', lastname: 'Johnson', email: 'kj@example.org' }],
    [sale.holders[1]!, { firstname: 'No Address' }],
  ] as const) {
    const res = await call(app, {
      method: 'PATCH',
      url: `/v1/attendees/${id}`,
      token: holderBuyer.token,
      body: { data: { type: 'attendee', id, attributes } },
    });
    t.equal(res.status, 200, `holder ${attributes.firstname} filled in`);
  }
  await moveOrder(app, sale, 'completed', movers);
  const before = smtp.received.length;
  const res = await sendReceipt(holderBuyer.token, { 'order-identifier': sale.identifier });
  t.equal(res.status, 200);
  const mails = (await smtp.waitFor(before + 2)).slice(before);
  t.same(
    mails.flatMap((m) => m.envelope.to).sort(),
    [holderBuyer.email, 'kj@example.org'].sort(),
    'the buyer and the holder with an address',
  );
  t.match(mails[0]!.parsed.attachments[0]!.content.toString('utf8'), 'Katherine Johnson');
});
