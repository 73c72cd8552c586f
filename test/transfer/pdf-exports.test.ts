/**
 * The PDF exports beside the CSV ones (GET|POST /v1/events/{id}/export/{orders,attendees,sessions,speakers}/pdf):
 * started as the CSV exports are ({task_url}), run by the export job to the end, downloaded as application/pdf and
 * read back with pdfjs: the reference's columns, names in any script, the header row on every page of a long list,
 * every row of an event larger than one read of rows. Who may start them, and bad input.
 */
import t from 'tap';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { assertError, buildTestApp, call } from '../helpers/app.js';
import { create, createCast, rel } from '../helpers/events.js';
import { EVENT_NAME, printedEvent, setStatus } from '../helpers/order-documents.js';
import { taskEnded } from '../helpers/service.js';
import { seedUser } from '../helpers/users.js';
import { ROWS_PER_READ } from '../../src/transfer/pdf-tables.js';

const PUBLIC_URL = 'https://api.example.test';
const { app } = await buildTestApp(t, { ROLE: 'all', PUBLIC_URL });
const cast = await createCast(app);
const owner = cast.owner.token;
const printed = await printedEvent(app, cast);
const eventId = printed.event.id;
const of = { event: rel('event', eventId) };
const completed = await printed.order([
  ['vip', 'Ada', 'ada@example.org'],
  ['free', 'Жанна', 'zhanna@example.org'],
]);
await setStatus(app, completed.order.id, 'completed');
const placed = await printed.order([['free', 'Łukasz', 'lukasz@example.org']]);
await setStatus(app, placed.order.id, 'placed');
// Ada checks in at the door (the attendee's check-in member, written by the organizers).
const checkedIn = await call(app, {
  method: 'PATCH',
  url: `/v1/attendees/${completed.holders[0]!.id}`,
  token: owner,
  body: { data: { type: 'attendee', id: completed.holders[0]!.id, attributes: { 'is-checked-in': true } } },
});
if (checkedIn.status !== 200) throw new Error(`check-in: ${JSON.stringify(checkedIn.body)}`);

const track = await create(app, owner, 'tracks', 'track', { name: 'Main Stage', color: '#112233' }, of);
const speaker = await create(
  app,
  owner,
  'speakers',
  'speaker',
  {
    name: 'Zoë Ångström',
    email: 'zoe@example.org',
    organisation: 'Ürban Labs',
    position: 'Lead',
    mobile: '+49 30 1234',
    'short-biography': '<p>Builds <b>bridges</b> &amp; tunnels.</p>',
  },
  of,
);
await create(
  app,
  owner,
  'sessions',
  'session',
  { title: 'Über Brücken', state: 'accepted' },
  { ...of, track: rel('track', track), speakers: { data: [{ type: 'speaker', id: speaker }] } },
);
await create(app, owner, 'sessions', 'session', { title: 'Draft Thoughts', state: 'draft' }, of);

/** Text without its spaces: a long identifier or address wraps within its column. */
const squash = (text: string) => text.replace(/\s+/g, '');

/** The text of each page of a PDF (no rendering: long documents read fast). */
async function pagesOf(bytes: Buffer): Promise<string[]> {
  t.equal(bytes.subarray(0, 5).toString('latin1'), '%PDF-', 'a PDF');
  const document = await getDocument({ data: new Uint8Array(bytes), verbosity: 0, isEvalSupported: false }).promise;
  const pages: string[] = [];
  try {
    for (let n = 1; n <= document.numPages; n++) {
      const page = await document.getPage(n);
      const { width, height } = page.getViewport({ scale: 1 });
      t.ok(width > height, `page ${n} is landscape`);
      const content = await page.getTextContent();
      pages.push(
        content.items
          .map((item) => ('str' in item ? item.str : ''))
          .join(' ')
          .replace(/\s+/g, ' '),
      );
    }
  } finally {
    await document.destroy();
  }
  return pages;
}

