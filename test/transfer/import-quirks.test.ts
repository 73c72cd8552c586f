/**
 * Best-effort import of real Open Event archives, one quirk class per test: each archive is built
 * here to reproduce what the public sample events (fossasia/open-event `sample/`) hold, imported
 * through POST /v1/events/import/json, and checked field by field through the API, with the exact
 * warnings of the task result.
 */
import t from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import { makeImage } from '../helpers/images.js';
import { byName, imported, link, listOf, warning, type Doc, type Entries } from '../helpers/imports.js';
import { seedUser } from '../helpers/users.js';

const { app } = await buildTestApp(t, { ROLE: 'all', PUBLIC_URL: 'https://events.example.test' });
const { token } = await seedUser(app);

/** The new event's attributes. */
const eventOf = async (id: string) =>
  ((await call(app, { url: `/v1/events/${id}`, token })).body.data as Doc).attributes;
const list = async (id: string, path: string, include = '') => (await listOf(app, token, id, path, include)).data;
const attributes = (docs: Doc[], ...names: string[]) =>
  docs.map((d) => Object.fromEntries(names.map((n) => [n, d.attributes[n]])));

/** A minimal event file, as the public formats write it. */
const event = (fields: Record<string, unknown> = {}) => ({
  id: 7,
  name: 'Quirk Camp',
  'starts-at': '2030-06-01T09:00:00+02:00',
  'ends-at': '2030-06-02T18:00:00+02:00',
  timezone: 'Europe/Berlin',
  ...fields,
});

t.test('enumerations in any letter case and older vocabularies; unknown values get the default', async (t) => {
  const entries: Entries = {
    event: event({ state: 'Completed', privacy: 'Public' }),
    sessions: [
      { id: 1, title: 'A', state: 'ACCEPTED' },
      { id: 2, title: 'B', state: 'cancelled' },
      { id: 3, title: 'C', state: 'Approved' },
      { id: 4, title: 'D', state: 'pending' },
      { id: 5, title: 'E', state: 'gone' },
    ],
    custom_forms: [{ id: 1, form: 'SPEAKER', field_identifier: 'shirt', type: 'Select' }],
  };
  const done = await imported(t, app, token, entries);
  t.equal(done.state, 'SUCCESS');
  t.match(await eventOf(done.id), { state: 'published', privacy: 'public' }, 'Completed was published');
  t.strictSame(attributes(await list(done.id, 'sessions'), 'title', 'state'), [
    { title: 'A', state: 'accepted' },
    { title: 'B', state: 'canceled' },
    { title: 'C', state: 'accepted' },
    { title: 'D', state: 'pending' },
    { title: 'E', state: 'draft' },
  ]);
  t.strictSame(attributes(await list(done.id, 'custom-forms'), 'form', 'type'), [{ form: 'speaker', type: 'select' }]);
  t.strictSame(done.warnings, [
    warning('event', 7, 'privacy', 'Public', 'read as "public"'),
    warning('event', 7, 'state', 'Completed', 'read as "published"'),
    warning('custom_forms', 1, 'form', 'SPEAKER', 'read as "speaker"'),
    warning('custom_forms', 1, 'type', 'Select', 'read as "select"'),
    warning('sessions', 1, 'state', 'ACCEPTED', 'read as "accepted"'),
    warning('sessions', 2, 'state', 'cancelled', 'read as "canceled"'),
    warning('sessions', 3, 'state', 'Approved', 'read as "accepted"'),
    warning(
      'sessions',
      5,
      'state',
      'gone',
      'not one of "draft", "pending", "submitted", "accepted", "confirmed", "rejected", "canceled", "withdrawn": left out; the default "draft" applies',
    ),
  ]);

  const draft = await imported(t, app, token, { event: event({ state: 'Draft', privacy: 'secret' }) });
  t.match(await eventOf(draft.id), { state: 'draft', privacy: 'private' });
  const unknown = await imported(t, app, token, { event: event({ state: 'archived', privacy: 'friends only' }) });
  t.match(await eventOf(unknown.id), { state: 'draft', privacy: 'private' }, 'an unknown privacy hides the event');
  t.strictSame(unknown.warnings, [
    warning('event', 7, 'privacy', 'friends only', 'read as "private"'),
    warning('event', 7, 'state', 'archived', 'not one of "draft", "published": left out; the default "draft" applies'),
  ]);
});

