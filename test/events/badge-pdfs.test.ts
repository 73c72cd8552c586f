/**
 * Printable badges: one ticket holder's (GET /v1/badge-forms/print-badge-pdf, the reference's print_badge_pdf) and an
 * event's (GET|POST /v1/events/{id}/export/badges/pdf), as background tasks like exports. The badge designs, tickets
 * and holders are made over HTTP as the front end makes them; each print runs to its end and the PDF is read back
 * with pdfjs (names, fields, page sizes) and jsQR (the QR code says the ticket identifier, or a vCard holding it).
 * Who may print (the event's door, registrars included; others find nothing) and bad input.
 */
import sharp from 'sharp';
import t from 'tap';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { assertError, buildTestApp, call } from '../helpers/app.js';
import { create, createCast, createEvent, rel } from '../helpers/events.js';
import { readPdf } from '../helpers/pdf.js';
import { taskEnded } from '../helpers/service.js';
import { createTicket } from '../helpers/tickets.js';
import { seedUser } from '../helpers/users.js';

const { app } = await buildTestApp(t, { ROLE: 'all', PUBLIC_URL: 'https://api.example.test' });
const cast = await createCast(app);
const owner = cast.owner.token;
const event = await createEvent(app, cast, 'Badge Summit Zürich', 'published');
const other = await createEvent(app, cast, 'Elsewhere Conf', 'published');
const registrar = await seedUser(app);
await app.sql`insert into event_roles (event_id, user_id, role)
  values (${Number(event.id)}, ${Number(registrar.id)}, 'registrar')`;
const of = (id = event.id) => ({ event: rel('event', id) });

// Two designs: a speaker badge with a plain QR code, a visitor badge whose QR code is a vCard.
const speakerTicket = await createTicket(app, owner, event.id, { name: 'Speaker', 'badge-id': 'speaker-badge' });
const visitorTicket = await createTicket(app, owner, event.id, { name: 'Visitor', 'badge-id': 'visitor-badge' });
const plainTicket = await createTicket(app, owner, event.id, { name: 'No Badge' });
const speakerForm = await create(
  app,
  owner,
  'badge-forms',
  'badge-form',
  { 'badge-id': 'speaker-badge', 'badge-size': '4 x 6 inch (101.6 x 152.4 mm)', 'badge-color': '#fff4d6' },
  of(),
);
const visitorForm = await create(
  app,
  owner,
  'badge-forms',
  'badge-form',
  { 'badge-id': 'visitor-badge', 'badge-size': '3 x 4 inch (76.2 x 101.6mm )', 'badge-orientation': 'Landscape' },
  of(),
);
/** A badge field of `form` as the front end's badge editor saves it. */
const field = (form: string, badgeId: string, attributes: Record<string, unknown>) =>
  create(
    app,
    owner,
    'badge-field-forms',
    'badge-field-form',
    {
      'badge-id': badgeId,
      'font-size': 14,
      'font-name': 'Arial',
      'font-color': '#000000',
      'text-rotation': 0,
      'margin-top': 2,
      'margin-bottom': 2,
      'margin-left': 0,
      'margin-right': 0,
      'text-alignment': 'center',
      'text-type': 'None',
      'is-deleted': false,
      ...attributes,
    },
    { 'badge-form': rel('badge-form', form) },
  );
await field(speakerForm, 'speaker-badge', { 'custom-field': null, 'sample-text': 'SPEAKER', 'font-size': 20 });
await field(speakerForm, 'speaker-badge', {
  'custom-field': 'First Name',
  'field-identifier': 'firstname',
  'font-size': 28,
  'font-weight': [{ name: 'Bold', font_weight: 'bold' }],
});
await field(speakerForm, 'speaker-badge', { 'custom-field': 'Last Name', 'field-identifier': 'lastname' });
await field(speakerForm, 'speaker-badge', {
  'custom-field': 'Organisation',
  'field-identifier': 'company',
  'text-type': 'Uppercase',
  'font-name': 'Times New Roman',
  'font-weight': [{ name: 'Italic', font_style: 'italic' }],
  'text-rotation': -45,
});
await field(speakerForm, 'speaker-badge', { 'custom-field': 'QR', 'field-identifier': 'QR', 'margin-top': 4 });
// A field the editor removed: not printed.
await field(speakerForm, 'speaker-badge', {
  'custom-field': 'Email',
  'field-identifier': 'email',
  'is-deleted': true,
});
await field(visitorForm, 'visitor-badge', { 'custom-field': 'Name', 'field-identifier': 'name', 'font-size': 18 });
await field(visitorForm, 'visitor-badge', {
  'custom-field': 'QR',
  'field-identifier': 'QR',
  'qr-custom-field': ['firstname', 'lastname', 'email', 'company'],
  'text-alignment': 'left',
});

