/**
 * Bad input to the simple records of an event: copyright, social links, microlocations, sponsors,
 * tracks and session types. The event's owner sends every request, so only validation decides:
 * each answer is a 4xx error document with the expected status and source, never a 500, and no
 * table changes.
 */
import t, { type Test } from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import {
  buildWorld,
  create,
  eventAttributes,
  expectRefused,
  rel,
  snapshotOf,
  type EventRecords,
  type RefusedCase,
} from '../helpers/events.js';
import { expectError } from '../helpers/users.js';

/** [what, body (a string is sent as is), status, pointer when one is expected]. */
type Case = RefusedCase<unknown>;
/** [attribute, value, what]: a value refused with 422 at that attribute, on create and update. */
type Wrong = [string, unknown, string];

interface Kind {
  path: string;
  type: string;
  table: string;
  record: keyof EventRecords;
  valid: Record<string, unknown>;
  /** A required text attribute, for the generic text cases. */
  text: string;
  required: string[];
  wrong: Wrong[];
}

const at = (name: string) => `/data/attributes/${name}`;
const thisYear = new Date().getUTCFullYear();
const URLS = (name: string): Wrong[] => [
  [name, 'not a url', 'not a URL'],
  [name, 'ftp://example.com/x', 'an ftp URL'],
  [name, 'javascript:alert(1)', 'a javascript: URL'],
  [name, `https://example.com/${'x'.repeat(2048)}`, 'a URL over 2048 characters'],
];

const KINDS: Kind[] = [
  {
    path: 'event-copyrights',
    type: 'event-copyright',
    table: 'event_copyrights',
    record: 'copyright',
    valid: { holder: 'FOSSASIA', licence: 'CC BY 4.0', year: 2020 },
    text: 'licence',
    required: ['licence'],
    wrong: [
      ['year', 1899, 'before 1900'],
      ['year', thisYear + 1, 'next year'],
      ['year', 10_000, 'a five-digit year'],
      ['year', 2020.5, 'a fractional year'],
      ['year', '2020', 'a year as a string'],
      ['holder', 'h'.repeat(256), 'over maxLength 255'],
      ...URLS('licence-url'),
      ['holder-url', 'mailto:x@example.com', 'a mailto: URL'],
    ],
  },
  {
    path: 'social-links',
    type: 'social-link',
    table: 'social_links',
    record: 'socialLink',
    valid: { name: 'Mastodon', link: 'https://example.social/@event' },
    text: 'name',
    required: ['name', 'link'],
    wrong: [
      ...URLS('link'),
      ['link', null, 'a required link cleared'],
      ['identifier', 'i'.repeat(256), 'over maxLength 255'],
    ],
  },
  {
    path: 'microlocations',
    type: 'microlocation',
    table: 'microlocations',
    record: 'microlocation',
    valid: { name: 'Hall B', floor: 2 },
    text: 'name',
    required: ['name'],
    wrong: [
      ['latitude', 91, 'latitude above 90'],
      ['latitude', -91, 'latitude below -90'],
      ['longitude', -181, 'longitude below -180'],
      ['longitude', 181, 'longitude above 180'],
      ['longitude', '13.4 E', 'longitude as a string that is not a number'],
      ['floor', 1.5, 'a fractional floor'],
      ['floor', 2147483648, 'a floor beyond int32'],
      ['position', -1, 'a negative position'],
      ['position', null, 'position cleared'],
      ['hidden-in-scheduler', 'yes', 'a boolean as "yes"'],
      ['hidden-in-scheduler', null, 'a boolean cleared'],
      ['is-chat-enabled', 'yes', 'a boolean as "yes"'],
      ['is-global-event-room', null, 'a boolean cleared'],
      ['room', 'r'.repeat(256), 'over maxLength 255'],
    ],
  },
  {
    path: 'sponsors',
    type: 'sponsor',
    table: 'sponsors',
    record: 'sponsor',
    valid: { name: 'Globex', level: 2 },
    text: 'name',
    required: ['name'],
    wrong: [
      ['level', -1, 'a negative level'],
      ['level', 'gold', 'a level as a word'],
      ['description', 'd'.repeat(100_001), 'over maxLength 100,000'],
      ['type', 't'.repeat(256), 'over maxLength 255'],
      ...URLS('url'),
      ['logo-url', 'data:image/png;base64,AAAA', 'a data: URL'],
    ],
  },
  {
    path: 'tracks',
    type: 'track',
    table: 'tracks',
    record: 'track',
    valid: { name: 'Mobile', color: '#1e90ff' },
    text: 'name',
    required: ['name', 'color'],
    wrong: [
      ['color', 'red', 'a colour name'],
      ['color', '#abc', 'a three-digit colour'],
      ['color', '#GGGGGG', 'not hex digits'],
      ['color', 'a04b23', 'no leading #'],
      ['color', '#a04b23 ', 'a trailing blank'],
      ['color', '#a04b2300', 'eight digits'],
      ['color', null, 'a required colour cleared'],
      ['font-color', '#000000', 'read-only font-color'],
      ['position', 1.5, 'a fractional position'],
    ],
  },
  {
    path: 'session-types',
    type: 'session-type',
    table: 'session_types',
    record: 'sessionType',
    valid: { name: 'Workshop', length: '01:30' },
    text: 'name',
    required: ['name', 'length'],
    wrong: [
      ['length', '30', 'minutes only'],
      ['length', '0:30', 'a one-digit hour'],
      ['length', '24:00', 'hour 24'],
      ['length', '00:60', 'minute 60'],
      ['length', '1h', 'a duration word'],
      ['length', '', 'empty'],
      ['length', '00:30:00', 'with seconds'],
      ['length', 30, 'a number'],
      ['length', null, 'a required length cleared'],
    ],
  },
];