t.test(
  'repeated ids: the first record of each id is kept, each repeat warned as the same record or another',
  async (t) => {
    const entries: Entries = {
      event: event(),
      speakers: [
        { id: 5, name: 'Ada' },
        { id: '5', name: 'Ada Lovelace' },
        { id: 6, name: 'Bob' },
      ],
      sessions: [
        { id: 32, title: 'Keynote', speakers: [{ id: 5 }] },
        { id: 32, title: 'Keynote', speakers: [{ id: 5 }] },
        { id: 33, title: 'Panel', speakers: [6] },
        { id: 33, title: 'Panel (old)' },
      ],
    };
    const done = await imported(t, app, token, entries);
    t.strictSame(
      attributes(await list(done.id, 'speakers'), 'name'),
      [{ name: 'Ada' }, { name: 'Bob' }],
      'the first of id 5; "5" is the same id',
    );
    const sessions = await list(done.id, 'sessions', 'speakers');
    t.strictSame(attributes(sessions, 'title'), [{ title: 'Keynote' }, { title: 'Panel' }]);
    const speakers = byName(await list(done.id, 'speakers'));
    t.strictSame(
      sessions.map((s) => s.relationships.speakers!.data),
      [[link('speaker', speakers.Ada!.id)], [link('speaker', speakers.Bob!.id)]],
    );
    t.strictSame(done.warnings, [
      warning(
        'speakers',
        '5',
        null,
        null,
        'the id appears twice (a different record): the first is kept, this one dropped',
      ),
      warning(
        'sessions',
        32,
        null,
        null,
        'the id appears twice (the same record again): the first is kept, this one dropped',
      ),
      warning(
        'sessions',
        33,
        null,
        null,
        'the id appears twice (a different record): the first is kept, this one dropped',
      ),
    ]);
  },
);

t.test(
  "date-times: local times in the event's zone, dates alone as whole days, empty text none, unreadable ones left out",
  async (t) => {
    const entries: Entries = {
      event: event({ timezone: 'America/New_York', 'starts-at': '2016-06-30T19:00:00', 'ends-at': '2016-07-02' }),
      sessions: [
        { id: 1, title: 'Local', 'starts-at': '2016-07-01T10:00:00', 'ends-at': '2016-07-01 11:30' },
        { id: 2, title: 'Offset', 'starts-at': '2016-07-01T10:00:00+02:00', 'ends-at': '2016-07-01T10:30:00Z' },
        { id: 3, title: 'Empty', 'starts-at': '', 'ends-at': '' },
        { id: 4, title: 'Unreadable', 'starts-at': 'tomorrow at ten', 'ends-at': '2016-07-01T12:00:00-04:00' },
        {
          id: 5,
          title: 'Placeholder',
          'starts-at': '2016-07-01T00:00:00-04:00',
          'ends-at': '2016-07-01T00:00:00-04:00',
        },
        { id: 6, title: 'Backwards', 'starts-at': '2016-07-02T09:00:00-04:00', 'ends-at': '2016-07-01T10:00:00-04:00' },
      ],
    };
    const done = await imported(t, app, token, entries);
    t.match(await eventOf(done.id), {
      timezone: 'America/New_York',
      'starts-at': '2016-06-30T23:00:00.000Z',
      'ends-at': '2016-07-03T04:00:00.000Z',
    });
    t.strictSame(attributes(await list(done.id, 'sessions'), 'title', 'starts-at', 'ends-at'), [
      { title: 'Local', 'starts-at': '2016-07-01T14:00:00.000Z', 'ends-at': '2016-07-01T15:30:00.000Z' },
      { title: 'Offset', 'starts-at': '2016-07-01T08:00:00.000Z', 'ends-at': '2016-07-01T10:30:00.000Z' },
      { title: 'Empty', 'starts-at': null, 'ends-at': null },
      { title: 'Unreadable', 'starts-at': null, 'ends-at': '2016-07-01T16:00:00.000Z' },
      { title: 'Placeholder', 'starts-at': null, 'ends-at': null },
      { title: 'Backwards', 'starts-at': '2016-07-02T13:00:00.000Z', 'ends-at': null },
    ]);
    t.strictSame(done.warnings, [
      warning(
        'event',
        7,
        'starts-at',
        '2016-06-30T19:00:00',
        'a local time: read in America/New_York as 2016-06-30T19:00:00-04:00',
      ),
      warning(
        'event',
        7,
        'ends-at',
        '2016-07-02',
        'a date without a time: read as the end of that day in America/New_York, 2016-07-03T00:00:00-04:00',
      ),
      warning(
        'sessions',
        1,
        'starts-at',
        '2016-07-01T10:00:00',
        'a local time: read in America/New_York as 2016-07-01T10:00:00-04:00',
      ),
      warning(
        'sessions',
        1,
        'ends-at',
        '2016-07-01 11:30',
        'a local time: read in America/New_York as 2016-07-01T11:30:00-04:00',
      ),
      warning('sessions', 4, 'starts-at', 'tomorrow at ten', 'not a date-time: left out'),
      warning(
        'sessions',
        5,
        'starts-at, ends-at',
        '2016-07-01T00:00:00-04:00',
        'the same start and end: both left out, the session is unscheduled',
      ),
      warning('sessions', 6, 'ends-at', '2016-07-01T10:00:00-04:00', 'before the start: left out'),
    ]);

    for (const [what, fields, message] of [
      [
        'an unreadable start',
        { 'starts-at': 'soon' },
        'File event, ID 7: starts_at missing or unreadable: the event cannot be made',
      ],
      [
        'no dates at all',
        { 'starts-at': undefined, 'ends-at': '' },
        'File event, ID 7: starts_at and ends_at missing or unreadable: the event cannot be made',
      ],
      [
        'an end before the start',
        { 'ends-at': '2030-05-01T00:00:00Z' },
        'File event, ID 7: ends_at is not after starts_at: the event cannot be made',
      ],
      ['no name', { name: ' ' }, 'File event, ID 7: name missing or unreadable: the event cannot be made'],
    ] as const) {
      const refused = await imported(t, app, token, { event: event(fields) });
      t.strictSame(
        [refused.state, refused.message],
        ['FAILURE', message],
        `the event needs a name and readable dates: ${what}`,
      );
    }
  },
);

