/**
 * Mails a client makes the service send (POST /v1/attendees/send-receipt mails the buyer and every
 * attendee address the buyer typed in): at most MAIL_RATE_PER_RECIPIENT to one mailbox (any letter
 * case, `+tags` folded) and MAIL_RATE_PER_IP from one client address per MAIL_RATE_WINDOW_SECONDS.
 * Past either, the request answers 429 with `Retry-After` as a JSON:API error and sends none of its
 * mails (a real SMTP server counts what arrives); parallel requests are counted one after the other;
 * a request larger than the client's whole budget needs all of it. (App builds, which mail their
 * zip, have their own limits: test/appgen/api.test.ts.)
 */
import { readFile } from 'node:fs/promises';
import t, { type Test } from 'tap';
import { assertError, buildTestApp } from '../helpers/app.js';
import { buildWorld, create, rel } from '../helpers/events.js';
import { sellTickets } from '../helpers/orders.js';
import { startSmtp } from '../helpers/smtp.js';
import { ticketAttributes } from '../helpers/ticket-bodies.js';
import { seedUser } from '../helpers/users.js';

const smtp = await startSmtp(t);
const { app } = await buildTestApp(t, {
  SMTP_URL: smtp.url,
  MAIL_RATE_PER_RECIPIENT: '2',
  MAIL_RATE_PER_IP: '7',
  MAIL_RATE_WINDOW_SECONDS: '3600',
});
const world = await buildWorld(app);
const ticketId = await create(
  app,
  world.cast.owner.token,
  'tickets',
  'ticket',
  ticketAttributes({ name: 'Community', quantity: null }),
  { event: rel('event', world.published.event) },
);

let clients = 0;
const nextClient = () => `192.0.2.${++clients}`;
let people = 0;
const someone = () => ({ name: `Person ${++people}`, email: `person${people}@example.org` });

/** A completed order of a free ticket, of a new buyer for these attendees: the buyer's token and the order's identifier. */
async function completedOrder(attendees: { name: string; email: string }[]) {
  const buyer = await seedUser(app);
  const sale = await sellTickets(app, { buyer, organizerToken: world.cast.organizer.token, ticketId, attendees });
  return { buyer, identifier: sale.identifier };
}

async function sendReceipt(token: string, identifier: string, from: string, headers: Record<string, string> = {}) {
  const res = await app.inject({
    method: 'POST',
    url: '/v1/attendees/send-receipt',
    remoteAddress: from,
    headers: { 'content-type': 'application/json', authorization: `JWT ${token}`, ...headers },
    payload: JSON.stringify({ 'order-identifier': identifier }),
  });
  return { status: res.statusCode, headers: res.headers, body: res.json() };
}

type Answer = Awaited<ReturnType<typeof sendReceipt>>;

function assertLimited(t: Test, res: Answer) {
  assertError(
    t,
    res,
    429,
    undefined,
    /^Too many mails to these addresses or from this client address; try again in \d+ seconds$/,
  );
  t.equal(res.body.errors[0].title, 'Too Many Requests');
  const retry = Number(res.headers['retry-after']);
  t.ok(
    Number.isInteger(retry) && retry >= 1 && retry <= 3600,
    `Retry-After ${res.headers['retry-after']} is whole seconds within the window`,
  );
}

const recorded = async () => (await app.sql`select count(*)::int as n from mails`)[0]!.n as number;
/** Every recipient the SMTP server got a message for since `from`. */
const arrivedSince = (from: number) =>
  smtp.received
    .slice(from)
    .flatMap((m) => m.envelope.to)
    .sort();

