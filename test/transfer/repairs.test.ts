/**
 * The import's normalisers, one by one (src/transfer/repairs/): each quirk class of real Open Event
 * archives, read into this service's values, with the note that becomes the warning. The imports
 * that use them are proven in import-quirks.test.ts.
 */
import { Type } from '@sinclair/typebox';
import t from 'tap';
import { Email, Nullable, Text, Url } from '../../src/jsonapi/types.js';
import { readChoice } from '../../src/transfer/repairs/choices.js';
import { readColor } from '../../src/transfer/repairs/colors.js';
import { readDateTime, writtenInstant } from '../../src/transfer/repairs/dates.js';
import { formFieldsOf, isOldFormRecord } from '../../src/transfer/repairs/forms.js';
import { idKey, oldIdOrder } from '../../src/transfer/repairs/ids.js';
import { parseJson } from '../../src/transfer/repairs/json.js';
import { readLength } from '../../src/transfer/repairs/lengths.js';
import { mediaEntries } from '../../src/transfer/repairs/media-paths.js';
import { resolveTimeZone, type ZoneHints } from '../../src/transfer/repairs/time-zones.js';
import { readField, type FieldRule } from '../../src/transfer/repairs/values.js';
import { describe, ImportError, Warnings, WARNINGS_KEPT } from '../../src/transfer/repairs/warnings.js';

t.test('JSON: valid text as it is, broken text repaired where that gives a list or an object', async (t) => {
  t.strictSame(parseJson('[{"id": 1}]'), { value: [{ id: 1 }], repaired: false });
  t.strictSame(parseJson('\uFEFF{"a": 1}'), { value: { a: 1 }, repaired: false }, 'a byte order mark is no repair');
  t.strictSame(
    parseJson('[{"id": 1}\n{"id": 2}]'),
    { value: [{ id: 1 }, { id: 2 }], repaired: true },
    'a missing comma',
  );
  t.strictSame(parseJson('[{"id": 1},]'), { value: [{ id: 1 }], repaired: true }, 'a trailing comma');
  t.strictSame(
    parseJson("[{'id': 1, name: 'x'}]"),
    { value: [{ id: 1, name: 'x' }], repaired: true },
    'single quotes, a bare key',
  );
  t.strictSame(parseJson('[{"id": 3, "name": '), { value: [{ id: 3, name: null }], repaired: true }, 'a cut-off end');
  for (const text of ['{{{', 'hello world', '<html>', '']) {
    t.match(parseJson(text), { error: String }, `${JSON.stringify(text)}: unreadable`);
  }
});

t.test('ids: numbers and numeric text are the same id; records in ascending old-id order', async (t) => {
  t.equal(idKey(12), '12');
  t.equal(idKey('12'), '12');
  t.equal(idKey(' 012 '), '12');
  t.equal(idKey({ id: '7', name: 'x' }), '7', 'a nested object stands for its id');
  for (const value of ['abc', 1.5, -1, null, undefined, '', true, { name: 'x' }, [1]])
    t.equal(idKey(value), undefined, `${JSON.stringify(value)}: no id`);
  const order = oldIdOrder([
    { key: '10' },
    { key: undefined, n: 'a' },
    { key: '9' },
    { key: undefined, n: 'b' },
    { key: '100' },
  ]);
  t.strictSame(
    order,
    [{ key: '9' }, { key: '10' }, { key: '100' }, { key: undefined, n: 'a' }, { key: undefined, n: 'b' }],
    'numeric order, then those without an id',
  );
});

