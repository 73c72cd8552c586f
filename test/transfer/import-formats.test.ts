/**
 * Import of the archive formats the service must accept: a crafted archive in the public Open Event
 * style (files without `.json`, dasherized and snake_case keys, nested relationship objects, "" for
 * numbers, odd session-type lengths, media under `images/`, one top folder), and an archive this
 * service exported itself. Every imported record is checked through the API.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AdmZip from 'adm-zip';
import type { FastifyInstance } from 'fastify';
import t, { type Test } from 'tap';
import { buildTestApp, call, until } from '../helpers/app.js';
import { holdLock } from '../helpers/database.js';
import { buildWorld } from '../helpers/events.js';
import { makeImage } from '../helpers/images.js';
import { byName, link, listOf, startImport, warning, zipOf, type Doc, type Entries } from '../helpers/imports.js';
import { taskAnswer } from '../helpers/service.js';
import { seedUser } from '../helpers/users.js';

const PUBLIC = 'https://events.example.test';
const MEDIA_URL = /^https:\/\/events\.example\.test\/static\/media\/imports\/media\/[0-9a-f]{32}\.png$/;

async function setup(t: Test) {
  const storage = await mkdtemp(join(tmpdir(), 'oe-import-formats-'));
  t.teardown(() => rm(storage, { recursive: true, force: true }));
  return buildTestApp(t, { ROLE: 'all', STORAGE_DIR: storage, PUBLIC_URL: PUBLIC });
}

/** Bytes served at a stored-media URL of this app. */
const served = async (app: FastifyInstance, url: string) =>
  (await app.inject({ url: url.slice(PUBLIC.length) })).rawPayload;

