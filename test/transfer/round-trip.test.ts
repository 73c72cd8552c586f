/**
 * Round trip: a rich event (every record kind, relationships, media of every flag) exported with all
 * four flags, downloaded, imported as a new event, and compared record by record through the API.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import AdmZip from 'adm-zip';
import t, { type Test } from 'tap';
import { buildTestApp, call, until } from '../helpers/app.js';
import { create, createCast, rel } from '../helpers/events.js';
import { makeImage, multipart, uploadImage } from '../helpers/images.js';
import { startSmtp } from '../helpers/smtp.js';
import { seedUser } from '../helpers/users.js';

type Doc = {
  id: string;
  type: string;
  attributes: Record<string, unknown>;
  relationships?: Record<string, { data?: unknown }>;
};

// Session media (slides, audio, video) served by a plain http server on loopback.
const served = new Map<string, { bytes: Buffer; type: string }>();
const media = createServer((req, res) => {
  const file = served.get(req.url ?? '');
  if (!file) return void res.writeHead(404).end();
  res.writeHead(200, { 'content-type': file.type, 'content-length': file.bytes.length }).end(file.bytes);
});
await new Promise<void>((resolve) => media.listen(0, '127.0.0.1', resolve));
t.teardown(() => new Promise<void>((resolve) => media.close(() => resolve())));
const mediaUrl = (path: string, type: string, bytes = randomBytes(2048 + served.size)) => {
  served.set(path, { bytes, type });
  return `http://127.0.0.1:${(media.address() as AddressInfo).port}${path}`;
};

const smtp = await startSmtp(t);
const PUBLIC_URL = 'https://api.example.test';
const { app } = await buildTestApp(t, { ROLE: 'all', FETCH_ALLOW_PRIVATE: 'true', SMTP_URL: smtp.url, PUBLIC_URL });
const cast = await createCast(app);
const importer = await seedUser(app);
const owner = cast.owner.token;
const topic = await create(app, cast.admin.token, 'event-topics', 'event-topic', { name: 'Science & Technology' });
const eventType = await create(app, cast.admin.token, 'event-types', 'event-type', { name: 'Conference' });
const subTopic = await create(
  app,
  cast.admin.token,
  'event-sub-topics',
  'event-sub-topic',
  { name: 'Open Source' },
  { 'event-topic': rel('event-topic', topic) },
);

/** Bytes behind a media URL: our own storage through the app, the loopback server's from its map. */
async function bytesOf(url: string): Promise<Buffer> {
  const u = new URL(url);
  if (u.hostname === '127.0.0.1') return served.get(u.pathname)!.bytes;
  const res = await app.inject({ method: 'GET', url: u.pathname });
  if (res.statusCode !== 200) throw new Error(`GET ${url}: ${res.statusCode}`);
  return res.rawPayload;
}