t.test('per mailbox: the limit+1-th receipt to an address is 429 and sends nothing at all', async (t) => {
  const ada = { name: 'Ada', email: 'ada+tickets@example.org' };
  const grace = { name: 'Grace', email: 'grace@example.org' };
  const { buyer, identifier } = await completedOrder([ada, grace]);
  for (let i = 1; i <= 2; i++) {
    const before = smtp.received.length;
    const res = await sendReceipt(buyer.token, identifier, nextClient());
    t.equal(res.status, 200, `receipt ${i}`);
    t.strictSame(
      arrivedSince(before),
      [ada.email, buyer.email, grace.email].sort(),
      `receipt ${i}: three mails arrived`,
    );
  }
  const [mails, arrived] = [await recorded(), smtp.received.length];
  const third = await sendReceipt(buyer.token, identifier, nextClient(), { origin: 'https://elsewhere.example' });
  assertLimited(t, third);
  t.match(
    String(third.headers['access-control-expose-headers']),
    /Retry-After/i,
    'scripts on any origin can read Retry-After',
  );

  // Another order reaching the same mailbox (another +tag, another letter case) is refused whole:
  // its new attendee gets nothing either.
  const other = await completedOrder([{ name: 'Ada again', email: 'Ada+other@Example.org' }, someone()]);
  assertLimited(t, await sendReceipt(other.buyer.token, other.identifier, nextClient()));
  t.equal(await recorded(), mails, 'no mail recorded for any refused request');
  // Mails are recorded before they are delivered: nothing recorded is nothing on its way.
  t.equal(smtp.received.length, arrived, 'and none arrived');

  const unrelated = await completedOrder([someone()]);
  t.equal(
    (await sendReceipt(unrelated.buyer.token, unrelated.identifier, nextClient())).status,
    200,
    'other addresses are not limited',
  );
});

t.test('per client address: the mails of one address add up, whoever they go to', async (t) => {
  const from = nextClient();
  const orders = [
    await completedOrder([someone(), someone()]),
    await completedOrder([someone(), someone()]),
    await completedOrder([someone(), someone()]),
  ];
  const before = smtp.received.length;
  t.equal((await sendReceipt(orders[0]!.buyer.token, orders[0]!.identifier, from)).status, 200, '3 mails');
  t.equal((await sendReceipt(orders[1]!.buyer.token, orders[1]!.identifier, from)).status, 200, '6 mails');
  const mails = await recorded();
  assertLimited(t, await sendReceipt(orders[2]!.buyer.token, orders[2]!.identifier, from));
  t.equal(await recorded(), mails, '9 would be over 7: nothing recorded');
  t.equal(smtp.received.length - before, 6, 'six mails arrived');

  // Without a trusted proxy, X-Forwarded-For names no other client.
  assertLimited(
    t,
    await sendReceipt(orders[2]!.buyer.token, orders[2]!.identifier, from, { 'x-forwarded-for': '203.0.113.9' }),
  );
  t.equal(
    (await sendReceipt(orders[2]!.buyer.token, orders[2]!.identifier, nextClient())).status,
    200,
    'from another address it is sent',
  );
  t.equal(smtp.received.length - before, 9);
});

t.test('requests in parallel are counted one after the other', async (t) => {
  const attendee = someone();
  const { buyer, identifier } = await completedOrder([attendee]);
  const before = smtp.received.length;
  const answers = await Promise.all(
    Array.from({ length: 5 }, () => sendReceipt(buyer.token, identifier, nextClient())),
  );
  t.strictSame(answers.map((a) => a.status).sort(), [200, 200, 429, 429, 429]);
  for (const a of answers.filter((a) => a.status === 429)) assertLimited(t, a);
  t.strictSame(
    arrivedSince(before),
    [attendee.email, attendee.email, buyer.email, buyer.email].sort(),
    'two receipts each, no more',
  );
});

t.test("an order with more recipients than a client's whole budget takes all of it", async (t) => {
  const from = nextClient();
  const big = await completedOrder(Array.from({ length: 8 }, someone));
  const before = smtp.received.length;
  t.equal(
    (await sendReceipt(big.buyer.token, big.identifier, from)).status,
    200,
    '9 mails from a client with nothing sent yet',
  );
  t.equal(smtp.received.length - before, 9);
  const small = await completedOrder([]);
  assertLimited(t, await sendReceipt(small.buyer.token, small.identifier, from));
});

t.test('the OpenAPI document declares the 429 and its Retry-After', async (t) => {
  const doc = JSON.parse(await readFile(new URL('../../openapi/openapi.json', import.meta.url), 'utf8'));
  const declared = doc.paths['/v1/attendees/send-receipt'].post.responses['429'];
  // Declared once under components/responses when other operations answer the same.
  const limited = declared?.$ref ? doc.components.responses[declared.$ref.split('/').pop()] : declared;
  t.ok(limited, 'declared');
  t.equal(limited?.headers?.['Retry-After']?.schema?.type, 'integer');
});