t.test('a crafted archive in the public Open Event style imports completely', async (t) => {
  const { app, url } = await setup(t);
  const user = await seedUser(app);
  const logo = await makeImage('png', 40, 30);
  const photo = await makeImage('png', 20, 20);
  const files: Entries = {};
  const put = (name: string, value: unknown) => (files[`fossasia-2030/${name}`] = value);
  put('event', {
    id: 7,
    name: 'FOSSASIA Summit',
    identifier: 'oldident',
    'starts-at': '2030-03-10T09:00:00Z',
    'ends-at': '2030-03-12T18:00:00Z',
    timezone: 'Asia/Singapore',
    latitude: '',
    longitude: 103.85,
    'location-name': 'Lifelong Learning Institute',
    description: 'Open tech',
    'logo-url': '/images/logo',
    'original-image-url': 'images/not-there.png',
    'ticket-url': '',
    privacy: 'public',
    state: 'published',
    'owner-id': 99,
    'event-topic-id': 9999,
    creator: { id: 99 },
    'unknown-thing': 'dropped',
    online: 'yes',
    'payment-currency': 'SGD',
    'is-featured': true,
    'is-promoted': false,
    'event-type': 'Meetup',
  });
  put('forms', [
    {
      id: 12,
      form: 'speaker',
      field_identifier: 'shirt',
      type: 'select',
      is_required: 'true',
      is_included: true,
      foo: 1,
    },
    { id: 11, form: 'session', field_identifier: 'title', type: 'text', is_fixed: true, is_required: false },
  ]);
  put('microlocations', [
    { id: 21, name: 'Hall B', floor: 2, latitude: '', room: 'B', color: 'ignored' },
    { id: 20, name: 'Hall A', floor: '' },
  ]);
  put('sponsors', [
    {
      id: 50,
      name: 'ACME',
      level: '',
      logo_url: 'images/sponsors/acme.png',
      url: 'https://acme.example',
      sponsor_type: 'x',
    },
  ]);
  put('speakers', [
    { id: 6, name: 'Bob', email: 'bob@example.com', photo_url: '', country: 'Singapore', user_id: 1234 },
    {
      id: 5,
      name: 'Ada',
      email: 'ada@example.com',
      photo_url: 'images/speakers/x.png',
      organisation: 'OpenTech',
      user: { id: 1234 },
      sessions: [41],
    },
  ]);
  put('tracks', [
    { id: 4, name: 'Data', color: '#FFFF00' },
    { id: 3, name: 'Web', color: '#a04b23', font_color: '#123456', sessions: [{ id: 42 }] },
  ]);
  put('session_types', [
    { id: 31, name: 'Workshop', length: '0:45' },
    { id: 30, name: 'Lightning', length: '00.15' },
  ]);
  put('sessions', [
    {
      id: 42,
      title: 'Hands-on',
      'starts-at': '2030-03-11T10:00:00Z',
      'ends-at': '2030-03-11T10:45:00Z',
      state: 'accepted',
      track: { id: 3, name: 'Web' },
      microlocation: { id: 21, name: 'Hall B' },
      'session-type': { id: 31, name: 'Workshop' },
      speakers: [
        { id: 5, name: 'Ada' },
        { id: 6, name: 'Bob' },
        { id: 77, name: 'Ghost' },
      ],
      'slides-url': '',
      'average-rating': 4,
    },
    {
      id: 41,
      title: 'Keynote',
      'short-abstract': 'Welcome',
      'starts-at': '2030-03-10T09:00:00Z',
      'ends-at': '2030-03-10T09:15:00Z',
      'track-id': 4,
      'microlocation-id': 20,
      'session-type-id': 30,
      'speaker-ids': [6],
      'creator-id': 99,
    },
    { id: 43, title: 'Orphan', track: { id: 999 }, microlocation: 888, 'session-type': null, speakers: [] },
  ]);
  files['fossasia-2030/images/logo.png'] = logo;
  files['fossasia-2030/images/speakers/x.png'] = photo;

  // The sessions table is locked, so the import waits at its last file, showing its progress.
  const lock = await holdLock(t, url, (sql) => sql`lock table sessions in share mode`);
  const taskUrl = await startImport(t, app, user.token, zipOf(files));
  try {
    const waiting = await until('the progress of the last file', async () => {
      const res = await call(app, { url: taskUrl, token: user.token });
      return res.body?.status === 'Importing sessions (13/13)' || res.body?.state !== 'WAITING' ? res : undefined;
    });
    t.equal(waiting.status, 200);
    t.strictSame(
      waiting.body,
      { state: 'WAITING', status: 'Importing sessions (13/13)', result: null },
      'progress while waiting',
    );
  } finally {
    await lock.release();
  }

  const done = await taskAnswer(app, taskUrl, user.token);
  t.equal(done.status, 200);
  const result = done.body.result;
  t.strictSame(Object.keys(done.body).sort(), ['result', 'state', 'status']);
  t.equal(done.body.state, 'SUCCESS', JSON.stringify(done.body));
  t.equal(done.body.status, null);
  const id = result.id as string;
  t.match(id, /^\d+$/, 'the new id as a string');
  t.not(id, '7', 'a new id, not the old one');

  const event = await call(app, { url: `/v1/events/${id}?include=owner,event-topic`, token: user.token });
  t.equal(event.status, 200);
  const ev = event.body.data as Doc;
  const identifier = ev.attributes.identifier as string;
  t.match(identifier, /^[a-z][a-z0-9]{7}$/, 'a new identifier');
  t.not(identifier, 'oldident');
  const { warnings, ...rest } = result;
  t.strictSame(rest, { event_name: 'FOSSASIA Summit', id, url: `${PUBLIC}/e/${identifier}` }, 'task result');
  t.strictSame(
    warnings,
    {
      total: 14,
      items: [
        warning('event', 7, 'original-image-url', 'images/not-there.png', 'no such file in the archive: left out'),
        warning('event', 7, 'online', 'yes', 'read as true'),
        warning('event', 7, 'is-featured', true, 'set by administrators only: left out'),
        warning('event', 7, 'event-topic-id', 9999, 'no such event topic in this service: left out'),
        warning('event', 7, 'event-type', 'Meetup', 'no such event type in this service: left out'),
        warning('event', 7, 'unknown-thing', 'dropped', 'this service has no such field: not carried over'),
        warning(
          'forms',
          null,
          'foo',
          1,
          'this service has no such field: not carried over (1 of 2 records have a value)',
        ),
        warning(
          'microlocations',
          null,
          'color',
          'ignored',
          'this service has no such field: not carried over (1 of 2 records have a value)',
        ),
        warning('sponsors', 50, 'logo_url', 'images/sponsors/acme.png', 'no such file in the archive: left out'),
        warning('session_types', 30, 'length', '00.15', 'read as 00:15'),
        warning('session_types', 31, 'length', '0:45', 'read as 00:45'),
        warning('sessions', 42, 'speakers', ['77'], 'no such record in speakers: that speaker is not linked'),
        warning('sessions', 43, 'track', { id: 999 }, 'no such record in tracks: not linked'),
        warning('sessions', 43, 'microlocation', 888, 'no such record in microlocations: not linked'),
      ],
    },
    'what was left out and repaired',
  );
  t.match(ev.attributes, {
    name: 'FOSSASIA Summit',
    'starts-at': '2030-03-10T09:00:00.000Z',
    'ends-at': '2030-03-12T18:00:00.000Z',
    timezone: 'Asia/Singapore',
    latitude: null,
    longitude: 103.85,
    'location-name': 'Lifelong Learning Institute',
    description: 'Open tech',
    'original-image-url': null,
    'ticket-url': null,
    privacy: 'public',
    state: 'published',
    online: true,
    'payment-currency': 'SGD',
    'is-featured': false,
    'is-promoted': false,
  });
  t.notOk('unknown-thing' in ev.attributes, 'unknown fields dropped');
  t.match(ev.attributes['logo-url'], MEDIA_URL, 'the logo is stored');
  t.same(await served(app, ev.attributes['logo-url'] as string), logo, 'the stored logo is the archive entry');
  t.strictSame(ev.relationships.owner!.data, link('user', user.id), 'owner is the requester');
  t.strictSame(ev.relationships['event-topic']!.data, null, 'an unknown topic is dropped');

  const forms = await listOf(app, user.token, id, 'custom-forms');
  t.strictSame(
    forms.data.map((f) => [f.attributes['field-identifier'], f.attributes.form, f.attributes.type]),
    [
      ['title', 'session', 'text'],
      ['shirt', 'speaker', 'select'],
    ],
    'custom forms from `forms`, by ascending old id',
  );
  t.match(forms.data[0]!.attributes, { 'is-fixed': true, 'is-required': false });
  t.match(forms.data[1]!.attributes, { 'is-required': true, 'is-included': true });

  const rooms = await listOf(app, user.token, id, 'microlocations');
  t.strictSame(
    rooms.data.map((m) => m.attributes.name),
    ['Hall A', 'Hall B'],
    'microlocations by ascending old id',
  );
  t.match(rooms.data[0]!.attributes, { floor: null, latitude: null });
  t.match(rooms.data[1]!.attributes, { floor: 2, latitude: null, room: 'B' });

  const sponsors = await listOf(app, user.token, id, 'sponsors');
  t.equal(sponsors.data.length, 1);
  t.match(
    sponsors.data[0]!.attributes,
    { name: 'ACME', level: null, 'logo-url': null, url: 'https://acme.example' },
    'a media path not in the archive is null',
  );

  const speakers = await listOf(app, user.token, id, 'speakers', 'user');
  t.strictSame(
    speakers.data.map((s) => s.attributes.name),
    ['Ada', 'Bob'],
    'speakers by ascending old id',
  );
  const { Ada, Bob } = byName(speakers.data);
  t.match(Ada!.attributes, { email: 'ada@example.com', organisation: 'OpenTech' });
  t.match(Ada!.attributes['photo-url'], MEDIA_URL, 'the photo is stored');
  t.same(await served(app, Ada!.attributes['photo-url'] as string), photo, 'the stored photo is the archive entry');
  t.match(Bob!.attributes, { email: 'bob@example.com', 'photo-url': null, country: 'Singapore' });
  for (const s of speakers.data)
    t.strictSame(s.relationships.user!.data, null, `${s.attributes.name as string}: user reference dropped`);

  const tracks = await listOf(app, user.token, id, 'tracks');
  t.strictSame(
    tracks.data.map((x) => [x.attributes.name, x.attributes.color, x.attributes['font-color']]),
    [
      ['Web', '#a04b23', '#ffffff'],
      ['Data', '#ffff00', '#000000'],
    ],
    'tracks by ascending old id, colours checked and font colours computed',
  );

  const types = await listOf(app, user.token, id, 'session-types');
  t.strictSame(
    types.data.map((x) => [x.attributes.name, x.attributes.length]),
    [
      ['Lightning', '00:15'],
      ['Workshop', '00:45'],
    ],
    'session types with lengths normalised',
  );

  const social = await listOf(app, user.token, id, 'social-links');
  t.strictSame(social.data, [], 'no social links file: none');

  const sessions = await listOf(app, user.token, id, 'sessions', 'speakers,creator');
  t.strictSame(
    sessions.data.map((s) => s.attributes.title),
    ['Keynote', 'Hands-on', 'Orphan'],
    'sessions by ascending old id',
  );
  const { Keynote, 'Hands-on': handsOn, Orphan } = byName(sessions.data, 'title');
  const track = byName(tracks.data);
  const room = byName(rooms.data);
  const type = byName(types.data);
  const rels = (s: Doc) =>
    Object.fromEntries(
      ['track', 'microlocation', 'session-type', 'speakers', 'creator'].map((r) => [r, s.relationships[r]!.data]),
    );
  t.strictSame(
    rels(handsOn!),
    {
      track: link('track', track.Web!.id),
      microlocation: link('microlocation', room['Hall B']!.id),
      'session-type': link('session-type', type.Workshop!.id),
      speakers: [link('speaker', Ada!.id), link('speaker', Bob!.id)],
      creator: null,
    },
    'nested objects rewritten to the new ids; an unknown speaker dropped',
  );
  t.strictSame(
    rels(Keynote!),
    {
      track: link('track', track.Data!.id),
      microlocation: link('microlocation', room['Hall A']!.id),
      'session-type': link('session-type', type.Lightning!.id),
      speakers: [link('speaker', Ada!.id), link('speaker', Bob!.id)],
      creator: null,
    },
    '*_id fields rewritten to the new ids, Ada listing the session; the creator (a user) dropped',
  );
  t.strictSame(
    rels(Orphan!),
    { track: null, microlocation: null, 'session-type': null, speakers: [], creator: null },
    'unknown old ids -> null',
  );
  t.match(handsOn!.attributes, {
    'starts-at': '2030-03-11T10:00:00.000Z',
    'ends-at': '2030-03-11T10:45:00.000Z',
    state: 'accepted',
    'slides-url': null,
  });
  t.equal(
    handsOn!.attributes['average-rating'],
    0,
    "computed from this service's feedback: the archive's 4 is not carried over",
  );
  t.match(Keynote!.attributes, { 'short-abstract': 'Welcome', 'starts-at': '2030-03-10T09:00:00.000Z' });

  const notes = await call(app, { url: `/v1/users/${user.id}/notifications`, token: user.token });
  t.equal(notes.status, 200);
  t.match(notes.body.data, [
    { attributes: { title: 'Event FOSSASIA Summit has been imported', message: new RegExp(`/e/${identifier}`) } },
  ]);
});