/** A ticket holder of `ticket` added by the organizers (the door's records need no order). */
const holder = async (ticket: string, attributes: Record<string, unknown>, eventId = event.id) => {
  const id = await create(app, owner, 'attendees', 'attendee', attributes, {
    ...of(eventId),
    ticket: rel('ticket', ticket),
  });
  const [row] = await app.sql<{ identifier: string }[]>`select identifier from attendees where id = ${Number(id)}`;
  return { id, identifier: row!.identifier };
};
const zoe = await holder(speakerTicket, {
  firstname: 'Zoë',
  lastname: 'Ångström',
  email: 'zoe@example.org',
  company: 'Ürban Labs',
});
const zhanna = await holder(visitorTicket, {
  firstname: 'Жанна',
  lastname: 'Петрова',
  email: 'zhanna@example.org',
  company: 'Кофе, Чай; и Ко',
});
const plain = await holder(plainTicket, { firstname: 'Paul', lastname: 'Plain' });
const late = await holder(speakerTicket, { firstname: 'Lena', lastname: 'Late' });
const otherTicket = await createTicket(app, owner, other.id, { name: 'Elsewhere', 'badge-id': 'speaker-badge' });
const stranger = await holder(otherTicket, { firstname: 'Sam', lastname: 'Stranger' }, other.id);

/** The door checks a holder in: the registrar writes the attendee's check-in member. */
async function checkIn(id: string) {
  const res = await call(app, {
    method: 'PATCH',
    url: `/v1/attendees/${id}`,
    token: registrar.token,
    body: { data: { type: 'attendee', id, attributes: { 'is-checked-in': true } } },
  });
  if (res.status !== 200) throw new Error(`check-in: ${res.status} ${JSON.stringify(res.body)}`);
}

/** Page sizes in points, [width, height], of a PDF. */
async function pageSizes(bytes: Buffer): Promise<[number, number][]> {
  const document = await getDocument({ data: new Uint8Array(bytes), verbosity: 0, isEvalSupported: false }).promise;
  try {
    const sizes: [number, number][] = [];
    for (let n = 1; n <= document.numPages; n++) {
      const { width, height } = (await document.getPage(n)).getViewport({ scale: 1 });
      sizes.push([Math.round(width), Math.round(height)]);
    }
    return sizes;
  } finally {
    await document.destroy();
  }
}

/** A print started by `url` as `token` (GET, or POST with `body`), run to its end and downloaded with its link. */
async function printed(url: string, token: string, method: 'GET' | 'POST' = 'GET', body?: unknown) {
  const started = await call(app, { method, url, token, body });
  t.equal(started.status, 200, `${url}: ${JSON.stringify(started.body)}`);
  t.same(Object.keys(started.body), ['task_url'], 'the task URL only');
  const task = await taskEnded(app, started.body.task_url, token);
  t.equal(task.state, 'SUCCESS', JSON.stringify(task.result));
  const link = new URL(task.result.download_url);
  const res = await app.inject({ method: 'GET', url: link.pathname + link.search });
  t.equal(res.statusCode, 200, 'downloads with its signed link');
  t.equal(res.headers['content-type'], 'application/pdf');
  return { bytes: res.rawPayload, path: link.pathname, pages: await readPdf(res.rawPayload) };
}

const badgeOf = (attendee: string, query = '') =>
  `/v1/badge-forms/print-badge-pdf?attendee_id=${attendee}${query ? `&${query}` : ''}`;
const eventBadges = (query = '') => `/v1/events/${event.id}/export/badges/pdf${query ? `?${query}` : ''}`;