t.test(
  'time zone names: IANA names and links, spacing, Windows and descriptive names, else the offsets or the place',
  async (t) => {
    const cases: [string, Record<string, unknown>, string, string | undefined][] = [
      ['canonical', { timezone: 'Asia/Singapore' }, 'Asia/Singapore', undefined],
      ['an IANA link', { timezone: 'US/Pacific' }, 'America/Los_Angeles', undefined],
      ['spacing', { timezone: 'US / Eastern' }, 'America/New_York', 'read as America/New_York'],
      [
        'a Windows name',
        { timezone: 'Eastern Standard Time' },
        'America/New_York',
        'a Windows zone name: read as America/New_York',
      ],
      [
        'a descriptive name, settled by the place',
        {
          timezone: 'Hawaii-Aleutian',
          latitude: 19.924029,
          longitude: -155.887498,
          'starts-at': '2016-12-05T13:00:00',
          'ends-at': '2016-12-09T20:00:00',
        },
        'Pacific/Honolulu',
        'read as Pacific/Honolulu',
      ],
      [
        'an unknown name: from the offsets of the dates',
        {
          timezone: 'Singapore Summit Time',
          'starts-at': '2030-06-01T09:00:00+08:00',
          'ends-at': '2030-06-02T18:00:00+08:00',
        },
        'Etc/GMT-8',
        "not a time zone: Etc/GMT-8, from the offset +08:00 of the event's dates",
      ],
      [
        'none: from the place',
        { timezone: undefined, latitude: '52.52', longitude: '13.40' },
        'Europe/Berlin',
        "missing: Europe/Berlin, the zone at the event's place",
      ],
    ];
    for (const [what, fields, zone, note] of cases) {
      const done = await imported(t, app, token, { event: event(fields) });
      const ev = await eventOf(done.id);
      t.equal(ev.timezone, zone, what);
      t.strictSame(
        done.warnings.filter((w) => w.field === 'timezone' || w.action.includes('zone')).map((w) => w.action),
        note ? [note] : [],
        `${what}: warned`,
      );
    }
    const hawaii = await imported(t, app, token, { event: event(cases[4]![1]) });
    t.match(
      await eventOf(hawaii.id),
      { 'starts-at': '2016-12-05T23:00:00.000Z', 'ends-at': '2016-12-10T06:00:00.000Z' },
      'local times read in the zone found',
    );
  },
);