// ---- the rich event ----
const images = {
  logo: await makeImage('png', 80, 40),
  original: await makeImage('jpeg', 640, 360),
  photos: [await makeImage('png', 60, 60), await makeImage('jpeg', 70, 90), await makeImage('webp', 50, 50)],
  sponsors: [await makeImage('png', 90, 30), await makeImage('gif', 40, 40)],
};
const event = await create(
  app,
  owner,
  'events',
  'event',
  {
    name: 'Rich Summit 2030',
    'starts-at': '2030-05-01T09:00:00Z',
    'ends-at': '2030-05-03T18:00:00Z',
    timezone: 'Europe/Berlin',
    state: 'published',
    description: '<p>Three days of <b>open</b> source.</p>',
    'location-name': 'Kulturbrauerei, Berlin',
    latitude: 52.5389,
    longitude: 13.4135,
    'logo-url': await uploadImage(app, owner, images.logo, 'png'),
    'original-image-url': await uploadImage(app, owner, images.original, 'jpeg'),
    'external-event-url': 'https://summit.example.org/2030',
    'ticket-url': 'https://tickets.example.org/summit',
    privacy: 'private',
    'code-of-conduct': 'Be excellent to each other.',
    // The Open Event front end's settings of an event (open-event-frontend:app/models/event.js:29-110).
    online: true,
    'searchable-location-name': 'Berlin',
    'public-stream-link': 'https://stream.example.org/summit',
    'stream-autoplay': true,
    'is-map-shown': false,
    'is-sessions-speakers-enabled': true,
    'is-document-enabled': true,
    'document-links': [{ name: 'Venue map', link: 'https://summit.example.org/map.pdf' }],
    'can-pay-by-bank': true,
    'bank-details': 'IBAN DE00 0000 0000 0000',
    'payment-country': 'Germany',
    'payment-currency': 'EUR',
    'paypal-email': 'pay@summit.example.org',
    'refund-policy': 'Refunds until a week before.',
    'schedule-published-on': '2030-04-01T10:00:00.000Z',
    'has-owner-info': true,
    'owner-name': 'Summit e.V.',
    'owner-description': 'We run the summit.',
    'after-order-message': 'See you in Berlin!',
  },
  {
    'event-topic': rel('event-topic', topic),
    'event-type': rel('event-type', eventType),
    'event-sub-topic': rel('event-sub-topic', subTopic),
    organizers: { data: [{ type: 'user', id: cast.organizer.id }] },
    coorganizers: { data: [{ type: 'user', id: cast.coorganizer.id }] },
  },
);
const of = { event: rel('event', event) };
const make = (path: string, type: string, attrs: Record<string, unknown>, more: Record<string, unknown> = {}) =>
  create(app, owner, path, type, attrs, { ...of, ...more });