t.test('date-times: offsets as written, local times in the event zone, dates alone as whole days', async (t) => {
  t.strictSame(
    readDateTime('2016-06-30T19:00:00+02:00', 'America/New_York'),
    { iso: '2016-06-30T17:00:00.000Z' },
    'an offset is the instant',
  );
  t.strictSame(readDateTime('2016-06-30T19:00:00Z', 'Asia/Tokyo'), { iso: '2016-06-30T19:00:00.000Z' });
  t.strictSame(
    readDateTime('2018-05-08T10:11:23.067409+02:00', 'UTC'),
    { iso: '2018-05-08T08:11:23.067Z' },
    'microseconds',
  );
  t.strictSame(readDateTime('2016-06-30T19:00:00', 'America/New_York'), {
    iso: '2016-06-30T23:00:00.000Z',
    note: 'a local time: read in America/New_York as 2016-06-30T19:00:00-04:00',
  });
  t.strictSame(
    readDateTime('2016-06-30 19:00', 'Europe/Berlin'),
    {
      iso: '2016-06-30T17:00:00.000Z',
      note: 'a local time: read in Europe/Berlin as 2016-06-30T19:00:00+02:00',
    },
    'SQL-like',
  );
  t.strictSame(
    readDateTime('Thu, 30 Jun 2016 19:00:00 +0000', 'Europe/Berlin'),
    { iso: '2016-06-30T19:00:00.000Z' },
    'RFC 2822',
  );
  t.strictSame(readDateTime('2016-06-30', 'Europe/Berlin'), {
    iso: '2016-06-29T22:00:00.000Z',
    note: 'a date without a time: read as the start of that day in Europe/Berlin, 2016-06-30T00:00:00+02:00',
  });
  t.strictSame(
    readDateTime('2016-6-3', 'UTC', { end: true }),
    {
      iso: '2016-06-04T00:00:00.000Z',
      note: 'a date without a time: read as the end of that day in UTC, 2016-06-04T00:00:00Z',
    },
    'the end of a day is the start of the next',
  );
  t.equal(readDateTime('  ', 'UTC'), null, 'empty text is no date');
  for (const value of ['tomorrow at ten', '2016-13-45T10:00:00Z', 1467313200, '10000-01-01T00:00:00Z', {}]) {
    t.match(readDateTime(value, 'UTC'), { error: String }, `${JSON.stringify(value)}: unreadable`);
  }
  t.strictSame(
    writtenInstant('2017-06-26T12:00:00-07:00'),
    { at: new Date('2017-06-26T19:00:00Z'), offset: -420 },
    'the offset as written',
  );
  t.strictSame(
    writtenInstant('2017-06-26T12:00:00'),
    { at: new Date('2017-06-26T12:00:00Z') },
    'a local time has none',
  );
  t.equal(writtenInstant('soon'), undefined);
});

t.test('time zones: IANA names and links, spacing, Windows and CLDR names, offsets, the place', async (t) => {
  const none: ZoneHints = { dates: [] };
  const summer = (offset: number): ZoneHints => ({ dates: [{ at: new Date('2017-06-26T19:00:00Z'), offset }] });
  t.strictSame(resolveTimeZone('Europe/Berlin', none), { zone: 'Europe/Berlin' });
  t.strictSame(resolveTimeZone('US/Pacific', none), { zone: 'America/Los_Angeles' }, 'a link is an IANA name: no note');
  t.strictSame(resolveTimeZone('europe/berlin', none), { zone: 'Europe/Berlin' }, 'letter case');
  t.strictSame(resolveTimeZone('US / Eastern', none), { zone: 'America/New_York', note: 'read as America/New_York' });
  t.strictSame(resolveTimeZone('America/New York', none), {
    zone: 'America/New_York',
    note: 'read as America/New_York',
  });
  t.strictSame(resolveTimeZone('Eastern Standard Time', none), {
    zone: 'America/New_York',
    note: 'a Windows zone name: read as America/New_York',
  });
  t.strictSame(resolveTimeZone('W. Europe Standard Time', none), {
    zone: 'Europe/Berlin',
    note: 'a Windows zone name: read as Europe/Berlin',
  });
  t.strictSame(
    resolveTimeZone('Hawaii-Aleutian', { dates: [], latitude: 19.92, longitude: -155.89 }),
    {
      zone: 'Pacific/Honolulu',
      note: 'read as Pacific/Honolulu',
    },
    'a CLDR name that fits two zones: the one at the place',
  );
  t.strictSame(
    resolveTimeZone('Hawaii-Aleutian', summer(-540)),
    { zone: 'America/Adak', note: 'read as America/Adak' },
    'or the one keeping the offset of the dates',
  );
  t.strictSame(resolveTimeZone('Pacific Time', summer(-420)), {
    zone: 'America/Los_Angeles',
    note: 'read as America/Los_Angeles',
  });
  t.strictSame(resolveTimeZone('UTC+2', none), { zone: 'Etc/GMT-2', note: 'a fixed offset: read as Etc/GMT-2' });
  t.strictSame(resolveTimeZone('Mars/Olympus', summer(480)), {
    zone: 'Etc/GMT-8',
    note: "not a time zone: Etc/GMT-8, from the offset +08:00 of the event's dates",
  });
  t.strictSame(resolveTimeZone('', { ...summer(120), latitude: 52.52, longitude: 13.4 }), {
    zone: 'Europe/Berlin',
    note: "missing: Europe/Berlin, the zone at the event's place",
  });
  t.strictSame(
    resolveTimeZone('Mars/Olympus', { ...summer(480), latitude: 52.52, longitude: 13.4 }),
    {
      zone: 'Etc/GMT-8',
      note: "not a time zone: Etc/GMT-8, from the offset +08:00 of the event's dates",
    },
    'a place whose zone contradicts the dates is not taken',
  );
  t.strictSame(resolveTimeZone(undefined, none), {
    zone: 'UTC',
    note: "missing, and neither the event's dates nor its place tell one: UTC",
  });
});