t.test('ids, numbers and booleans written as text; lengths of every spelling', async (t) => {
  const entries: Entries = {
    event: event({ latitude: '52.5200066', longitude: '13.404954' }),
    microlocations: [{ id: '2', name: 'Hall', floor: '3', latitude: ' 52.5 ', 'hidden-in-scheduler': 'yes' }],
    sponsors: [{ id: '9', name: 'ACME', level: '4' }],
    speakers: [{ id: '5', name: 'Ada', 'is-featured': 'true' }],
    custom_forms: [{ id: 1, form: 'speaker', field_identifier: 'shirt', is_required: 'yes', is_included: 1 }],
    session_types: [
      { id: 1, name: 'Talk', length: '00.45' },
      { id: 2, name: 'Workshop', length: '2:00' },
      { id: 3, name: 'Tour', length: '3 hours' },
      { id: 4, name: 'All day', length: '24.00' },
      { id: 5, name: 'Lightning', length: 0.1 },
      { id: 6, name: 'Unknown' },
    ],
    sessions: [
      {
        id: '41',
        title: 'Flash',
        'session-type': '5',
        microlocation: '2',
        speakers: ['5'],
        'starts-at': '2030-06-01T10:00:00Z',
        'ends-at': '2030-06-01T10:05:00Z',
      },
      {
        id: 42,
        title: 'Flash 2',
        'session-type-id': 5,
        'starts-at': '2030-06-01T11:00:00Z',
        'ends-at': '2030-06-01T11:05:00Z',
      },
    ],
  };
  const done = await imported(t, app, token, entries);
  t.match(await eventOf(done.id), { latitude: 52.5200066, longitude: 13.404954 });
  t.strictSame(attributes(await list(done.id, 'microlocations'), 'floor', 'latitude', 'hidden-in-scheduler'), [
    { floor: 3, latitude: 52.5, 'hidden-in-scheduler': true },
  ]);
  t.strictSame(attributes(await list(done.id, 'sponsors'), 'level'), [{ level: 4 }]);
  t.strictSame(attributes(await list(done.id, 'speakers'), 'is-featured'), [{ 'is-featured': true }]);
  t.strictSame(attributes(await list(done.id, 'custom-forms'), 'is-required', 'is-included'), [
    { 'is-required': true, 'is-included': true },
  ]);
  const types = await list(done.id, 'session-types');
  t.strictSame(
    attributes(types, 'name', 'length'),
    [
      { name: 'Talk', length: '00:45' },
      { name: 'Workshop', length: '02:00' },
      { name: 'Tour', length: '03:00' },
      { name: 'All day', length: '23:59' },
      { name: 'Lightning', length: '00:05' },
    ],
    'a length that cannot be read is taken from its sessions; without sessions the type is dropped',
  );
  const [flash] = await list(done.id, 'sessions');
  t.strictSame(
    [flash!.relationships['session-type']!.data, flash!.relationships.microlocation!.data],
    [
      link('session-type', byName(types).Lightning!.id),
      link('microlocation', (await list(done.id, 'microlocations'))[0]!.id),
    ],
    'references written as text are linked',
  );
  // Numbers written as JSON strings ("52.5200066", "3") are what requests may send too: no repair, no warning.
  t.strictSame(done.warnings, [
    warning('custom_forms', 1, 'is_required', 'yes', 'read as true'),
    warning('custom_forms', 1, 'is_included', 1, 'read as true'),
    warning('microlocations', '2', 'latitude', ' 52.5 ', 'read as 52.5'),
    warning('microlocations', '2', 'hidden-in-scheduler', 'yes', 'read as true'),
    warning('speakers', '5', 'is-featured', 'true', 'read as true'),
    warning('session_types', 1, 'length', '00.45', 'read as 00:45'),
    warning('session_types', 2, 'length', '2:00', 'read as 02:00'),
    warning('session_types', 3, 'length', '3 hours', 'read as 03:00'),
    warning('session_types', 4, 'length', '24.00', 'longer than a length can be: cut to 23:59'),
    warning('session_types', 5, 'length', 0.1, 'not a length (HH:MM): left out'),
    warning('session_types', 5, 'length', 0.1, 'taken as 00:05, the length of most of its sessions'),
    warning('session_types', 6, 'length', null, 'missing or unreadable: the record is dropped'),
  ]);
});