await create(
  app,
  owner,
  'event-copyrights',
  'event-copyright',
  { holder: 'FOSSASIA', licence: 'CC BY 4.0', year: 2024 },
  of,
);
for (const [i, name] of ['Website', 'Mastodon', 'Video channel'].entries()) {
  await make('social-links', 'social-link', {
    name,
    link: `https://links.example.org/${i}`,
    identifier: i ? `handle-${i}` : null,
  });
}
for (const [i, form] of (['speaker', 'session', 'attendee'] as const).entries()) {
  await make('custom-forms', 'custom_form', {
    form,
    'field-identifier': `field${i}`,
    type: ['text', 'select', 'email'][i],
    name: `Field ${i}`,
    description: `About field ${i}`,
    'is-required': i === 0,
    'is-included': true,
    'is-fixed': i === 2,
    'is-public': i === 1,
    position: i + 1,
  });
}
const rooms: string[] = [];
for (let i = 0; i < 3; i++) {
  rooms.push(
    await make('microlocations', 'microlocation', {
      name: `Room ${i}`,
      latitude: 52.5 + i / 100,
      longitude: 13.4 - i / 100,
      floor: i - 1,
      room: `R${i}0${i}`,
      position: i,
      'hidden-in-scheduler': i === 2,
    }),
  );
}
for (const [i, logo] of [...images.sponsors, undefined].entries()) {
  await make('sponsors', 'sponsor', {
    name: `Sponsor ${i}`,
    description: `Sponsor number ${i}`,
    url: `https://sponsor${i}.example.com`,
    level: i + 1,
    type: ['Gold', 'Silver', 'Bronze'][i],
    'logo-url': logo ? await uploadImage(app, owner, logo, i ? 'gif' : 'png') : null,
  });
}
const speakers: string[] = [];
for (let i = 0; i < 4; i++) {
  const photo = images.photos[i];
  speakers.push(
    await make(
      'speakers',
      'speaker',
      {
        name: `Speaker ${i}`,
        email: `speaker${i}@example.org`,
        mobile: `+49 30 00${i}`,
        'photo-url': photo ? await uploadImage(app, owner, photo, ['png', 'jpeg', 'webp'][i]!) : null,
        'short-biography': `Short bio ${i}`,
        'long-biography': `<p>Long bio ${i}</p>`,
        'speaking-experience': `${i} talks`,
        website: `https://speaker${i}.example.org`,
        twitter: `https://twitter.com/s${i}`,
        facebook: `https://facebook.com/s${i}`,
        github: `https://github.com/s${i}`,
        linkedin: `https://linkedin.com/in/s${i}`,
        instagram: i ? null : 'https://instagram.com/s0',
        mastodon: `https://mastodon.social/@s${i}`,
        organisation: `Org ${i}`,
        'is-featured': i % 2 === 0,
        position: `Engineer ${i}`,
        country: 'Germany',
        city: ['Berlin', 'Hamburg', 'Munich', 'Cologne'][i],
        gender: i % 2 ? 'female' : 'male',
        'heard-from': 'Mailing list',
        'sponsorship-required': i === 3 ? 'Travel' : null,
      },
      i === 0 ? { user: rel('user', cast.speaker.id) } : {},
    ),
  );
}
const tracks: string[] = [];
for (const [i, color] of ['#a04b23', '#F0E68C', '#123456'].entries()) {
  tracks.push(
    await make('tracks', 'track', { name: `Track ${i}`, color, description: `Track about ${i}`, position: 3 - i }),
  );
}
const types: string[] = [];
for (const [i, length] of ['00:15', '00:45', '01:30'].entries()) {
  types.push(await make('session-types', 'session-type', { name: `Type ${i}`, length, position: i }));
}
const sessionSpeakers = [[0], [1, 2], [0, 2, 3], []];
for (let i = 0; i < 4; i++) {
  const links =
    i === 3
      ? {}
      : {
          track: rel('track', tracks[i]!),
          microlocation: rel('microlocation', rooms[2 - i]!),
          'session-type': rel('session-type', types[i]!),
        };
  await make(
    'sessions',
    'session',
    {
      title: `Session ${i}`,
      subtitle: `Sub ${i}`,
      level: 'Beginner',
      'short-abstract': `Short ${i}`,
      'long-abstract': `<p>Long ${i}</p>`,
      comments: `Comment ${i}`,
      'starts-at': `2030-05-0${i + 1}T10:00:00Z`,
      'ends-at': `2030-05-0${i + 1}T11:00:00Z`,
      language: 'English',
      'slides-url': i < 3 ? mediaUrl(`/files/slides${i}.pdf`, 'application/pdf') : null,
      'audio-url': i < 2 ? mediaUrl(`/files/audio${i}.mp3`, 'audio/mpeg') : null,
      'video-url': i !== 1 ? mediaUrl(`/files/video${i}.mp4`, 'video/mp4') : null,
      'signup-url': `https://signup.example.org/${i}`,
      state: ['accepted', 'confirmed', 'draft', 'submitted'][i],
      'submitted-at': i === 3 ? '2030-04-01T08:00:00Z' : null,
    },
    { ...links, speakers: { data: sessionSpeakers[i]!.map((s) => ({ type: 'speaker', id: speakers[s]! })) } },
  );
}

for (const [i, type] of (['free', 'paid', 'donation'] as const).entries()) {
  await make('tickets', 'ticket', {
    name: `Ticket ${i}`,
    type,
    description: `Ticket number ${i}`,
    price: type === 'paid' ? 49.5 : null,
    quantity: 100 + i,
    'min-order': 1,
    'max-order': 5 + i,
    'min-price': type === 'donation' ? 5 : null,
    'max-price': type === 'donation' ? 500 : null,
    position: i,
    'is-description-visible': i !== 1,
    'is-hidden': i === 2,
    'is-fee-absorbed': i === 0,
    'sales-starts-at': `2030-0${i + 1}-01T00:00:00Z`,
    'sales-ends-at': '2030-04-30T00:00:00Z',
    'form-id': `form${i}`,
    'badge-id': i ? null : 'badge0',
  });
}
await make('taxes', 'tax', {
  name: 'VAT',
  rate: 19,
  'tax-id': 'DE123456789',
  country: 'DE',
  'registered-company': 'Summit GmbH',
  'contact-name': 'Ann',
  email: 'tax@example.org',
  phone: '+49 30 1',
  address: 'Str. 1',
  city: 'Berlin',
  state: 'Berlin',
  zip: '10115',
  'invoice-footer': 'Thanks',
  'should-send-invoice': true,
  'is-invoice-sent': false,
  'is-tax-included-in-price': true,
});
await make('speakers-calls', 'speakers-call', {
  announcement: '<p>Send us talks</p>',
  'starts-at': '2030-01-01T00:00:00Z',
  'soft-ends-at': '2030-02-15T00:00:00Z',
  'ends-at': '2030-03-01T00:00:00Z',
  privacy: 'private',
  hash: 'b1946ac9-2e7f-4a3f-9d8e-1f2a3b4c5d6e',
});