t.test('lengths: HH:MM from the spellings of old archives, a day or more cut to 23:59', async (t) => {
  const cases: [unknown, string, string | undefined][] = [
    ['00:30', '00:30', undefined],
    ['00.45', '00:45', 'read as 00:45'],
    ['0:45', '00:45', 'read as 00:45'],
    ['2:00', '02:00', 'read as 02:00'],
    ['3.30', '03:30', 'read as 03:30'],
    ['3 hours', '03:00', 'read as 03:00'],
    ['90 min', '01:30', 'read as 01:30'],
    ['1h30', '01:30', 'read as 01:30'],
    ['1 hour 30 minutes', '01:30', 'read as 01:30'],
    ['24.00', '23:59', 'longer than a length can be: cut to 23:59'],
  ];
  for (const [value, length, note] of cases)
    t.strictSame(readLength(value), note ? { value: length, note } : { value: length }, JSON.stringify(value));
  for (const value of ['45', 0.5, '1:75', 'an hour', '', null])
    t.match(readLength(value), { error: String }, `${JSON.stringify(value)}: no length`);
});

t.test('colours: #rrggbb from short hex, bare hex, rgb() and CSS names', async (t) => {
  t.strictSame(readColor('#A04B23'), { value: '#a04b23' }, 'letter case alone is no repair');
  t.strictSame(readColor('#abc'), { value: '#aabbcc', note: 'read as #aabbcc' });
  t.strictSame(readColor('a04b23'), { value: '#a04b23', note: 'read as #a04b23' });
  t.strictSame(readColor('rgb(255, 0, 10)'), { value: '#ff000a', note: 'read as #ff000a' });
  t.strictSame(readColor('red'), { value: '#ff0000', note: 'read as #ff0000' });
  t.strictSame(readColor('Dark Slate Gray'), { value: '#2f4f4f', note: 'read as #2f4f4f' });
  for (const value of ['blurple', 'constructor', 'rgb(300, 0, 0)', 12, null])
    t.match(readColor(value), { error: String }, `${JSON.stringify(value)}: no colour`);
});

t.test('enumerations: letter case, the vocabulary of older versions, and `*` for any other word', async (t) => {
  const states = ['draft', 'published'];
  const vocabulary = { completed: 'published', 'call for papers': 'published' };
  t.strictSame(readChoice('published', states, vocabulary), { value: 'published' });
  t.strictSame(readChoice('Published', states, vocabulary), { value: 'published', note: 'read as "published"' });
  t.strictSame(readChoice(' COMPLETED ', states, vocabulary), { value: 'published', note: 'read as "published"' });
  t.strictSame(readChoice('Call_for-Papers', states, vocabulary), { value: 'published', note: 'read as "published"' });
  t.strictSame(readChoice('archived', states, vocabulary), { error: 'not one of "draft", "published"' });
  t.strictSame(readChoice('secret', ['public', 'private'], { '*': 'private' }), {
    value: 'private',
    note: 'read as "private"',
  });
});