/** Create bodies wrong for any kind; `event` is the event the valid parts name. */
function createCases(kind: Kind, event: string): Case[] {
  const { type, valid, text } = kind;
  const of = { event: rel('event', event) };
  // `null` leaves relationships out (an explicit undefined would take the default).
  const doc = (
    attributes: Record<string, unknown>,
    relationships: unknown = of,
    extra: Record<string, unknown> = {},
  ) => ({
    data: { type, attributes, ...(relationships === null ? {} : { relationships }), ...extra },
  });
  return [
    ['malformed JSON', `{"data":{"type":"${type}"`, 400],
    ['no data', {}, 422, '/data'],
    ['type is wrong', { data: { type: `${type}s`, attributes: valid, relationships: of } }, 409, '/data/type'],
    ['type of another resource', { data: { type: 'event', attributes: valid, relationships: of } }, 409, '/data/type'],
    ['client-generated id', doc(valid, of, { id: '777' }), 403, '/data/id'],
    ['relationships missing', doc(valid, null), 422, '/data/relationships'],
    ['event missing', doc(valid, {}), 422, '/data/relationships/event'],
    ['event is null', doc(valid, { event: { data: null } }), 422, '/data/relationships/event/data'],
    ['event of the wrong type', doc(valid, { event: rel('user', event) }), 409, '/data/relationships/event/data/type'],
    ['event that does not exist', doc(valid, { event: rel('event', '424242') }), 404],
    ['event id beyond int32', doc(valid, { event: rel('event', '99999999999') }), 404],
    ['event id that is a word', doc(valid, { event: rel('event', 'abc') }), 404],
    ['unknown relationship', doc(valid, { ...of, venue: rel('event', event) }), 422, '/data/relationships/venue'],
    ['unknown attribute', doc({ ...valid, bogus: 1 }), 422, at('bogus')],
    ['read-only deleted-at', doc({ ...valid, 'deleted-at': '2020-01-01T00:00:00Z' }), 422, at('deleted-at')],
    [`${text} is a number`, doc({ ...valid, [text]: 42 }), 422, at(text)],
    [`${text} is empty`, doc({ ...valid, [text]: '' }), 422, at(text)],
    [`${text} over 255 characters`, doc({ ...valid, [text]: 'x'.repeat(256) }), 422, at(text)],
    [`${text} with a NUL character`, doc({ ...valid, [text]: 'a\u0000b' }), 422, at(text)],
    ...kind.required.map((name): Case => [`${name} missing`, doc({ ...valid, [name]: undefined }), 422, at(name)]),
    ...kind.wrong.map(
      ([name, value, what]): Case => [`${name}: ${what}`, doc({ ...valid, [name]: value }), 422, at(name)],
    ),
  ];
}

/** Update bodies wrong for any kind, for the record `id` of `event`; `other` is another event. */
function updateCases(kind: Kind, id: string, other: string, otherRecord: string): Case[] {
  const { type, text } = kind;
  const doc = (attributes: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    data: { type, id, attributes, ...extra },
  });
  return [
    ['malformed JSON', '{"data":', 400],
    ['id missing', { data: { type, attributes: {} } }, 422, '/data/id'],
    ['id of a record of another event', { data: { type, id: otherRecord, attributes: {} } }, 409, '/data/id'],
    [
      'type is wrong',
      { data: { type: 'sponsor' === type ? 'track' : 'sponsor', id, attributes: {} } },
      409,
      '/data/type',
    ],
    [
      'event moved to another event',
      doc({}, { relationships: { event: rel('event', other) } }),
      422,
      '/data/relationships/event',
    ],
    ['event cleared', doc({}, { relationships: { event: { data: null } } }), 422, '/data/relationships/event/data'],
    ['unknown attribute', doc({ bogus: true }), 422, at('bogus')],
    ['read-only deleted-at', doc({ 'deleted-at': '2020-01-01T00:00:00Z' }), 422, at('deleted-at')],
    [`${text} cleared`, doc({ [text]: null }), 422, at(text)],
    [`${text} with a NUL character`, doc({ [text]: '\u0000' }), 422, at(text)],
    ...kind.wrong.map(([name, value, what]): Case => [`${name}: ${what}`, doc({ [name]: value }), 422, at(name)]),
  ];
}