// ---- reading an event back through the API ----
const KINDS: [path: string, include: string][] = [
  ['social-links', ''],
  ['custom-forms', ''],
  ['microlocations', ''],
  ['sponsors', ''],
  ['speakers', 'user,sessions'],
  ['tracks', 'sessions'],
  ['session-types', 'sessions'],
  ['sessions', 'track,microlocation,session-type,speakers,creator'],
  ['tickets', ''],
];
async function readEvent(id: string, token: string) {
  const res = await call(app, { url: `/v1/events/${id}?include=event-topic,event-copyright,owner`, token });
  if (res.status !== 200) throw new Error(`GET event ${id}: ${res.status}`);
  const lists: Record<string, Doc[]> = {};
  for (const [path, include] of KINDS) {
    const list = await call(app, {
      url: `/v1/events/${id}/${path}?page[size]=100${include ? `&include=${include}` : ''}`,
      token,
    });
    if (list.status !== 200) throw new Error(`GET ${path}: ${list.status}`);
    lists[path] = (list.body.data as Doc[]).sort((a, b) => Number(a.id) - Number(b.id));
  }
  return { event: res.body.data as Doc, lists };
}
const relIds = (doc: Doc, name: string) => {
  const data = doc.relationships?.[name]?.data;
  return Array.isArray(data)
    ? data.map((d: { id: string }) => d.id).sort((a, b) => Number(a) - Number(b))
    : ((data as { id?: string } | null)?.id ?? null);
};
/** Both variants of every image made (the variants job runs after the create). */
const variantsDone = (doc: Doc, source: string, variants: string[]) =>
  doc.attributes[source] === null || variants.every((v) => doc.attributes[v] !== null);
const VARIANTS = {
  event: ['large-image-url', 'thumbnail-image-url', 'icon-image-url'],
  speaker: ['thumbnail-image-url', 'small-image-url', 'icon-image-url'],
};
async function readSettled(id: string, token: string) {
  return until('image variants', async () => {
    const read = await readEvent(id, token);
    const ready =
      variantsDone(read.event, 'original-image-url', VARIANTS.event) &&
      read.lists.speakers!.every((s) => variantsDone(s, 'photo-url', VARIANTS.speaker));
    return ready ? read : undefined;
  });
}

const task = async (url: string, token: string) =>
  until(`task ${url}`, async () => {
    const res = await call(app, { url, token });
    return res.body.state === 'WAITING' ? undefined : res.body;
  });