t.test('values by their schema: numbers, booleans, text, URLs and e-mail addresses written loosely', async (t) => {
  const rule = (schema: FieldRule['schema'], more: Partial<FieldRule> = {}): FieldRule => ({
    schema,
    zone: 'UTC',
    ...more,
  });
  const integer = rule(Nullable(Type.Integer({ minimum: 0, maximum: 10 })));
  t.strictSame(readField(integer, '4'), { value: 4, note: 'read as 4' }, 'a number as text');
  t.strictSame(readField(integer, 4), { value: 4 });
  t.strictSame(readField(integer, ''), { value: null }, 'empty text is no number');
  t.strictSame(readField(integer, '2.5'), { drop: 'not a whole number' });
  t.strictSame(readField(integer, 11), { drop: 'must be <= 10' });
  const flag = rule(Type.Boolean());
  t.strictSame(readField(flag, 'yes'), { value: true, note: 'read as true' });
  t.strictSame(readField(flag, 0), { value: false, note: 'read as false' });
  t.strictSame(readField(flag, null), { absent: true }, 'null is no value where null is not taken');
  t.strictSame(readField(flag, 'maybe'), { drop: 'not true or false' });
  const text = rule(Nullable(Text(5)));
  t.strictSame(readField(text, 12), { value: '12', note: 'read as text' });
  t.strictSame(readField(text, 'abcdefgh'), { value: 'abcde', note: 'longer than 5 characters: cut' });
  t.strictSame(readField(text, 'a\u0000b'), { value: 'ab', note: 'NUL characters removed' });
  t.strictSame(readField(text, ''), { value: '' }, 'empty text stays text');
  t.strictSame(
    readField(rule(Text(5, { minLength: 1 })), ' '),
    { absent: true },
    'blank text is none where text is required',
  );
  t.strictSame(readField(text, { a: 1 }), { drop: 'not text' });
  const url = rule(Nullable(Url()));
  t.strictSame(readField(url, 'https://example.com/a'), { value: 'https://example.com/a' });
  t.strictSame(readField(url, 'www.example.com'), {
    value: 'http://www.example.com',
    note: 'read as http://www.example.com',
  });
  t.strictSame(readField(url, 'github.com/ada'), {
    value: 'http://github.com/ada',
    note: 'read as http://github.com/ada',
  });
  t.strictSame(readField(url, '//cdn.example.com/x.png'), {
    value: 'https://cdn.example.com/x.png',
    note: 'read as https://cdn.example.com/x.png',
  });
  t.strictSame(readField(url, ' https://example.com'), {
    value: 'https://example.com',
    note: 'read as "https://example.com"',
  });
  t.strictSame(readField(url, 'https: //example.com/x'), {
    value: 'https://example.com/x',
    note: 'read as "https://example.com/x"',
  });
  t.strictSame(readField(url, 'https://a.example, https://b.example'), {
    value: 'https://a.example',
    note: 'several addresses: the first is kept: read as "https://a.example"',
  });
  t.strictSame(readField(url, 'https://a.example/x/, www.b.example,  http://c.example/'), {
    value: 'https://a.example/x/',
    note: 'several addresses: the first is kept: read as "https://a.example/x/"',
  });
  t.strictSame(readField(url, 'https://example.com/in/bähr'), {
    value: 'https://example.com/in/b%C3%A4hr',
    note: 'read as "https://example.com/in/b%C3%A4hr"',
  });
  t.strictSame(
    readField(url, 'https://example.com/x leads the team'),
    { drop: 'not a valid URL' },
    'text pasted after an address',
  );
  t.strictSame(readField(url, 'ftp://example.com/x'), { drop: 'not an http(s) URL' });
  const email = rule(Nullable(Email()));
  t.strictSame(readField(email, 'mailto:ada@example.com'), {
    value: 'ada@example.com',
    note: 'read as "ada@example.com"',
  });
  t.strictSame(readField(email, 'http://about.me/ada'), { drop: 'not an e-mail address' });
  t.strictSame(readField(email, ''), { value: null });
  const state = rule(Type.Union([Type.Literal('draft'), Type.Literal('published')]), {
    vocabulary: { completed: 'published' },
  });
  t.strictSame(readField(state, 'Completed'), { value: 'published', note: 'read as "published"' });
  t.strictSame(readField(state, 'gone'), { drop: 'not one of "draft", "published"' });
  const date = rule(Nullable(Type.String({ format: 'date-time' })), { zone: 'Asia/Singapore', end: true });
  t.strictSame(readField(date, '2018-03-22'), {
    value: '2018-03-22T16:00:00.000Z',
    note: 'a date without a time: read as the end of that day in Asia/Singapore, 2018-03-23T00:00:00+08:00',
  });
  const special = rule(Type.String(), { special: (v) => (v === 'x' ? { value: 'y', note: 'mine' } : undefined) });
  t.strictSame(readField(special, 'x'), { value: 'y', note: 'mine' }, "a field's own reading");
  t.strictSame(readField(special, 'z'), { value: 'z' }, "or, where it declines, the schema's");
});

t.test(
  'media paths: exactly or without extension; with a note, another normalisation, letter case, mojibake or extension',
  async (t) => {
    const nfd = 'images/speakers/Franc\u0327ois.jpg';
    const find = mediaEntries([
      'images/logo.png',
      nfd,
      'images/speakers/ADA.JPG',
      'images/banner.png',
      'images/two.png',
      'images/two.gif',
    ]);
    t.strictSame(find('images/logo.png'), { entry: 'images/logo.png' });
    t.strictSame(
      find('/images/logo'),
      { entry: 'images/logo.png' },
      'a leading slash and no extension: how the reference exported media',
    );
    const loose = (entry: string) => ({ entry, note: `read as the archive's file ${entry}` });
    t.strictSame(find('images/speakers/Fran\u00e7ois.jpg'), loose(nfd), 'NFC names the NFD entry');
    t.strictSame(find('/images/speakers/FranÃ§ois.jpg'), loose(nfd), 'UTF-8 read as Latin-1');
    t.strictSame(find('images/speakers/ada.jpg'), loose('images/speakers/ADA.JPG'), 'letter case');
    t.strictSame(find('/images/banner.jpg'), loose('images/banner.png'), 'another extension, one such file');
    t.equal(find('images/two.jpg'), undefined, 'another extension, two such files: ambiguous');
    t.equal(find('images/missing.png'), undefined);
  },
);

