/**
 * Bad input to sessions and speakers: their create, update and relationship routes, the create
 * routes under /v1/events/{id}/speakers, /v1/sessions/{id}/speakers and /v1/users/{id}/speakers,
 * and filter/sort on the speakers' private attributes. The event's owner sends every write, so only
 * validation decides: a 4xx error document with the expected status and source, and nothing written.
 */
import t, { type Test } from 'tap';
import { buildTestApp, call, type Call } from '../helpers/app.js';
import { buildWorld, create, expectRefused, rel, snapshotOf, type RefusedCase } from '../helpers/events.js';
import { expectError, seedUser } from '../helpers/users.js';

/** [what, method and url and body, status, pointer when one is expected]. */
type Case = RefusedCase<Omit<Call, 'token'>>;

const at = (name: string) => `/data/attributes/${name}`;
const links = (type: string, ...ids: string[]) => ({ data: ids.map((id) => ({ type, id })) });
const post = (url: string, body: unknown) => ({ method: 'POST' as const, url, body });
const patch = (url: string, body: unknown) => ({ method: 'PATCH' as const, url, body });
const URL_CASES = ['ftp://example.com/x', 'javascript:alert(1)', 'example.com/no-scheme'];
const THOUSAND_AND_ONE = Array.from({ length: 1001 }, (_, i) => String(i + 1));