t.test('an archive exported by this service imports as a copy of the event', async (t) => {
  const { app } = await setup(t);
  const world = await buildWorld(app);
  const { owner, other } = world.cast;
  const source = world.published;
  const exported = await call(app, {
    method: 'POST',
    url: `/v1/events/${source.event}/export/json`,
    token: owner.token,
    body: {},
    headers: { 'content-type': 'application/json' },
  });
  t.equal(exported.status, 200);
  const task = await taskAnswer(app, exported.body.task_url, owner.token);
  t.equal(task.body.state, 'SUCCESS', JSON.stringify(task.body));
  const download = await app.inject({
    url: (task.body.result.download_url as string).slice(PUBLIC.length),
    headers: { authorization: `JWT ${owner.token}` },
  });
  t.equal(download.statusCode, 200);
  t.ok(new AdmZip(download.rawPayload).getEntry('sessions.json'), 'the download is the export archive');

  const taskUrl = await startImport(t, app, other.token, download.rawPayload);
  const done = await taskAnswer(app, taskUrl, other.token);
  t.equal(done.body.state, 'SUCCESS', JSON.stringify(done.body));
  const id = done.body.result.id as string;
  t.not(id, source.event);

  const read = (event: string) =>
    call(app, { url: `/v1/events/${event}?include=owner`, token: event === id ? other.token : owner.token });
  const [before, after] = [(await read(source.event)).body.data as Doc, (await read(id)).body.data as Doc];
  // The schedule URLs name the event by its identifier, which is new.
  const urls = ['pentabarf-url', 'ical-url', 'xcal-url'];
  const skip = new Set(['identifier', 'created-at', 'last-modified-at', ...urls]);
  const attrs = (d: Doc) => Object.fromEntries(Object.entries(d.attributes).filter(([k]) => !skip.has(k)));
  t.strictSame(attrs(after), attrs(before), 'event attributes copied');
  for (const url of urls)
    t.equal(
      after.attributes[url],
      (before.attributes[url] as string).replace(
        `/${before.attributes.identifier}/`,
        `/${after.attributes.identifier}/`,
      ),
      `${url} names the new identifier`,
    );
  t.not(after.attributes.identifier, before.attributes.identifier, 'a new identifier');
  t.strictSame(after.relationships.owner!.data, link('user', other.id), 'owner is the requester');
  t.strictSame(after.relationships['event-topic']!.data, link('event-topic', world.topic), 'an existing topic is kept');
  t.strictSame(
    done.body.result,
    {
      event_name: 'Open Summit',
      id,
      url: `${PUBLIC}/e/${after.attributes.identifier as string}`,
      warnings: { total: 0, items: [] },
    },
    'an archive of this service imports without a warning',
  );

  for (const path of [
    'social-links',
    'custom-forms',
    'microlocations',
    'sponsors',
    'speakers',
    'tracks',
    'session-types',
  ]) {
    const [old, copy] = [await listOf(app, owner.token, source.event, path), await listOf(app, other.token, id, path)];
    t.equal(copy.data.length, old.data.length, `${path}: as many records`);
    t.not(copy.data[0]!.id, old.data[0]!.id, `${path}: new ids`);
    t.strictSame(copy.data.map(attrs), old.data.map(attrs), `${path}: attributes copied`);
  }
  const speaker = (await listOf(app, other.token, id, 'speakers')).data[0]!;
  t.strictSame(speaker.relationships.user!.data, null, 'the speaker user reference is not carried over');
  const [old, copy] = [
    (await listOf(app, owner.token, source.event, 'sessions')).data,
    (await listOf(app, other.token, id, 'sessions', 'speakers')).data,
  ];
  t.strictSame(copy.map(attrs), old.map(attrs), 'sessions: attributes copied');
  const idOf = async (path: string) => (await listOf(app, other.token, id, path)).data[0]!.id;
  t.strictSame(
    Object.fromEntries(
      ['track', 'microlocation', 'session-type', 'speakers'].map((r) => [r, copy[0]!.relationships[r]!.data]),
    ),
    {
      track: link('track', await idOf('tracks')),
      microlocation: link('microlocation', await idOf('microlocations')),
      'session-type': link('session-type', await idOf('session-types')),
      speakers: [link('speaker', speaker.id)],
    },
    'session relationships point at the new records',
  );
});