t.test('one badge, printed by the registrar: its design, the names, the QR code of the ticket', async (t) => {
  const before = await call(app, { url: `/v1/attendees/${zoe.id}`, token: owner });
  t.equal(before.body.data.attributes['is-badge-printed'], false);
  const { bytes, pages, path } = await printed(badgeOf(zoe.id), registrar.token);
  t.equal(pages.length, 1, 'one badge, one page');
  t.same(await pageSizes(bytes), [[288, 432]], 'the page is the badge: 4 x 6 inch');
  const { text, qr } = pages[0]!;
  t.match(text, 'SPEAKER', 'a fixed text prints its sample text');
  t.match(text, 'Zoë', 'the first name');
  t.match(text, 'Ångström', 'the last name');
  t.match(text, 'ÜRBAN LABS', 'the organisation in upper case');
  t.notMatch(text, 'zoe@example.org', 'a field the editor removed is left out');
  t.equal(qr, zoe.identifier, "the QR code is the ticket's identifier, as on the ticket PDF");
  t.match(path, new RegExp(`/badge-event${event.id}\\.pdf$`));

  const after = await call(app, { url: `/v1/attendees/${zoe.id}`, token: owner });
  t.equal(after.body.data.attributes['is-badge-printed'], true, 'the holder is marked printed');
  t.ok(Date.parse(after.body.data.attributes['badge-printed-at']) > Date.now() - 60_000, 'just now');

  // Without the signature: for those who run the door, registrars included; others find nothing.
  const unsigned = await app.inject({ url: path, headers: { authorization: `JWT ${registrar.token}` } });
  t.equal(unsigned.statusCode, 200, 'the registrar downloads it with a token');
  t.equal(unsigned.headers['content-type'], 'application/pdf');
  assertError(t, await call(app, { url: path, token: cast.other.token }), 404);
});

t.test('list_field_show prints the fields named, the others blank; a4 puts the badge on A4', async (t) => {
  const { pages, bytes } = await printed(badgeOf(zoe.id, "list_field_show='firstname, company'&page_size=a4"), owner);
  const { text, qr } = pages[0]!;
  t.match(text, 'Zoë');
  t.match(text, 'ÜRBAN LABS');
  t.notMatch(text, 'Ångström', 'the last name is not in the list');
  t.match(text, 'SPEAKER', 'fixed texts print');
  t.equal(qr, zoe.identifier, 'the QR code prints');
  t.same(await pageSizes(bytes), [[842, 595]], 'A4, turned to hold two 4 x 6 inch badges');
});

t.test('a QR code listing fields is a vCard holding the ticket identifier', async (t) => {
  const { pages, bytes } = await printed(badgeOf(zhanna.id), cast.coorganizer.token);
  t.same(await pageSizes(bytes), [[288, 216]], '3 x 4 inch, landscape');
  t.match(pages[0]!.text, 'Жанна Петрова', 'Cyrillic names render');
  const vcard = pages[0]!.qr ?? '';
  t.match(vcard, /^BEGIN:VCARD\r\nVERSION:3\.0\r\n/);
  t.match(vcard, `X-SOCIALPROFILE;TYPE=EVENTYAY:${zhanna.identifier}`, 'the ticket identifier');
  t.match(vcard, 'FN:Жанна Петрова');
  t.match(vcard, 'N:Петрова;Жанна;;;');
  t.match(vcard, 'EMAIL:zhanna@example.org');
  t.match(vcard, 'ORG:Кофе\\, Чай\\; и Ко', 'commas and semicolons escaped');
  t.match(vcard, /END:VCARD$/);
});