t.test('bad input to sessions and speakers', async (t) => {
  const { app } = await buildTestApp(t);
  const world = await buildWorld(app);
  const { cast, published: pub, draft } = world;
  const token = cast.owner.token;
  // A second speaker in the published event (for duplicate emails) and a deleted track (for 404s).
  const grace = await create(
    app,
    token,
    'speakers',
    'speaker',
    { name: 'Grace', email: 'grace@example.com' },
    { event: rel('event', pub.event) },
  );
  const goneTrack = await create(
    app,
    token,
    'tracks',
    'track',
    { name: 'Gone', color: '#000000' },
    { event: rel('event', pub.event) },
  );
  await call(app, { method: 'DELETE', url: `/v1/tracks/${goneTrack}`, token });
  const goneUser = await seedUser(app);
  await call(app, { method: 'DELETE', url: `/v1/users/${goneUser.id}`, token: cast.admin.token });
  const adaEmail = `ada-${pub.event}@example.com`;

  const tables = ['sessions', 'speakers', 'speakers_sessions', 'tracks'];
  const snapshot = snapshotOf(app, tables);
  const before = await snapshot();
  const each = (t: Test, cases: Case[]) =>
    expectRefused(t, cases, (request) => call(app, { ...request, token }), snapshot, before);

  t.test('sessions', async (t) => {
    const valid = { title: 'Keynote', 'starts-at': '2030-05-02T10:00:00Z', 'ends-at': '2030-05-02T11:00:00Z' };
    const of = { event: rel('event', pub.event) };
    const make = (attributes: Record<string, unknown>, relationships: Record<string, unknown> = of, extra = {}) =>
      post('/v1/sessions', { data: { type: 'session', attributes, relationships, ...extra } });
    const id = pub.session;
    const change = (attributes: Record<string, unknown>, relationships?: Record<string, unknown>) =>
      patch(`/v1/sessions/${id}`, {
        data: { type: 'session', id, attributes, ...(relationships ? { relationships } : {}) },
      });
    const wrong: [string, unknown, string, string?][] = [
      ['title', 42, 'a number'],
      ['title', '', 'empty'],
      ['title', 't'.repeat(256), 'over maxLength 255'],
      ['title', 'a\u0000b', 'a NUL character'],
      ['subtitle', 's'.repeat(256), 'over maxLength 255'],
      ['level', 'l'.repeat(33), 'over maxLength 32'],
      ['short-abstract', 'a'.repeat(10_001), 'over maxLength 10,000'],
      ['long-abstract', 'x\u0000', 'a NUL character'],
      ['language', 'l'.repeat(65), 'over maxLength 64'],
      ['state', 'published', 'an unknown state'],
      ['state', 'Accepted', 'a state in the wrong case'],
      ['state', 3, 'a state as a number'],
      ['starts-at', 'noon', 'not a date-time'],
      ['ends-at', '2030-02-30T10:00:00Z', 'February 30'],
      ['submitted-at', '2030-05-01 10:00', 'a date-time without T and zone'],
      ...URL_CASES.map((url, i): [string, unknown, string] => [
        ['slides-url', 'video-url', 'signup-url'][i]!,
        url,
        `URL ${url}`,
      ]),
      ['created-at', '2020-01-01T00:00:00Z', 'read-only created-at'],
      ['deleted-at', '2020-01-01T00:00:00Z', 'read-only deleted-at'],
      ['last-modified-at', '2020-01-01T00:00:00Z', 'read-only last-modified-at'],
      ['speaker-ids', [1], 'an unknown attribute'],
      ...URL_CASES.map((url, i): [string, unknown, string] => [
        ['gitlab', 'mastodon', 'linkedin'][i]!,
        url,
        `URL ${url}`,
      ]),
      ['website', 'w'.repeat(2049), 'a URL over 2048 characters'],
      ['twitter', 42, 'a number'],
      ['slides', { name: 'a', link: 'https://example.com/a.pdf' }, 'one document, not in a list'],
      ['slides', 'https://example.com/a.pdf', 'a string'],
      ['slides', Array.from({ length: 21 }, () => ({ name: 'a', link: '' })), '21 documents'],
      ['slides', [{ name: 'a' }], 'a document without link', at('slides/0/link')],
      [
        'slides',
        [{ name: 'a', link: 'javascript:alert(1)' }],
        'a document link that is no http(s) URL',
        at('slides/0/link'),
      ],
      ['slides', [{ name: 'a', link: '', size: 3 }], 'a document with an extra member', at('slides/0/size')],
      ['slides', [{ name: 'n'.repeat(256), link: '' }], 'a document name over 255 characters', at('slides/0/name')],
      ['slides', [{ name: 'a\u0000', link: '' }], 'a document name with a NUL character'],
      ['complex-field-values', [1, 2], 'a list'],
      ['complex-field-values', 'shirt=L', 'a string'],
      ['complex-field-values', { shirt: { size: 'L' } }, 'a nested object', at('complex-field-values/shirt')],
      ['complex-field-values', { shirt: ['L'] }, 'a list value', at('complex-field-values/shirt')],
      ['complex-field-values', { 'bad key!': 'x' }, 'a key with blanks and punctuation'],
      [
        'complex-field-values',
        { shirt: 'x'.repeat(10_001) },
        'a value over 10,000 characters',
        at('complex-field-values/shirt'),
      ],
      ['complex-field-values', Object.fromEntries(Array.from({ length: 31 }, (_, i) => [`f${i}`, i])), '31 fields'],
      ['send-email', 'true', 'a boolean as a string'],
      ['is-locked', null, 'a boolean cleared'],
      ['is-mail-sent', 1, 'a boolean as 1'],
    ];
    await each(t, [
      ['malformed JSON', { method: 'POST', url: '/v1/sessions', body: '{"data":' }, 400],
      [
        'type is wrong',
        post('/v1/sessions', { data: { type: 'talk', attributes: valid, relationships: of } }),
        409,
        '/data/type',
      ],
      ['client-generated id', make(valid, of, { id: '5' }), 403, '/data/id'],
      ['event missing', make(valid, {}), 422, '/data/relationships/event'],
      ['title missing', make({ ...valid, title: undefined }), 422, at('title')],
      ['ends-at before starts-at', make({ ...valid, 'ends-at': '2030-05-02T09:00:00Z' }), 422, at('ends-at')],
      ['ends-at equal to starts-at', make({ ...valid, 'ends-at': valid['starts-at'] }), 422, at('ends-at')],
      [
        'read-only creator',
        make(valid, { ...of, creator: rel('user', cast.other.id) }),
        422,
        '/data/relationships/creator',
      ],
      [
        'unknown relationship',
        make(valid, { ...of, room: rel('microlocation', pub.microlocation) }),
        422,
        '/data/relationships/room',
      ],
      [
        'track of another event',
        make(valid, { ...of, track: rel('track', draft.track) }),
        422,
        '/data/relationships/track',
      ],
      [
        'microlocation of another event',
        make(valid, { ...of, microlocation: rel('microlocation', draft.microlocation) }),
        422,
        '/data/relationships/microlocation',
      ],
      [
        'session-type of another event',
        make(valid, { ...of, 'session-type': rel('session-type', draft.sessionType) }),
        422,
        '/data/relationships/session-type',
      ],
      [
        'a speaker of another event',
        make(valid, { ...of, speakers: links('speaker', pub.speaker, draft.speaker) }),
        422,
        '/data/relationships/speakers',
      ],
      [
        'all in the draft event but the session',
        make(valid, { ...of, track: rel('track', draft.track), speakers: links('speaker', draft.speaker) }),
        422,
        '/data/relationships/track',
      ],
      ['track that does not exist', make(valid, { ...of, track: rel('track', '424242') }), 404],
      ['track that was deleted', make(valid, { ...of, track: rel('track', goneTrack) }), 404],
      ['microlocation id that is a word', make(valid, { ...of, microlocation: rel('microlocation', 'abc') }), 404],
      ['speaker id beyond int32', make(valid, { ...of, speakers: links('speaker', '99999999999') }), 404],
      [
        'track of the wrong type',
        make(valid, { ...of, track: rel('microlocation', pub.microlocation) }),
        409,
        '/data/relationships/track/data/type',
      ],
      [
        'speaker of the wrong type',
        make(valid, { ...of, speakers: links('user', cast.speaker.id) }),
        409,
        '/data/relationships/speakers/data/0/type',
      ],
      [
        'over 1000 speakers',
        make(valid, { ...of, speakers: links('speaker', ...THOUSAND_AND_ONE) }),
        422,
        '/data/relationships/speakers/data',
      ],
      [
        'speakers is not a list',
        make(valid, { ...of, speakers: rel('speaker', pub.speaker) }),
        422,
        '/data/relationships/speakers/data',
      ],
      ...wrong.map(
        ([name, value, what, pointer]): Case => [
          `create, ${name}: ${what}`,
          make({ ...valid, [name]: value }),
          422,
          pointer ?? at(name),
        ],
      ),
      [
        'PATCH id of another session',
        patch(`/v1/sessions/${id}`, { data: { type: 'session', id: draft.session, attributes: {} } }),
        409,
        '/data/id',
      ],
      ['PATCH id missing', patch(`/v1/sessions/${id}`, { data: { type: 'session', attributes: {} } }), 422, '/data/id'],
      [
        'PATCH only ends-at, before the stored starts-at',
        change({ 'ends-at': '2030-05-01T09:59:59Z' }),
        422,
        at('ends-at'),
      ],
      [
        'PATCH only ends-at, equal to the stored starts-at',
        change({ 'ends-at': '2030-05-01T10:00:00Z' }),
        422,
        at('ends-at'),
      ],
      [
        'PATCH only starts-at, equal to the stored ends-at',
        change({ 'starts-at': '2030-05-01T10:30:00Z' }),
        422,
        at('starts-at'),
      ],
      [
        'PATCH only starts-at, after the stored ends-at',
        change({ 'starts-at': '2030-05-01T12:00:00+01:00' }),
        422,
        at('starts-at'),
      ],
      ['PATCH title cleared', change({ title: null }), 422, at('title')],
      ['PATCH a move in neither table (accepted -> draft)', change({ state: 'draft' }), 422, at('state')],
      ['PATCH event moved', change({}, { event: rel('event', draft.event) }), 422, '/data/relationships/event'],
      [
        'PATCH track of another event',
        change({}, { track: rel('track', draft.track) }),
        422,
        '/data/relationships/track',
      ],
      [
        'PATCH session-type of another event',
        change({}, { 'session-type': rel('session-type', draft.sessionType) }),
        422,
        '/data/relationships/session-type',
      ],
      [
        'PATCH speakers of another event',
        change({}, { speakers: links('speaker', draft.speaker) }),
        422,
        '/data/relationships/speakers',
      ],
      ['PATCH track that was deleted', change({}, { track: rel('track', goneTrack) }), 404],
      ['PATCH wrong content type', { ...change({ title: 'x' }), headers: { 'content-type': 'application/json' } }, 415],
      ['PATCH microlocation that does not exist', change({}, { microlocation: rel('microlocation', '424242') }), 404],
      ...wrong.map(
        ([name, value, what, pointer]): Case => [
          `PATCH ${name}: ${what}`,
          change({ [name]: value }),
          422,
          pointer ?? at(name),
        ],
      ),
    ]);
  });

  t.test('session relationship routes', async (t) => {
    const base = `/v1/sessions/${pub.session}/relationships`;
    await each(t, [
      ['track of another event', patch(`${base}/track`, rel('track', draft.track)), 422, '/data/relationships/track'],
      [
        'microlocation of another event',
        patch(`${base}/microlocation`, rel('microlocation', draft.microlocation)),
        422,
        '/data/relationships/microlocation',
      ],
      [
        'session-type of another event',
        patch(`${base}/session-type`, rel('session-type', draft.sessionType)),
        422,
        '/data/relationships/session-type',
      ],
      [
        'add a speaker of another event',
        post(`${base}/speakers`, links('speaker', draft.speaker)),
        422,
        '/data/relationships/speakers',
      ],
      [
        'replace with a speaker of another event',
        patch(`${base}/speakers`, links('speaker', grace, draft.speaker)),
        422,
        '/data/relationships/speakers',
      ],
      ['move the event', patch(`${base}/event`, rel('event', draft.event)), 422, '/data/relationships/event'],
      ['track that does not exist', patch(`${base}/track`, rel('track', '424242')), 404],
      ['add a speaker that does not exist', post(`${base}/speakers`, links('speaker', '424242')), 404],
      ['track of the wrong type', patch(`${base}/track`, rel('sponsor', pub.sponsor)), 409, '/data/type'],
      ['speakers not a list', post(`${base}/speakers`, rel('speaker', grace)), 422, '/data'],
      ['unknown member', patch(`${base}/track`, { ...rel('track', pub.track), meta: {} }), 422, '/meta'],
      ['malformed JSON', { method: 'PATCH', url: `${base}/track`, body: '{"data": {' }, 400],
      ['read-only creator', patch(`${base}/creator`, rel('user', cast.other.id)), 405],
      ['a session that does not exist', patch(`/v1/sessions/424242/relationships/track`, rel('track', pub.track)), 404],
    ]);
  });

  t.test('speakers', async (t) => {
    const valid = { name: 'Linus', email: 'linus@example.com' };
    const of = { event: rel('event', pub.event) };
    const make = (
      attributes: Record<string, unknown>,
      relationships: Record<string, unknown> = of,
      url = '/v1/speakers',
    ) => post(url, { data: { type: 'speaker', attributes, relationships } });
    const id = pub.speaker;
    const change = (attributes: Record<string, unknown>, relationships?: Record<string, unknown>) =>
      patch(`/v1/speakers/${id}`, {
        data: { type: 'speaker', id, attributes, ...(relationships ? { relationships } : {}) },
      });
    const wrong: [string, unknown, string, string?][] = [
      ['name', '', 'empty'],
      ['name', 'n'.repeat(256), 'over maxLength 255'],
      ['name', 'a\u0000b', 'a NUL character'],
      ['email', 'not-an-email', 'not an address'],
      ['email', 'a@b', 'a domain without a dot'],
      ['email', `${'e'.repeat(250)}@example.com`, 'over maxLength 254'],
      ['email', 42, 'a number'],
      ['mobile', 'm'.repeat(65), 'over maxLength 64'],
      ['short-biography', 'b'.repeat(10_001), 'over maxLength 10,000'],
      ['gender', 'g'.repeat(33), 'over maxLength 32'],
      ['city', 'Berlin\u0000', 'a NUL character'],
      ...URL_CASES.map((url, i): [string, unknown, string] => [
        ['photo-url', 'website', 'twitter'][i]!,
        url,
        `URL ${url}`,
      ]),
      ['is-featured', 'yes', 'a boolean as "yes"'],
      ['is-featured', 1, 'a boolean as 1'],
      ['is-featured', null, 'a boolean cleared'],
      ['thumbnail-image-url', 'https://example.com/t.png', 'read-only image variant'],
      ['small-image-url', 'https://example.com/s.png', 'read-only image variant'],
      ['icon-image-url', 'https://example.com/i.png', 'read-only image variant'],
      ['created-at', '2020-01-01T00:00:00Z', 'read-only created-at'],
      ['user-id', 1, 'an unknown attribute'],
      ['location', 'l'.repeat(256), 'over maxLength 255'],
      ['order', -1, 'a negative order'],
      ['order', 1.5, 'a fractional order'],
      ['order', '2', 'an order as a string'],
      ['order', 2147483648, 'an order beyond int32'],
      ['is-email-overridden', 'false', 'a boolean as a string'],
      ['complex-field-values', { a: { b: 1 } }, 'a nested object', at('complex-field-values/a')],
      ['complex-field-values', ['L'], 'a list'],
      ['speaker-positions', [0], 'a list'],
      ['speaker-positions', { abc: 0 }, 'a key that is no session id'],
      ['speaker-positions', { '1': -1 }, 'a negative position', at('speaker-positions/1')],
      ['speaker-positions', { '1': 'first' }, 'a position as a word', at('speaker-positions/1')],
      ['speaker-positions', { '1': { at: 0 } }, 'a nested object', at('speaker-positions/1')],
    ];
    const upper = adaEmail.toUpperCase();
    const mine = `/v1/users/${cast.owner.id}/speakers`;
    await each(t, [
      ['name missing', make({ email: 'x@example.com' }), 422, at('name')],
      ['duplicate email in the event', make({ ...valid, email: adaEmail }), 409, at('email')],
      ['duplicate email in other case', make({ ...valid, email: upper }), 409, at('email')],
      ['duplicate email with blanks', make({ ...valid, email: `  ${adaEmail} ` }), 409, at('email')],
      [
        'duplicate email via the event path',
        make({ ...valid, email: adaEmail }, {}, `/v1/events/${pub.identifier}/speakers`),
        409,
        at('email'),
      ],
      [
        'a session of another event',
        make(valid, { ...of, sessions: links('session', draft.session) }),
        422,
        '/data/relationships/sessions',
      ],
      ['a session that does not exist', make(valid, { ...of, sessions: links('session', '424242') }), 404],
      ['a user that does not exist', make(valid, { ...of, user: rel('user', '424242') }), 404],
      ['a user that was deleted', make(valid, { ...of, user: rel('user', goneUser.id) }), 404],
      [
        'malformed JSON',
        { method: 'POST', url: '/v1/speakers', body: '{"data":{"type":"speaker","attributes":{"name":"x"' },
        400,
      ],
      ['wrong content type', { ...make(valid), headers: { 'content-type': 'text/plain' } }, 415],
      [
        'type is wrong',
        post('/v1/speakers', { data: { type: 'speakers', attributes: valid, relationships: of } }),
        409,
        '/data/type',
      ],
      [
        'client-generated id',
        post('/v1/speakers', { data: { type: 'speaker', id: '1', attributes: valid, relationships: of } }),
        403,
        '/data/id',
      ],
      ['event missing', make(valid, {}), 422, '/data/relationships/event'],
      ['a user id that is a word', make(valid, { ...of, user: rel('user', 'abc') }), 404],
      [
        'a user of the wrong type',
        make(valid, { ...of, user: rel('speaker', grace) }),
        409,
        '/data/relationships/user/data/type',
      ],
      [
        'another event than the path',
        make(valid, { event: rel('event', draft.event) }, `/v1/events/${pub.event}/speakers`),
        409,
        '/data/relationships/event',
      ],
      ['an event path that does not exist', make(valid, {}, '/v1/events/99999999999/speakers'), 404],
      ['an identifier path that does not exist', make(valid, {}, '/v1/events/zzzzzzzz/speakers'), 404],
      [
        'via a session, in another event',
        make(valid, { event: rel('event', draft.event) }, `/v1/sessions/${pub.session}/speakers`),
        422,
        '/data/relationships/sessions',
      ],
      ['via a session that does not exist', make(valid, of, '/v1/sessions/abc/speakers'), 404],
      [
        'via a user, naming another user',
        make(valid, { ...of, user: rel('user', cast.speaker.id) }, mine),
        409,
        '/data/relationships/user',
      ],
      ...wrong.map(
        ([name, value, what, pointer]): Case => [
          `create, ${name}: ${what}`,
          make({ ...valid, [name]: value }),
          422,
          pointer ?? at(name),
        ],
      ),
      ['PATCH email of another speaker of the event', change({ email: 'grace@example.com' }), 409, at('email')],
      [
        'PATCH id of another speaker',
        patch(`/v1/speakers/${id}`, { data: { type: 'speaker', id: grace, attributes: {} } }),
        409,
        '/data/id',
      ],
      [
        'PATCH type is wrong',
        patch(`/v1/speakers/${id}`, { data: { type: 'user', id, attributes: {} } }),
        409,
        '/data/type',
      ],
      ['PATCH name cleared', change({ name: null }), 422, at('name')],
      ['PATCH event moved', change({}, { event: rel('event', draft.event) }), 422, '/data/relationships/event'],
      [
        'PATCH sessions of another event',
        change({}, { sessions: links('session', pub.session, draft.session) }),
        422,
        '/data/relationships/sessions',
      ],
      [
        'add a session of another event',
        post(`/v1/speakers/${id}/relationships/sessions`, links('session', draft.session)),
        422,
        '/data/relationships/sessions',
      ],
      ...wrong.map(
        ([name, value, what, pointer]): Case => [
          `PATCH ${name}: ${what}`,
          change({ [name]: value }),
          422,
          pointer ?? at(name),
        ],
      ),
    ]);
  });

  t.test('ids in paths that cannot exist', async (t) => {
    for (const path of ['sessions', 'speakers']) {
      for (const id of ['abc', '99999999999', '0', '424242']) {
        expectError(t, await call(app, { url: `/v1/${path}/${id}`, token }), 404, { detail: 'Object not found.' });
        const body = { data: { type: path.slice(0, -1), id, attributes: {} } };
        expectError(t, await call(app, { method: 'PATCH', url: `/v1/${path}/${id}`, token, body }), 404);
        expectError(t, await call(app, { method: 'DELETE', url: `/v1/${path}/${id}`, token }), 404);
        expectError(
          t,
          await call(app, { url: `/v1/${path}/${id}/${path === 'sessions' ? 'speakers' : 'sessions'}`, token }),
          404,
        );
      }
    }
    t.same(await snapshot(), before, 'nothing written');
  });

  t.test(
    'sort on unknown names is refused; a sort or filter on a private attribute holds only where the caller sees it',
    async (t) => {
      const f = (filter: unknown) => `filter=${encodeURIComponent(JSON.stringify(filter))}`;
      const email = { name: 'email', op: 'eq', val: adaEmail };
      const cases: [string, string, string][] = [
        ['/v1/speakers', 'sort=bogus', 'sort'],
        ['/v1/sessions', 'sort=speakers.email', 'sort'],
        ['/v1/sessions', 'sort=bogus', 'sort'],
        ['/v1/sessions', f([{ name: 'state', op: 'regex', val: '.*' }]), 'filter'],
        ['/v1/sessions', 'include=speakers.password', 'include'],
      ];
      for (const role of ['owner', 'admin', 'other'] as const) {
        for (const [path, query, parameter] of cases) {
          const res = await call(app, { url: `${path}?${query}`, token: cast[role].token });
          expectError(t, res, 400, { parameter });
        }
      }
      // Private filters: for a caller who does not see the private members, each answers what the same
      // query answers with the private condition false, whatever the hidden value (no probing); the
      // event's owner filters on them.
      const ids = async (role: 'owner' | 'other', url: string) => {
        const res = await call(app, { url, token: cast[role].token });
        t.equal(res.status, 200, url);
        return (res.body.data as { id: string }[]).map((r) => r.id).sort();
      };
      const speakersOf = `/v1/events/${pub.event}/speakers`;
      const all = await ids('other', speakersOf);
      // Private sorts: rows whose private members the caller does not see sort as null (then by id), so an
      // outsider's order is the same whatever the hidden values; the owner's follows them.
      const listed = async (role: 'owner' | 'other', query: string) => {
        const res = await call(app, { url: `${speakersOf}?${query}`, token: cast[role].token });
        t.equal(res.status, 200, query);
        return res.body.data as { id: string; attributes: { email?: string } }[];
      };
      const byId = (await listed('other', 'page[size]=0')).map((r) => r.id).sort((a, b) => Number(a) - Number(b));
      t.strictSame(
        (await listed('other', 'sort=email')).map((r) => r.id),
        byId,
        "an outsider's sort=email: by id",
      );
      t.strictSame(
        (await listed('other', 'sort=-email')).map((r) => r.id),
        [...byId].reverse(),
        "an outsider's sort=-email: by id, descending",
      );
      const owners = (await listed('owner', 'sort=-email')).map((r) => r.attributes.email ?? '');
      t.ok(owners.length > 1, 'the owner sees several speakers');
      t.strictSame(owners, [...owners].sort().reverse(), "the owner's sort=-email follows the emails");
      const ada = await ids('owner', `${speakersOf}?${f([email])}`);
      t.equal(ada.length, 1, "the owner finds Ada's speaker by email");
      const probes: [string, string[]][] = [
        [`${speakersOf}?${f([email])}`, []],
        [`${speakersOf}?${f([{ name: 'mobile', op: 'like', val: '+49%' }])}`, []],
        [`${speakersOf}?${f([{ not: email }])}`, all],
        [`${speakersOf}?${f([{ name: 'email', op: 'is_', val: null }])}`, []],
        [`${speakersOf}?${f([{ not: { name: 'email', op: 'is_', val: null } }])}`, all],
        [
          `${speakersOf}?${f([{ or: [{ name: 'name', op: 'eq', val: 'Ada' }, email] }])}`,
          await ids('other', `${speakersOf}?${f([{ name: 'name', op: 'eq', val: 'Ada' }])}`),
        ],
        [`/v1/events/${pub.event}/sessions?${f([{ name: 'speakers', op: 'any', val: email }])}`, []],
      ];
      for (const [url, expected] of probes) t.strictSame(await ids('other', url), expected, url);
      t.same(await snapshot(), before, 'nothing written');
    },
  );
});