t.test('export with all flags, download, import, and the new event equals the old one', async (t) => {
  const before = await readSettled(event, owner);
  const ev = before.event.attributes;

  // ---- export ----
  const started = await call(app, {
    method: 'POST',
    url: `/v1/events/${event}/export/json`,
    token: owner,
    headers: { 'content-type': 'application/json' },
    body: { image: true, video: true, audio: true, document: true },
  });
  t.equal(started.status, 200);
  const exported = await task(started.body.task_url, owner);
  t.match(exported, {
    state: 'SUCCESS',
    result: {
      download_url: new RegExp(
        `/v1/events/${event}/exports/[0-9a-f-]{36}/event${event}\\.zip\\?expires=\\d+&signature=[0-9a-f]{64}$`,
      ),
    },
  });
  const download = await app.inject({
    method: 'GET',
    url: new URL(exported.result.download_url).pathname,
    headers: { authorization: `JWT ${owner}` },
  });
  t.equal(download.statusCode, 200, 'the archive downloads');
  t.equal(download.headers['content-type'], 'application/zip');
  const zip = new AdmZip(download.rawPayload);
  const entry = (name: string) => zip.getEntry(name)?.getData();
  const json = (name: string) => JSON.parse(entry(name)!.toString('utf8'));

  // Media in the archive, byte for byte, and the fields pointing at them.
  const eventJson = json('event.json');
  t.equal(eventJson.logo_url, 'images/logo.png');
  t.equal(eventJson.original_image_url, 'images/original_image.jpeg');
  t.ok(entry('images/logo.png')?.equals(images.logo), 'logo bytes');
  t.ok(entry('images/original_image.jpeg')?.equals(images.original), 'event image bytes');
  const mediaChecks: [string, string, string, Doc[]][] = [
    ['speakers.json', 'photo_url', 'photo-url', before.lists.speakers!],
    ['sponsors.json', 'logo_url', 'logo-url', before.lists.sponsors!],
    ['sessions.json', 'slides_url', 'slides-url', before.lists.sessions!],
    ['sessions.json', 'audio_url', 'audio-url', before.lists.sessions!],
    ['sessions.json', 'video_url', 'video-url', before.lists.sessions!],
  ];
  let files = 2;
  for (const [file, field, attr, docs] of mediaChecks) {
    const records = json(file) as Record<string, unknown>[];
    for (const [i, doc] of docs.entries()) {
      const path = records[i]![field];
      const url = doc.attributes[attr] as string | null;
      if (url === null) {
        t.equal(path, null, `${file} #${i} ${field} stays null`);
        continue;
      }
      const folder = {
        photo_url: 'images/speakers/',
        logo_url: 'images/sponsors/',
        slides_url: 'slides/',
        audio_url: 'audio/',
        video_url: 'video/',
      }[field]!;
      t.ok(
        typeof path === 'string' && path.startsWith(folder) && !path.includes('://'),
        `${file} #${i} ${field} is an archive path: ${String(path)}`,
      );
      t.ok(entry(path as string)?.equals(await bytesOf(url)), `${path}: the original bytes`);
      files++;
    }
  }
  t.equal(zip.getEntries().filter((e) => !e.entryName.endsWith('.json')).length, files, 'no other media entries');

  // ---- import ----
  const form = multipart([['file', `event${event}.zip`, download.rawPayload]]);
  const res = await app.inject({
    method: 'POST',
    url: '/v1/events/import/json',
    payload: form.payload,
    headers: { ...form.headers, authorization: `JWT ${importer.token}` },
  });
  t.equal(res.statusCode, 200, res.body);
  const imported = await task(res.json().task_url, importer.token);
  t.match(imported, { state: 'SUCCESS', result: { event_name: 'Rich Summit 2030', id: /^\d+$/ } });
  t.strictSame(
    imported.result.warnings,
    { total: 0, items: [] },
    'an archive of this service imports without a warning',
  );
  const fresh = imported.result.id as string;
  t.not(fresh, event, 'a new event');
  const after = await readSettled(fresh, importer.token);
  const nv = after.event.attributes;
  t.match(nv.identifier, /^[a-z][a-z0-9]{7}$/);
  t.not(nv.identifier, ev.identifier, 'a new identifier');
  const [site] = await app.sql<{ frontend_url: string | null }[]>`select frontend_url from settings where id = 1`;
  t.equal(imported.result.url, `${site!.frontend_url ?? PUBLIC_URL}/e/${nv.identifier}`, 'task result url');

  /**
   * Compares one record: every attribute equal, except ids, identifier and created-at (new), the schedule URLs
   * (named by the new identifier, checked below); media URLs
   * (new storage URLs, bytes equal to the originals); image variants, made anew by the variants job from
   * the same bytes and settings: different URLs, the same bytes.
   */
  async function same(t: Test, label: string, old: Doc, now: Doc, mediaAttrs: string[], variants: string[] = []) {
    t.same(Object.keys(now.attributes).sort(), Object.keys(old.attributes).sort(), `${label}: the same attributes`);
    for (const [key, value] of Object.entries(old.attributes)) {
      const got = now.attributes[key];
      if (['identifier', 'created-at', 'last-modified-at'].includes(key)) continue;
      if (key.endsWith('-url') && typeof value === 'string' && value.includes('/schedule.')) {
        t.equal(
          got,
          value.replace(`/${old.attributes.identifier}/`, `/${now.attributes.identifier}/`),
          `${label} ${key}`,
        );
        continue;
      }
      if ((mediaAttrs.includes(key) || variants.includes(key)) && value !== null) {
        t.type(got, 'string', `${label} ${key} set`);
        t.not(got, value, `${label} ${key}: a new URL`);
        if (mediaAttrs.includes(key))
          t.match(
            got,
            /\/static\/media\/imports\/media\/[0-9a-f]+\.[a-z0-9]+$/,
            `${label} ${key}: stored by the import`,
          );
        t.ok((await bytesOf(got as string)).equals(await bytesOf(value as string)), `${label} ${key}: the same bytes`);
      } else t.same(got, value, `${label} ${key}`);
    }
  }
  await same(t, 'event', before.event, after.event, ['logo-url', 'original-image-url'], VARIANTS.event);
  t.same(relIds(after.event, 'event-topic'), topic, 'event topic kept (it exists here)');
  t.same(
    [relIds(after.event, 'event-type'), relIds(after.event, 'event-sub-topic')],
    [eventType, subTopic],
    'event type and sub-topic kept',
  );
  t.same(relIds(after.event, 'owner'), importer.id, 'owner is the importer');
  t.same(relIds(before.event, 'owner'), cast.owner.id);
  t.same(relIds(before.lists.sessions![1]!, 'microlocation'), rooms[1], 'the old sessions have their links');
  // User references are not carried over: no roles.
  const roles = async (id: string, name: string, token: string) =>
    ((await call(app, { url: `/v1/events/${id}/relationships/${name}`, token })).body.data as { id: string }[]).map(
      (u) => u.id,
    );
  t.same(
    [await roles(event, 'organizers', owner), await roles(event, 'coorganizers', owner)],
    [[cast.organizer.id], [cast.coorganizer.id]],
    'old roles',
  );
  t.same(
    [await roles(fresh, 'organizers', importer.token), await roles(fresh, 'coorganizers', importer.token)],
    [[], []],
    'no roles on the new event',
  );
  const copyrightOf = async (id: string, token: string) =>
    (await call(app, { url: `/v1/events/${id}/event-copyright`, token })).body.data as Doc;
  const [oldCopyright, newCopyright] = [await copyrightOf(event, owner), await copyrightOf(fresh, importer.token)];
  t.not(newCopyright.id, oldCopyright.id, 'a new copyright record');
  t.strictSame(newCopyright.attributes, oldCopyright.attributes, 'the copyright, carried over');
  for (const one of ['tax', 'speakers-call']) {
    const read = async (id: string, token: string) =>
      (await call(app, { url: `/v1/events/${id}/${one}`, token })).body.data as Doc;
    const [old, now] = [await read(event, owner), await read(fresh, importer.token)];
    t.ok(old && now && now.id !== old.id, `${one}: a new record`);
    t.strictSame(now.attributes, old.attributes, `${one}: carried over, private members too`);
  }
  t.equal(json('tickets.json').length, 3, 'tickets.json holds every ticket, the hidden one too');

  // Old id -> new id of every record, by position (both events' records in ascending id order).
  const map = new Map<string, string>();
  for (const [path] of KINDS) {
    const olds = before.lists[path]!;
    const news = after.lists[path]!;
    t.equal(news.length, olds.length, `${path}: as many records`);
    olds.forEach((o, i) => map.set(`${o.type}:${o.id}`, news[i]!.id));
  }
  // The source starts with the attendee email field of every new event; the import brings it, and adds no other.
  const emailFields = (forms: Doc[]) =>
    forms.filter((f) => f.attributes.form === 'attendee' && f.attributes['field-identifier'] === 'email').length;
  t.equal(emailFields(before.lists['custom-forms']!), 1, "the source's default attendee email field");
  t.equal(emailFields(after.lists['custom-forms']!), 1, 'imported once, not doubled by a default');
  const mapped = (type: string, ids: string | string[] | null) =>
    Array.isArray(ids)
      ? ids.map((id) => map.get(`${type}:${id}`)!).sort((a, b) => Number(a) - Number(b))
      : ids === null
        ? null
        : map.get(`${type}:${ids}`)!;
  const MEDIA: Record<string, string[]> = {
    sponsors: ['logo-url'],
    speakers: ['photo-url'],
    sessions: ['slides-url', 'audio-url', 'video-url'],
  };
  for (const [path] of KINDS) {
    for (const [i, old] of before.lists[path]!.entries()) {
      const now = after.lists[path]![i]!;
      const label = `${path}[${i}]`;
      await same(t, label, old, now, MEDIA[path] ?? [], path === 'speakers' ? VARIANTS.speaker : []);
      t.same(relIds(now, 'event'), fresh, `${label}: of the new event`);
      if (path === 'sessions') {
        for (const [name, type] of [
          ['track', 'track'],
          ['microlocation', 'microlocation'],
          ['session-type', 'session-type'],
          ['speakers', 'speaker'],
        ]) {
          t.same(relIds(now, name!), mapped(type!, relIds(old, name!)), `${label} ${name}`);
        }
        t.same(relIds(now, 'creator'), null, `${label}: no creator (a user reference)`);
      }
      if (path === 'speakers') {
        t.same(relIds(now, 'sessions'), mapped('session', relIds(old, 'sessions')), `${label} sessions`);
        t.same(relIds(now, 'user'), null, `${label}: no user (a user reference)`);
      }
      if (path === 'tracks' || path === 'session-types')
        t.same(relIds(now, 'sessions'), mapped('session', relIds(old, 'sessions')), `${label} sessions`);
    }
  }
  t.same(
    relIds(before.lists.sessions![2]!, 'speakers'),
    [speakers[0], speakers[2], speakers[3]],
    'the old session had three speakers',
  );
  t.same(relIds(before.lists.speakers![0]!, 'user'), cast.speaker.id, 'the old speaker had a user');

  // ---- the mails and the notification ----
  const mails = await smtp.waitFor(2);
  const exportMail = mails.find((m) => m.parsed.subject === 'Event Rich Summit 2030 has been exported');
  t.same(exportMail?.envelope.to, [cast.owner.email], 'export mail to the requester');
  t.ok(exportMail?.parsed.text?.includes(exported.result.download_url), 'with the download URL');
  const importMail = mails.find((m) => m.parsed.subject === 'Event Rich Summit 2030 has been imported');
  t.same(importMail?.envelope.to, [importer.email], 'import mail to the importer');
  t.ok(importMail?.parsed.text?.includes(imported.result.url), 'with the event URL');
  t.equal(mails.length, 2, 'no other mail');
  const notes = await call(app, { url: `/v1/users/${importer.id}/notifications`, token: importer.token });
  t.equal(notes.status, 200);
  t.equal(notes.body.data.length, 1, 'one notification');
  t.match(notes.body.data[0], {
    type: 'notification',
    attributes: {
      title: 'Event Rich Summit 2030 has been imported',
      message: new RegExp(`${imported.result.url.replace(/[.?]/g, '\\$&')}`),
      'is-read': false,
    },
    relationships: { user: {} },
  });
  const theirs = await call(app, { url: `/v1/users/${importer.id}/notifications`, token: cast.other.token });
  t.equal(theirs.status, 403, "another user's notifications are refused");
});