/** Starts the export `path` as `token` (GET as the front end's loader, or POST), runs it to its end, downloads it. */
async function exportPdf(path: string, method: 'GET' | 'POST' = 'GET', body?: unknown, token = owner) {
  const started = await call(app, { method, url: `/v1/events/${eventId}/export/${path}`, token, body });
  t.equal(started.status, 200, `${path}: ${JSON.stringify(started.body)}`);
  t.same(Object.keys(started.body), ['task_url'], 'the task URL only, as the CSV exports answer');
  const task = await taskEnded(app, started.body.task_url, token);
  t.equal(task.state, 'SUCCESS', JSON.stringify(task.result));
  const link = new URL(task.result.download_url);
  t.match(link.pathname, new RegExp(`/exports/[0-9a-f-]{36}/${path.replace('/pdf', '')}-event${eventId}\\.pdf$`));
  const res = await app.inject({ method: 'GET', url: link.pathname + link.search });
  t.equal(res.statusCode, 200, 'downloads with its signed link');
  t.equal(res.headers['content-type'], 'application/pdf');
  t.equal(res.headers['cache-control'], 'private, no-store');
  if (process.env.PDF_DUMP)
    (await import('node:fs')).writeFileSync(`/tmp/pdfx-${path.replace('/', '-')}.pdf`, res.rawPayload);
  return { pages: await pagesOf(res.rawPayload), path: link.pathname };
}

t.test('orders: the reference columns, the buyer, the discount code, amounts in the event currency', async (t) => {
  const { pages, path } = await exportPdf('orders/pdf');
  t.equal(pages.length, 1);
  const text = pages[0]!;
  t.match(text, `${EVENT_NAME} - Order List`, 'the title names the event (Unicode)');
  for (const header of [
    'Order Number',
    'Order By',
    'Order Status',
    'Quantity',
    'Total Amount',
    'Payment Mode',
    'Discount Code',
    'Order Date',
    'First Name',
    'Last Name',
    'Email',
  ])
    t.match(text, header, `column ${header}`);
  t.match(squash(text), completed.order.identifier, 'the completed order');
  t.match(squash(text), placed.order.identifier, 'the placed order');
  t.match(text, 'Completed', 'its status as the reference words it');
  t.match(text, 'Payment pending', 'a placed order is not paid yet');
  t.match(text, 'EARLY20', 'the discount code');
  t.match(text, 'EUR 95.20', 'the amount in the event currency');
  t.match(squash(text), completed.buyer.email, "the buyer's address");

  const organizer = await app.inject({
    method: 'GET',
    url: path,
    headers: { authorization: `JWT ${cast.organizer.token}` },
  });
  t.equal(organizer.statusCode, 200, 'an organizer downloads it without the signature');
  t.equal(organizer.headers['content-type'], 'application/pdf');
  const stranger = await call(app, { url: path, token: cast.other.token });
  assertError(t, stranger, 403);
});

t.test('attendees: order, buyer, the attendee form answers, ticket, identifier, check-in status', async (t) => {
  const { pages } = await exportPdf('attendees/pdf', 'POST');
  const text = pages.join(' ');
  t.match(text, `${EVENT_NAME} - Attendee List`);
  for (const header of ['Order Number', 'Order By', 'Attendee', 'Ticket Name', 'Amount', 'Ticket ID', 'Status'])
    t.match(text, header, `column ${header}`);
  t.match(text, 'Жанна Tester', 'Cyrillic names render');
  t.match(text, 'Łukasz Tester', 'Polish names render');
  t.match(text, 'Email: ada@example.org', "the attendee form's answers");
  t.match(squash(text), completed.buyer.email, 'the buyer');
  t.match(text, 'VIP');
  t.match(text, 'Free Ticket', 'the free ticket');
  t.match(text, 'EUR 100.00', 'the price of the paid one');
  t.match(text, /Checked In.*Not Checked In|Not Checked In.*Checked In/, 'check-in status');
  t.match(squash(text), completed.holders[1]!.identifier, "the holder's ticket identifier");
});

t.test('sessions and speakers, with the status filter of the CSV exports', async (t) => {
  const sessions = (await exportPdf('sessions/pdf')).pages.join(' ');
  for (const header of ['Title', 'State', 'Speakers', 'Track', 'Created At', 'Email Sent']) t.match(sessions, header);
  t.match(sessions, 'Über Brücken');
  t.match(sessions, 'Zoë Ångström', 'its speaker');
  t.match(sessions, 'Main Stage', 'its track');
  t.match(sessions, 'Draft Thoughts');
  const accepted = (await exportPdf('sessions/pdf', 'POST', { status: 'accepted' })).pages.join(' ');
  t.notMatch(accepted, 'Draft Thoughts', 'a status keeps the other states out');
  t.match(accepted, 'Über Brücken');

  const speakers = (await exportPdf('speakers/pdf')).pages.join(' ');
  for (const header of ['Name', 'Email', 'Sessions', 'Mobile', 'Short Biography', 'Organisation', 'Position'])
    t.match(speakers, header);
  t.match(speakers, 'Zoë Ångström');
  t.match(speakers, 'Builds bridges & tunnels.', 'the biography without its markup');
  t.match(speakers, 'Ürban Labs');
  const none = (await exportPdf('speakers/pdf', 'POST', { status: 'without_session' })).pages.join(' ');
  t.match(none, 'No speakers.', 'an empty list says so');
});