t.test("the event's badges: checked in by default, label or A4, the holders without a badge left out", async (t) => {
  const none = await call(app, { url: eventBadges(), token: registrar.token });
  assertError(t, none, 422, { parameter: 'checked_in' }, /checked in/);
  for (const id of [zoe.id, zhanna.id, plain.id]) await checkIn(id);

  const labels = await printed(eventBadges('page_size=label'), registrar.token);
  t.equal(labels.pages.length, 2, "one page per badge; Paul's ticket has no badge");
  t.same(
    labels.pages.map(
      (p) =>
        p.qr
          ?.split('\r\n')
          .find((l) => l.includes('EVENTYAY'))
          ?.split(':')[1] ?? p.qr,
    ),
    [zoe.identifier, zhanna.identifier],
    'in the order the holders were added, each with their QR code',
  );
  t.notMatch(labels.pages.map((p) => p.text).join(' '), 'Lena', 'Lena is not checked in');

  const sheet = await printed(eventBadges(), registrar.token);
  t.equal(sheet.pages.length, 2, 'A4 by default: a page for each badge size');
  t.match(sheet.pages[0]!.text, 'Zoë');
  t.match(sheet.pages[1]!.text, 'Жанна');

  const all = await printed(eventBadges(), owner, 'POST', { checked_in: 'all', page_size: 'label' });
  t.equal(all.pages.length, 3, 'all: Lena too');
  t.match(all.pages.map((p) => p.text).join(' '), 'Lena');
  const notYet = await printed(eventBadges(), owner, 'POST', { checked_in: false, page_size: 'label' });
  t.equal(notYet.pages.length, 1, 'those not checked in: Lena alone');
  t.match(notYet.pages[0]!.text, 'Lena');

  const [{ count }] = await app.sql<{ count: number }[]>`select count(*)::int as count from attendees
    where event_id = ${Number(event.id)} and is_badge_printed and badge_printed_at is not null`;
  t.equal(count, 3, 'every holder printed is marked; Paul is not');
});

t.test('a large print: the holders are read in pages, every badge once', async (t) => {
  const big = await createEvent(app, cast, 'Crowd Conf', 'published');
  const ticket = await createTicket(app, owner, big.id, { name: 'Crowd', 'badge-id': 'crowd' });
  const form = await create(
    app,
    owner,
    'badge-forms',
    'badge-form',
    { 'badge-id': 'crowd', 'badge-size': '3 x 4 inch (76.2 x 101.6mm )' },
    of(big.id),
  );
  await create(
    app,
    owner,
    'badge-field-forms',
    'badge-field-form',
    { 'badge-id': 'crowd', 'field-identifier': 'firstname', 'font-size': 16 },
    { 'badge-form': rel('badge-form', form) },
  );
  // Checked-in holders as the door leaves them: more than one read of holders (200).
  await app.sql`insert into attendees (event_id, ticket_id, firstname, is_checked_in)
    select ${Number(big.id)}, ${Number(ticket)}, 'Guest' || n, true from generate_series(1, 450) as n`;
  const started = await call(app, { url: `/v1/events/${big.id}/export/badges/pdf`, token: owner });
  const task = await taskEnded(app, started.body.task_url, owner);
  t.equal(task.state, 'SUCCESS');
  const link = new URL(task.result.download_url);
  const bytes = (await app.inject({ url: link.pathname + link.search })).rawPayload;
  const sizes = await pageSizes(bytes);
  t.equal(sizes.length, Math.ceil(450 / 4), 'four 3 x 4 inch badges on each A4 page');
  const document = await getDocument({ data: new Uint8Array(bytes), verbosity: 0, isEvalSupported: false }).promise;
  const names: string[] = [];
  for (let n = 1; n <= document.numPages; n++)
    for (const item of (await (await document.getPage(n)).getTextContent()).items)
      if ('str' in item && item.str.startsWith('Guest')) names.push(item.str);
  await document.destroy();
  t.equal(names.length, 450, 'every badge');
  t.equal(new Set(names).size, 450, 'none twice');
});