t.test(
  'files that are not valid JSON: repaired where jsonrepair can, else skipped; the event file is essential',
  async (t) => {
    const entries: Entries = {
      event: event(),
      'tracks.json': '[{"id": 3, "name": "Web", "color": "#a04b23"}\n{"id": 4, "name": "Data", "color": "#ffff00",}]',
      sponsors: '{{{ not json',
    };
    const done = await imported(t, app, token, entries);
    t.equal(done.state, 'SUCCESS');
    t.strictSame(attributes(await list(done.id, 'tracks'), 'name', 'color'), [
      { name: 'Web', color: '#a04b23' },
      { name: 'Data', color: '#ffff00' },
    ]);
    t.strictSame(await list(done.id, 'sponsors'), []);
    t.match(done.warnings, [
      warning(
        'sponsors',
        null,
        null,
        null,
        /^not valid JSON \(.+\), and it could not be repaired: the file is skipped$/ as unknown as string,
      ),
      warning(
        'tracks.json',
        null,
        null,
        null,
        'not valid JSON: repaired (a missing comma or quote, a cut-off end, ...)',
      ),
    ]);
    t.equal(done.warnings.length, 2);
    const broken = await imported(t, app, token, { event: '{{{', sessions: [] });
    t.strictSame([broken.state, broken.message], ['FAILURE', 'File event is not valid JSON']);
  },
);

t.test(
  'links are kept, whichever way the archive names them; kinds without a file come from nested objects',
  async (t) => {
    const photo = await makeImage('png', 8, 8);
    const entries: Entries = {
      'event.json': event({
        social_links: [{ id: 1, name: 'Twitter', link: 'https://twitter.com/camp' }],
        copyright: { holder: 'Camp', licence: 'CC BY 4.0', year: 2030, logo: '' },
      }),
      'speakers.json': [
        { id: 5, name: 'Ada', sessions: [{ id: 41, title: 'Keynote' }] },
        { id: 6, name: 'Bob', sessions: [42] },
        { id: 7, name: 'Cy', photo: 'images/speakers/cy.png' },
      ],
      'tracks.json': [{ id: 3, name: 'Web', color: '#a04b23', sessions: [{ id: 43 }] }],
      'sessions.json': [
        {
          id: 41,
          title: 'Keynote',
          track: { id: 3, name: 'Web' },
          microlocation: { id: 20, name: 'Hall A', floor: 1 },
          session_type: { id: 30, name: 'Talk', length: '00:30' },
        },
        {
          id: 42,
          title: 'Workshop',
          speakers: [{ id: 7, name: 'Cy' }],
          'microlocation-id': 21,
          session_type: { id: 30, name: 'Talk (nested again)' },
        },
        { id: 43, title: 'Lightning', speaker_ids: [5, 99], microlocation: { id: 21, name: 'Hall B' } },
      ],
      'images/speakers/cy.png': photo,
    };
    const done = await imported(t, app, token, entries);
    const speakers = byName(await list(done.id, 'speakers'));
    const tracks = await list(done.id, 'tracks');
    const rooms = byName(await list(done.id, 'microlocations'));
    const types = await list(done.id, 'session-types');
    t.strictSame(
      attributes(Object.values(rooms), 'name', 'floor'),
      [
        { name: 'Hall A', floor: 1 },
        { name: 'Hall B', floor: null },
      ],
      'rooms made from the nested objects',
    );
    t.strictSame(
      attributes(types, 'name', 'length'),
      [{ name: 'Talk', length: '00:30' }],
      'one session type per id: the first nested object',
    );
    t.strictSame(attributes(await list(done.id, 'social-links'), 'name', 'link'), [
      { name: 'Twitter', link: 'https://twitter.com/camp' },
    ]);
    const copyright = await call(app, { url: `/v1/events/${done.id}/event-copyright`, token });
    t.match(
      copyright.body.data,
      { attributes: { holder: 'Camp', licence: 'CC BY 4.0', year: 2030 } },
      'the copyright nested in the event',
    );
    const rels = (s: Doc) =>
      Object.fromEntries(
        ['track', 'microlocation', 'session-type', 'speakers'].map((r) => [r, s.relationships[r]!.data]),
      );
    const sessions = byName(await list(done.id, 'sessions', 'speakers'), 'title');
    t.strictSame(
      rels(sessions.Keynote!),
      {
        track: link('track', tracks[0]!.id),
        microlocation: link('microlocation', rooms['Hall A']!.id),
        'session-type': link('session-type', types[0]!.id),
        speakers: [link('speaker', speakers.Ada!.id)],
      },
      'nested objects, and a speaker listing the session',
    );
    t.strictSame(
      rels(sessions.Workshop!),
      {
        track: null,
        microlocation: link('microlocation', rooms['Hall B']!.id),
        'session-type': link('session-type', types[0]!.id),
        speakers: [link('speaker', speakers.Bob!.id), link('speaker', speakers.Cy!.id)],
      },
      'a *-id field, a nested speaker, and a speaker listing the session by id',
    );
    t.strictSame(
      rels(sessions.Lightning!),
      {
        track: link('track', tracks[0]!.id),
        microlocation: link('microlocation', rooms['Hall B']!.id),
        'session-type': null,
        speakers: [link('speaker', speakers.Ada!.id)],
      },
      'the track listing the session; an unknown speaker is not linked',
    );
    t.match(
      speakers.Cy!.attributes['photo-url'],
      /^https:\/\/events\.example\.test\/static\/media\/imports\/media\/[0-9a-f]{32}\.png$/,
      'a photo under an old name',
    );
    t.strictSame(done.warnings, [
      warning('event.json', null, 'copyright', null, 'no event_copyright file: 1 made from the objects nested here'),
      warning('event.json', null, 'social_links', null, 'no social_links file: 1 made from the objects nested here'),
      warning(
        'sessions.json',
        null,
        'microlocation',
        null,
        'no microlocations file: 2 made from the objects nested here',
      ),
      warning(
        'sessions.json',
        null,
        'session_type',
        null,
        'no session_types file: 1 made from the objects nested here',
      ),
      warning('sessions.json', 43, 'speaker_ids', ['99'], 'no such record in speakers: that speaker is not linked'),
    ]);
  },
);