t.test('a large event: every row, read in pages, the header row on every PDF page', async (t) => {
  const count = ROWS_PER_READ * 2 + 37;
  const big = await create(app, owner, 'events', 'event', {
    name: 'Большой Summit',
    'starts-at': '2030-06-01T09:00:00Z',
    'ends-at': '2030-06-02T17:00:00Z',
    timezone: 'Europe/Berlin',
  });
  const ticket = await create(
    app,
    owner,
    'tickets',
    'ticket',
    { name: 'Day Pass', 'sales-starts-at': '2030-01-01T00:00:00Z', 'sales-ends-at': '2030-05-01T00:00:00Z' },
    { event: rel('event', big) },
  );
  // A thousand holders are not worth a thousand requests: written as the checkout leaves them.
  await app.sql`insert into attendees (event_id, ticket_id, firstname, lastname, email)
    select ${Number(big)}, ${Number(ticket)}, 'Holder' || n, 'Ñandú', 'h' || n || '@example.org'
    from generate_series(1, ${count}) as n`;
  const started = await call(app, { url: `/v1/events/${big}/export/attendees/pdf`, token: owner });
  const task = await taskEnded(app, started.body.task_url, owner);
  t.equal(task.state, 'SUCCESS');
  const link = new URL(task.result.download_url);
  const pages = await pagesOf((await app.inject({ url: link.pathname + link.search })).rawPayload);
  t.ok(pages.length > 10, `${pages.length} pages`);
  pages.forEach((text, i) => t.match(text, 'Order Number Order By', `page ${i + 1} starts with the header row`));
  t.match(pages[0], 'Большой Summit - Attendee List', 'the title on the first page');
  const holders = squash(pages.join(' ')).match(/Holder\d+Ñandú/g) ?? [];
  t.equal(holders.length, count, 'every holder once');
  t.equal(new Set(holders).size, count, 'none twice across the reads');
  t.match(pages.at(-1), `Holder${count} Ñandú`, 'the last holder on the last page');
});

t.test('who starts a PDF export: the organizers and administrators, as for the CSV', async (t) => {
  const registrar = await seedUser(app);
  await app.sql`insert into event_roles (event_id, user_id, role) values (${Number(eventId)}, ${Number(registrar.id)}, 'registrar')`;
  for (const kind of ['orders', 'attendees', 'sessions', 'speakers']) {
    const url = `/v1/events/${eventId}/export/${kind}/pdf`;
    assertError(t, await call(app, { url }), 401);
    assertError(t, await call(app, { url, token: cast.other.token }), 403);
    assertError(t, await call(app, { url, token: registrar.token }), 403);
    for (const token of [cast.organizer.token, cast.admin.token])
      t.equal((await call(app, { method: 'POST', url, token, body: {} })).status, 200, `${kind}: organizer and admin`);
  }
});

t.test('bad input: an unknown event, a state sessions never have, an unknown member', async (t) => {
  assertError(t, await call(app, { url: '/v1/events/999999/export/orders/pdf', token: owner }), 404);
  assertError(
    t,
    await call(app, {
      method: 'POST',
      url: `/v1/events/${eventId}/export/sessions/pdf`,
      token: owner,
      body: { status: 'approved' },
    }),
    422,
    { pointer: '/status' },
  );
  assertError(
    t,
    await call(app, {
      method: 'POST',
      url: `/v1/events/${eventId}/export/speakers/pdf`,
      token: owner,
      body: { format: 'a3' },
    }),
    422,
    { pointer: '/format' },
  );
  const [{ count }] = await app.sql<{ count: number }[]>`select count(*)::int as count from tasks
    where event_id = ${Number(eventId)} and options->>'status' = 'approved'`;
  t.equal(count, 0, 'nothing queued');
});