t.test(
  'a background image: read from our storage, drawn behind the badge; one that cannot be had is left out',
  async (t) => {
    const png = await sharp({ create: { width: 60, height: 90, channels: 3, background: '#d62828' } })
      .png()
      .toBuffer();
    const uploaded = await app.inject({
      method: 'POST',
      url: '/v1/upload/image',
      headers: { authorization: `JWT ${owner}`, 'content-type': 'application/json' },
      payload: { data: `data:image/png;base64,${png.toString('base64')}` },
    });
    t.equal(uploaded.statusCode, 200, uploaded.body);
    const ticket = await createTicket(app, owner, event.id, { name: 'Painted', 'badge-id': 'painted' });
    const form = await create(
      app,
      owner,
      'badge-forms',
      'badge-form',
      { 'badge-id': 'painted', 'badge-image-url': uploaded.json().url },
      of(),
    );
    await field(form, 'painted', { 'field-identifier': 'firstname', 'font-color': '#ffffff' });
    const painted = await holder(ticket, { firstname: 'Pia' });
    const { bytes, pages } = await printed(badgeOf(painted.id), owner);
    t.match(pages[0]!.text, 'Pia');
    t.match(bytes.toString('latin1'), '/Subtype /Image', 'the image is in the PDF');

    // An address the service may not fetch (loopback): the badge prints without it.
    const patched = await call(app, {
      method: 'PATCH',
      url: `/v1/badge-forms/${form}`,
      token: owner,
      body: { data: { type: 'badge-form', id: form, attributes: { 'badge-image-url': 'http://127.0.0.1:9/bg.png' } } },
    });
    t.equal(patched.status, 200);
    const plainOne = await printed(badgeOf(painted.id), owner);
    t.match(plainOne.pages[0]!.text, 'Pia');
    t.notMatch(plainOne.bytes.toString('latin1'), '/Subtype /Image', 'no image');
  },
);

t.test('who prints: the door (owner, organizers, coorganizers, registrars, administrators); others 404', async (t) => {
  for (const url of [badgeOf(zoe.id), eventBadges()]) {
    assertError(t, await call(app, { url }), 401);
    assertError(t, await call(app, { url, token: cast.other.token }), 404);
    assertError(t, await call(app, { url, token: cast.speaker.token }), 404);
    for (const token of [owner, cast.organizer.token, cast.coorganizer.token, registrar.token, cast.admin.token])
      t.equal((await call(app, { url, token })).status, 200, `${url}: the door`);
  }
  assertError(t, await call(app, { method: 'POST', url: eventBadges(), token: cast.other.token, body: {} }), 404);
  const bare = await call(app, { method: 'POST', url: eventBadges(), token: registrar.token });
  t.equal(bare.status, 200, `a POST without a body takes the defaults: ${JSON.stringify(bare.body)}`);
  assertError(t, await call(app, { method: 'POST', url: eventBadges() }), 401);
});

t.test('bad input: JSON:API errors, nothing queued', async (t) => {
  const [{ before }] = await app.sql<{ before: number }[]>`select count(*)::int as before from tasks`;
  const token = registrar.token;
  assertError(t, await call(app, { url: '/v1/badge-forms/print-badge-pdf', token }), 400, {
    parameter: 'attendee_id',
  });
  assertError(t, await call(app, { url: badgeOf('abc'), token }), 422, { parameter: 'attendee_id' });
  assertError(t, await call(app, { url: badgeOf('999999'), token }), 404, undefined, 'Attendee not found');
  assertError(t, await call(app, { url: badgeOf(stranger.id), token }), 404, undefined, 'Attendee not found');
  assertError(
    t,
    await call(app, { url: badgeOf(plain.id), token }),
    422,
    { parameter: 'attendee_id' },
    /no badge form/,
  );
  assertError(t, await call(app, { url: badgeOf(zoe.id, 'page_size=poster'), token }), 400, { parameter: 'page_size' });
  assertError(t, await call(app, { url: badgeOf(zoe.id, 'colour=red'), token }), 400, { parameter: 'colour' });
  assertError(t, await call(app, { url: eventBadges('page_size=a3'), token }), 400, { parameter: 'page_size' });
  assertError(t, await call(app, { url: eventBadges('checked_in=maybe'), token }), 400, { parameter: 'checked_in' });
  assertError(t, await call(app, { url: '/v1/events/999999/export/badges/pdf', token }), 404);
  const post = (body: unknown) => call(app, { method: 'POST', url: eventBadges(), token, body });
  assertError(t, await post({ page_size: 'poster' }), 422, { pointer: '/page_size' });
  assertError(t, await post({ checked_in: 'yes' }), 422, { pointer: '/checked_in' });
  assertError(t, await post({ copies: 2 }), 422, { pointer: '/copies' });
  // A holder deleted: not found.
  await app.sql`update attendees set deleted_at = now() where id = ${Number(late.id)}`;
  assertError(t, await call(app, { url: badgeOf(late.id), token }), 404);
  const [{ after }] = await app.sql<{ after: number }[]>`select count(*)::int as after from tasks`;
  t.equal(after, before, 'nothing queued');
});