t.test(
  'old form settings: one record of JSON texts becomes form fields with the identifiers of this service',
  async (t) => {
    const warnings = new Warnings();
    const record = {
      id: 3,
      session_form:
        '{"title": {"require": 1, "include": 1}, "short_abstract": {"require": 0, "include": 1}, "slides": {"require": 0, "include": 0}}',
      'speaker-form': { email: { require: 1, include: 1 }, photo: { require: 0, include: 1 } },
    };
    t.ok(isOldFormRecord(record));
    t.notOk(isOldFormRecord({ id: 1, form: 'session', field_identifier: 'title' }));
    t.strictSame(formFieldsOf(record, 'forms', warnings), [
      { form: 'session', field_identifier: 'title', type: 'text', is_included: true, is_required: true },
      { form: 'session', field_identifier: 'shortAbstract', type: 'text', is_included: true, is_required: false },
      { form: 'session', field_identifier: 'slidesUrl', type: 'text', is_included: false, is_required: false },
      { form: 'speaker', field_identifier: 'email', type: 'email', is_included: true, is_required: true },
      { form: 'speaker', field_identifier: 'photoUrl', type: 'image', is_included: true, is_required: false },
    ]);
    t.strictSame(
      warnings.items.map((w) => w.action),
      [
        'the older form settings format: read as 3 session form fields',
        'the older form settings format: read as 2 speaker form fields',
      ],
    );
    t.strictSame(formFieldsOf({ id: 4, session_form: 'not json {' }, 'forms', warnings), []);
    t.match(warnings.items[2], { id: 4, field: 'session_form', action: 'not readable form settings: dropped' });
  },
);

t.test('warnings: counted, the first kept, values cut, NULs shown; a strict import stops at the first', async (t) => {
  const warnings = new Warnings();
  for (let i = 0; i < WARNINGS_KEPT + 5; i++)
    warnings.add({ file: 'sessions', id: i, field: 'state', value: 'x', action: 'a' });
  t.equal(warnings.summary().total, WARNINGS_KEPT + 5);
  t.equal(warnings.summary().items.length, WARNINGS_KEPT);
  const one = new Warnings();
  one.add({ file: 'speakers', id: 'a\u0000b', field: 'bio', value: 'x'.repeat(300), action: 'cut\u0000' });
  one.add({ file: 'tracks.json', action: 'not valid JSON: repaired' });
  one.add({ file: 'event', id: 7, field: 'copyright', value: { nested: 'a\u0000' }, action: 'kept' });
  t.strictSame(one.items[0], {
    file: 'speakers',
    id: 'a\\0b',
    field: 'bio',
    value: `${'x'.repeat(200)}…`,
    action: 'cut\\0',
  });
  t.strictSame(one.items[1], {
    file: 'tracks.json',
    id: null,
    field: null,
    value: null,
    action: 'not valid JSON: repaired',
  });
  t.strictSame(one.items[2]!.value, '{"nested":"a\\0"}', 'a structure with a NUL as its text');
  t.equal(
    describe({ file: 'sessions', id: 32, field: 'state', value: 'Foo', action: 'unknown' }),
    'File sessions, ID 32: state "Foo": unknown',
  );
  t.equal(
    describe({ file: 'tracks.json', id: null, field: null, value: null, action: 'repaired' }),
    'File tracks.json: repaired',
  );
  const strict = new Warnings(true);
  strict.add({ file: 'event', field: 'email', value: 'x', action: 'not carried over' }, { strictAccepts: true });
  t.equal(strict.total, 1, 'a field this service has no place for is accepted');
  t.throws(
    () =>
      strict.add({ file: 'sessions', id: 41, field: 'starts_at', value: 'soon', action: 'not a date-time: left out' }),
    new ImportError(
      'File sessions, ID 41: starts_at "soon": not a date-time: left out (a strict import refuses the archive instead)',
    ),
  );
});