t.test('bad input to the records of an event', async (t) => {
  const { app } = await buildTestApp(t);
  const world = await buildWorld(app);
  const { owner } = world.cast;
  // An event without a copyright, so that a create accepted by mistake would succeed and show.
  const bare = await create(app, owner.token, 'events', 'event', eventAttributes('Bare Event'));
  const tables = ['events', ...KINDS.map((k) => k.table)];
  const snapshot = snapshotOf(app, tables);
  const before = await snapshot();
  const each = (t: Test, cases: Case[], send: (body: unknown) => ReturnType<typeof call>) =>
    expectRefused(t, cases, send, snapshot, before);

  for (const kind of KINDS) {
    t.test(`POST /v1/${kind.path}`, async (t) => {
      await each(t, createCases(kind, bare), (body) =>
        call(app, { method: 'POST', url: `/v1/${kind.path}`, token: owner.token, body }),
      );
      const type = JSON.stringify({
        data: { type: kind.type, attributes: kind.valid, relationships: { event: rel('event', bare) } },
      });
      for (const contentType of ['application/json', 'application/vnd.api+json; charset=utf-8']) {
        const res = await call(app, {
          method: 'POST',
          url: `/v1/${kind.path}`,
          token: owner.token,
          body: type,
          headers: { 'content-type': contentType },
        });
        expectError(t, res, 415);
      }
      t.same(await snapshot(), before, 'nothing written');
    });

    t.test(`PATCH /v1/${kind.path}/{id}`, async (t) => {
      const id = world.published[kind.record];
      const cases = updateCases(kind, id, world.draft.event, world.draft[kind.record]);
      await each(t, cases, (body) =>
        call(app, { method: 'PATCH', url: `/v1/${kind.path}/${id}`, token: owner.token, body }),
      );
      const draftId = world.draft[kind.record];
      const moveBack = {
        data: { type: kind.type, id: draftId, relationships: { event: rel('event', world.published.event) } },
      };
      const res = await call(app, {
        method: 'PATCH',
        url: `/v1/${kind.path}/${draftId}`,
        token: owner.token,
        body: moveBack,
      });
      expectError(t, res, 422, { pointer: '/data/relationships/event' });
      const same = { data: { type: kind.type, id, relationships: { event: rel('event', world.published.event) } } };
      const ok = await call(app, { method: 'PATCH', url: `/v1/${kind.path}/${id}`, token: owner.token, body: same });
      t.equal(ok.status, 200, 'naming the same event again is accepted');
      t.same(await snapshot(), before, 'nothing written');
    });

    t.test(`ids and queries on /v1/${kind.path}`, async (t) => {
      for (const id of ['abc', '99999999999', '0', '-1', '1.5', '424242']) {
        expectError(t, await call(app, { url: `/v1/${kind.path}/${id}`, token: owner.token }), 404, {
          detail: 'Object not found.',
        });
        const body = { data: { type: kind.type, id, attributes: {} } };
        expectError(
          t,
          await call(app, { method: 'PATCH', url: `/v1/${kind.path}/${id}`, token: owner.token, body }),
          404,
        );
        expectError(t, await call(app, { method: 'DELETE', url: `/v1/${kind.path}/${id}`, token: owner.token }), 404);
      }
      const list = `/v1/events/${world.published.event}/${kind.path === 'event-copyrights' ? 'event-copyright' : kind.path}`;
      const bad: [string, string][] = [
        ['sort=bogus', 'sort'],
        [`filter=${encodeURIComponent('[{"name":"bogus","op":"eq","val":1}]')}`, 'filter'],
        [`filter=${encodeURIComponent('[{"name":"event-id","op":"eq","val":1}]')}`, 'filter'],
        ['include=bogus', 'include'],
      ];
      for (const [query, parameter] of bad) {
        expectError(t, await call(app, { url: `/v1/${kind.path}?${query}`, token: owner.token }), 400, { parameter });
        if (kind.path !== 'event-copyrights')
          expectError(t, await call(app, { url: `${list}?${query}`, token: owner.token }), 400, { parameter });
      }
      t.same(await snapshot(), before, 'nothing written');
    });
  }

  t.test('copyright: one per event, also through the alias path', async (t) => {
    const duplicate = {
      data: {
        type: 'event-copyright',
        attributes: { licence: 'MIT' },
        relationships: { event: rel('event', world.published.event) },
      },
    };
    const res = await call(app, { method: 'POST', url: '/v1/event-copyrights', token: owner.token, body: duplicate });
    expectError(t, res, 409, { pointer: '/data/relationships/event' });
    const id = world.published.copyright;
    const alias = `/v1/event-copyright/${id}`;
    const mismatch = { data: { type: 'event-copyright', id: world.draft.copyright, attributes: { year: 2021 } } };
    expectError(t, await call(app, { method: 'PATCH', url: alias, token: owner.token, body: mismatch }), 409, {
      pointer: '/data/id',
    });
    const future = { data: { type: 'event-copyright', id, attributes: { year: thisYear + 1 } } };
    expectError(t, await call(app, { method: 'PATCH', url: alias, token: owner.token, body: future }), 422, {
      pointer: at('year'),
    });
    expectError(t, await call(app, { url: '/v1/event-copyright/abc', token: owner.token }), 404);
    t.same(await snapshot(), before, 'nothing written');
  });
});