t.test(
  'the shapes of other formats: old field names and form settings, dasherized, snake and camel keys, unknown fields, deleted records',
  async (t) => {
    const logo = await makeImage('png', 12, 12);
    const entries: Entries = {
      'export/event': event({
        'starts-at': undefined,
        start_time: '2030-06-01T09:00:00+02:00',
        logo: '/images/logo',
        background_image: '/images/Banner.jpg',
        organizer_name: 'Camp e.V.',
        version: { event_ver: 3 },
      }),
      'export/forms': [
        {
          id: 3,
          session_form: '{"title": {"require": 1, "include": 1}, "track": {"require": 0, "include": 1}}',
          speaker_form: { email: { require: 1, include: 1 } },
        },
      ],
      'export/sponsors': { sponsors: [{ id: 1, name: 'ACME', sponsor_type: 'Gold', logo: 'images/missing.png' }] },
      'export/speakers': [
        {
          id: 1,
          name: 'Ada',
          email: 'ADA@example.com',
          twitter: '@ada',
          github: 'github.com/ada',
          website: 'www.ada.example',
          heard_from: 'Friend',
        },
        {
          id: 2,
          name: 'Ada L.',
          email: 'ada@example.com ',
          featured: true,
          linkedin: 'https://example.com/in/ada lovelace',
        },
      ],
      'export/tracks': [
        { id: 1, name: 'Web', color: 'red', location: 'Hall 1' },
        { id: 2, name: 'Data' },
      ],
      'export/sessions': [
        {
          id: 1,
          name: 'Named, not titled',
          start_time: '2030-06-01T10:00:00+02:00',
          end_time: '2030-06-01T11:00:00+02:00',
          slides: '',
          'is-mail-sent': true,
        },
        { id: 2, title: 'Deleted', 'deleted-at': '2029-01-01T00:00:00Z' },
        { id: 3, shortAbstract: 'No title yet', 'starts-at': '2030-06-01T12:00:00+02:00' },
      ],
      'export/meta': { root_url: 'https://old.example.org' },
      'export/config.json': { 'api-link': 'https://old.example.org/api/v1/events/7' },
      'export/images/logo.png': logo,
      'export/images/banner.png': logo,
    };
    const done = await imported(t, app, token, entries);
    const ev = await eventOf(done.id);
    t.equal(ev['owner-name'], 'Camp e.V.', "the older organizer_name is the event's owner-name");
    const stored = /\/static\/media\/imports\/media\/[0-9a-f]{32}\.png$/;
    t.match(ev, { 'starts-at': '2030-06-01T07:00:00.000Z', 'logo-url': stored, 'original-image-url': stored });
    t.strictSame(
      attributes(await list(done.id, 'sponsors'), 'name', 'type', 'logo-url'),
      [{ name: 'ACME', type: 'Gold', 'logo-url': null }],
      'a list wrapped in an object',
    );
    t.strictSame(
      attributes(await list(done.id, 'custom-forms'), 'form', 'field-identifier', 'type', 'is-required', 'is-included'),
      [
        { form: 'session', 'field-identifier': 'title', type: 'text', 'is-required': true, 'is-included': true },
        { form: 'session', 'field-identifier': 'track', type: 'text', 'is-required': false, 'is-included': true },
        { form: 'speaker', 'field-identifier': 'email', type: 'email', 'is-required': true, 'is-included': true },
      ],
      'the older form settings as form fields',
    );
    t.strictSame(
      attributes(
        await list(done.id, 'speakers'),
        'name',
        'twitter',
        'github',
        'website',
        'heard-from',
        'is-featured',
        'linkedin',
      ),
      [
        {
          name: 'Ada',
          twitter: 'https://twitter.com/ada',
          github: 'http://github.com/ada',
          website: 'http://www.ada.example',
          'heard-from': 'Friend',
          'is-featured': false,
          linkedin: null,
        },
        {
          name: 'Ada L.',
          twitter: null,
          github: null,
          website: null,
          'heard-from': null,
          'is-featured': true,
          linkedin: null,
        },
      ],
    );
    t.strictSame(attributes(await list(done.id, 'tracks'), 'name', 'color'), [
      { name: 'Web', color: '#ff0000' },
      { name: 'Data', color: '#808080' },
    ]);
    t.strictSame(
      attributes(
        await list(done.id, 'sessions'),
        'title',
        'short-abstract',
        'starts-at',
        'ends-at',
        'slides-url',
        'is-mail-sent',
      ),
      [
        {
          title: 'Named, not titled',
          'short-abstract': null,
          'starts-at': '2030-06-01T08:00:00.000Z',
          'ends-at': '2030-06-01T09:00:00.000Z',
          'slides-url': null,
          'is-mail-sent': true,
        },
        {
          title: 'Untitled session',
          'short-abstract': 'No title yet',
          'starts-at': '2030-06-01T10:00:00.000Z',
          'ends-at': null,
          'slides-url': null,
          'is-mail-sent': false,
        },
      ],
      'a session deleted in the source is not imported',
    );
    t.strictSame(done.warnings, [
      warning('forms', 3, 'session_form', null, 'the older form settings format: read as 2 session form fields'),
      warning('forms', 3, 'speaker_form', null, 'the older form settings format: read as 1 speaker form field'),
      warning('sponsors', null, 'sponsors', null, 'the list is wrapped in an object: its records are read'),
      warning('event', 7, 'background_image', '/images/Banner.jpg', "read as the archive's file images/banner.png"),
      warning('sponsors', 1, 'logo', 'images/missing.png', 'no such file in the archive: left out'),
      warning('speakers', 1, 'website', 'www.ada.example', 'read as http://www.ada.example'),
      warning('speakers', 1, 'twitter', '@ada', 'a handle: read as https://twitter.com/ada'),
      warning('speakers', 1, 'github', 'github.com/ada', 'read as http://github.com/ada'),
      warning('speakers', 2, 'linkedin', 'https://example.com/in/ada lovelace', 'not a valid URL: left out'),
      warning(
        'speakers',
        2,
        'email',
        'ada@example.com ',
        'an earlier speaker has this address (one speaker per address in an event): left out',
      ),
      warning('tracks', 1, 'color', 'red', 'read as #ff0000'),
      warning('tracks', 2, 'color', null, 'taken as grey (#808080), so the track and its sessions are kept'),
      warning(
        'tracks',
        null,
        'location',
        'Hall 1',
        'this service has no such field: not carried over (1 of 2 records have a value)',
      ),
      warning('sessions', 2, 'deleted-at', '2029-01-01T00:00:00Z', 'deleted in the source: the record is not imported'),
      warning(
        'sessions',
        3,
        'title',
        null,
        'taken as "Untitled session", so the session, its times and speakers are kept',
      ),
    ]);
  },
);
