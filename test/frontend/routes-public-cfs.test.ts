/**
 * open-event-frontend call for speakers: `app/routes/public/cfs/new-speaker.js:24-30` makes a speaker
 * of the signed-in user (email, name, photo, event, user), `app/routes/public/cfs/new-session.js:19-24`
 * a session (event, creator = the current user), and `app/controllers/public/cfs/new-session.js:10-12`
 * saves it, links the speaker and saves it again. Then the organizer accepts it from the sessions
 * list: a save of the whole record with state `accepted`. Every body is what ember-data serialises:
 * every attribute of the model that is not readOnly (app/serializers/application.js:16-21), unset
 * strings and numbers as null, booleans false, raw attr() as set.
 */
import t from 'tap';
import { buildTestApp } from '../helpers/app.js';
import { buildWorld, create, eventAttributes } from '../helpers/events.js';
import { frontEnd, listening } from '../helpers/front-end-client.js';
import { SESSION_ATTRIBUTES, saved } from '../helpers/front-end-session.js';

const { app } = await buildTestApp(t);
const world = await buildWorld(app);
const base = await listening(app);
const { cast, published } = world;
const event = { type: 'event', id: published.event };
// The organizers open the event to submissions (the wizard's sessions-speakers step).
await app.sql`update events set is_sessions_speakers_enabled = true where id = ${Number(published.event)}`;

/** app/models/speaker.js:14-40, in order: every attr (none is readOnly). */
const SPEAKER_ATTRIBUTES = [
  'name',
  'email',
  'photo-url',
  'thumbnail-image-url',
  'icon-image-url',
  'small-image-url',
  'short-biography',
  'long-biography',
  'speaking-experience',
  'mobile',
  'location',
  'website',
  'twitter',
  'facebook',
  'github',
  'linkedin',
  'mastodon',
  'instagram',
  'organisation',
  'is-featured',
  'is-email-overridden',
  'position',
  'country',
  'city',
  'gender',
  'heard-from',
  'order',
  'complex-field-values',
  'speaker-positions',
];

t.test('a user submits a speaker and a session; the organizer accepts it', async (t) => {
  const user = cast.other;
  const fe = frontEnd(base, user.token);
  // new-speaker.js:24-30: email, name and photo from the account; ready() sets complexFieldValues
  // and speakerPositions to {} (app/models/speaker.js:55-62); the form fills in the rest.
  const speakerAttributes = {
    ...saved(SPEAKER_ATTRIBUTES, {}),
    name: 'Grace Hopper',
    email: user.email,
    'short-biography': 'Compilers.',
    location: 'Arlington, VA',
    website: 'https://grace.example.org',
    'is-featured': false,
    'is-email-overridden': false,
    'complex-field-values': { 'shirt-size': 'L', 'needs-visa': false },
    'speaker-positions': {},
  };
  const speakerRes = await fe.adapter('POST', '/v1/speakers', {
    body: {
      data: {
        type: 'speaker',
        attributes: speakerAttributes,
        relationships: { event: { data: event }, user: { data: { type: 'user', id: user.id } } },
      },
    },
  });
  t.equal(speakerRes.status, 201, JSON.stringify(speakerRes.body?.errors));
  const speaker = speakerRes.body.data;
  t.match(speaker.attributes, {
    location: 'Arlington, VA',
    order: 0,
    'is-email-overridden': false,
    'speaker-positions': {},
  });
  t.same(
    speaker.attributes['complex-field-values'],
    { 'shirt-size': 'L', 'needs-visa': false },
    'complex field values stored',
  );
  t.same(speaker.relationships.user.data, { type: 'user', id: user.id }, 'the speaker is the user');

  // new-session.js:25-33 (and cfs/index.js) find the user's own speaker by email among the event's:
  // a filter on the private email holds only where the caller sees it, so no one probes others' addresses.
  const byEmail = (who: ReturnType<typeof frontEnd>, filter: unknown) =>
    who.adapter('GET', `/v1/events/${published.event}/speakers`, { query: { filter } });
  const mine = await byEmail(fe, [{ name: 'email', op: 'eq', val: user.email }]);
  t.equal(mine.status, 200, JSON.stringify(mine.body?.errors));
  t.strictSame(
    mine.body.data.map((s: { id: string }) => s.id),
    [speaker.id],
    "the user's own speaker",
  );
  const stranger = frontEnd(base, cast.speaker.token);
  t.strictSame(
    (await byEmail(stranger, [{ name: 'email', op: 'eq', val: user.email }])).body.data,
    [],
    "another user's address matches nothing",
  );
  const everyone = (
    await stranger.adapter('GET', `/v1/events/${published.event}/speakers`, { query: { 'page[size]': 0 } })
  ).body.data.length;
  const negated = await byEmail(stranger, [{ not: { name: 'email', op: 'eq', val: user.email } }]);
  t.equal(negated.body.data.length, everyone, 'nor does its negation tell anything apart');
  const organizers = await byEmail(frontEnd(base, cast.owner.token), [
    { name: 'email', op: 'ilike', val: `%${user.email.slice(1)}` },
  ]);
  t.strictSame(
    organizers.body.data.map((s: { id: string }) => s.id),
    [speaker.id],
    "the event's organizers filter on every speaker's email",
  );

  // new-session.js:19-24: event and creator set, state unset (null); submitted-at defaults to now;
  // the form's "add document" adds {name: '', link: ''} rows (app/components/forms/session-section.js:16-19).
  const sessionAttributes = {
    ...saved(SESSION_ATTRIBUTES, {}),
    title: 'Compilers for everyone',
    'short-abstract': 'Why compilers matter.',
    language: 'English',
    level: 'Beginner',
    github: 'https://github.com/grace',
    gitlab: 'https://gitlab.com/grace',
    slides: [
      { name: 'Slides', link: 'https://files.example.org/slides.pdf' },
      { name: '', link: '' },
    ],
    'send-email': false,
    'is-locked': false,
    'is-mail-sent': false,
    'submitted-at': new Date().toISOString(),
    'complex-field-values': { 'talk-length': 30 },
  };
  const creator = { data: { type: 'user', id: user.id } };
  const created = await fe.adapter('POST', '/v1/sessions', {
    body: {
      data: { type: 'session', attributes: sessionAttributes, relationships: { event: { data: event }, creator } },
    },
  });
  t.equal(created.status, 201, JSON.stringify(created.body?.errors));
  const session = created.body.data;
  t.match(session.attributes, {
    state: 'draft',
    gitlab: 'https://gitlab.com/grace',
    'is-locked': false,
    'send-email': false,
  });
  t.same(session.attributes.slides, sessionAttributes.slides, 'documents stored as sent');
  t.type(session.attributes['last-modified-at'], 'string', 'last-modified-at set');
  t.same(session.relationships.creator.data, creator.data, 'the creator is the user');

  // new-session controller :11-12: the speaker's sessions gain the session, whose save now carries speakers.
  const again = await fe.adapter('PATCH', `/v1/sessions/${session.id}`, {
    body: {
      data: {
        type: 'session',
        id: session.id,
        attributes: saved(SESSION_ATTRIBUTES, session.attributes),
        relationships: { event: { data: event }, creator, speakers: { data: [{ type: 'speaker', id: speaker.id }] } },
      },
    },
  });
  t.equal(again.status, 200, JSON.stringify(again.body?.errors));
  t.ok(
    Date.parse(again.body.data.attributes['last-modified-at']) >= Date.parse(session.attributes['last-modified-at']),
    'last-modified-at moves on',
  );

  const submitted = await fe.adapter('PATCH', `/v1/sessions/${session.id}`, {
    body: {
      data: {
        type: 'session',
        id: session.id,
        attributes: { ...saved(SESSION_ATTRIBUTES, again.body.data.attributes), state: 'submitted' },
        relationships: { event: { data: event }, creator, speakers: { data: [{ type: 'speaker', id: speaker.id }] } },
      },
    },
  });
  t.equal(submitted.status, 200, JSON.stringify(submitted.body?.errors));
  t.equal(submitted.body.data.attributes.state, 'submitted');

  // The organizer's sessions list (include=speakers), then the accept button saves the whole record.
  const organizer = frontEnd(base, cast.organizer.token);
  const listed = await organizer.adapter('GET', `/v1/events/${published.event}/sessions`, {
    query: {
      include: 'speakers,session-type,track',
      filter: [{ name: 'state', op: 'eq', val: 'submitted' }],
      'page[size]': 10,
    },
  });
  t.equal(listed.status, 200);
  const read = listed.body.data.find((s: { id: string }) => s.id === session.id);
  t.ok(read, 'the organizer lists the submission');
  t.same(read.attributes['complex-field-values'], { 'talk-length': 30 });
  t.same(read.relationships.speakers.data, [{ type: 'speaker', id: speaker.id }]);
  const accepted = await organizer.adapter('PATCH', `/v1/sessions/${session.id}`, {
    body: {
      data: {
        type: 'session',
        id: session.id,
        attributes: { ...saved(SESSION_ATTRIBUTES, read.attributes), state: 'accepted', 'send-email': true },
        relationships: { event: { data: event }, creator, speakers: { data: [{ type: 'speaker', id: speaker.id }] } },
      },
    },
  });
  t.equal(accepted.status, 200, JSON.stringify(accepted.body?.errors));
  t.match(accepted.body.data.attributes, { state: 'accepted', 'send-email': true });

  // The organizer locks it; the speaker's next save of the whole record is refused.
  const locked = await organizer.adapter('PATCH', `/v1/sessions/${session.id}`, {
    body: {
      data: {
        type: 'session',
        id: session.id,
        attributes: { ...saved(SESSION_ATTRIBUTES, accepted.body.data.attributes), 'is-locked': true },
      },
    },
  });
  t.equal(locked.status, 200);
  const late = await fe.adapter('PATCH', `/v1/sessions/${session.id}`, {
    body: {
      data: {
        type: 'session',
        id: session.id,
        attributes: { ...saved(SESSION_ATTRIBUTES, locked.body.data.attributes), title: 'Changed' },
      },
    },
  });
  t.equal(late.status, 403);
  t.same(late.body.errors[0].source, { pointer: '/data/attributes/is-locked' });
  t.equal(late.body.errors[0].detail, 'Locked sessions cannot be edited');

  // The speaker edits their speaker (the whole record), but cannot feature themself.
  const speakerBody = (attributes: Record<string, unknown>) => ({
    body: {
      data: {
        type: 'speaker',
        id: speaker.id,
        attributes,
        relationships: { event: { data: event }, user: { data: { type: 'user', id: user.id } } },
      },
    },
  });
  const edited = await fe.adapter(
    'PATCH',
    `/v1/speakers/${speaker.id}`,
    speakerBody({ ...saved(SPEAKER_ATTRIBUTES, speaker.attributes), city: 'Arlington' }),
  );
  t.equal(edited.status, 200, JSON.stringify(edited.body?.errors));
  for (const [name, value] of [
    ['is-featured', true],
    ['order', 3],
    ['is-email-overridden', true],
  ] as const) {
    const refused = await fe.adapter(
      'PATCH',
      `/v1/speakers/${speaker.id}`,
      speakerBody({ ...saved(SPEAKER_ATTRIBUTES, edited.body.data.attributes), [name]: value }),
    );
    t.equal(refused.status, 403, `${name} is the organizers'`);
    t.same(refused.body.errors[0].source, { pointer: `/data/attributes/${name}` });
  }
});

t.test(
  'an event without is-sessions-speakers-enabled takes no submissions; its organizers still add speakers and sessions',
  async (t) => {
    const closed = await create(app, cast.owner.token, 'events', 'event', {
      ...eventAttributes('Closed Conf'),
      state: 'published',
    });
    const of = { event: { data: { type: 'event', id: closed } } };
    const user = frontEnd(base, cast.other.token);
    const flags = { 'send-email': false, 'is-locked': false, 'is-mail-sent': false };
    const speaker = await user.adapter('POST', '/v1/speakers', {
      body: {
        data: {
          type: 'speaker',
          attributes: {
            ...saved(SPEAKER_ATTRIBUTES, {}),
            name: 'Ada',
            email: cast.other.email,
            'is-featured': false,
            'is-email-overridden': false,
          },
          relationships: of,
        },
      },
    });
    t.equal(speaker.status, 403);
    t.match(speaker.body.errors[0], {
      source: { pointer: '/data/relationships/event' },
      detail: /is-sessions-speakers-enabled/,
    });
    const session = await user.adapter('POST', '/v1/sessions', {
      body: {
        data: {
          type: 'session',
          attributes: { ...saved(SESSION_ATTRIBUTES, {}), title: 'Uninvited', ...flags },
          relationships: of,
        },
      },
    });
    t.equal(session.status, 403);
    const organizer = frontEnd(base, cast.owner.token);
    const added = await organizer.adapter('POST', '/v1/sessions', {
      body: {
        data: {
          type: 'session',
          attributes: { ...saved(SESSION_ATTRIBUTES, {}), title: 'Keynote', ...flags },
          relationships: of,
        },
      },
    });
    t.equal(added.status, 201, JSON.stringify(added.body?.errors));
  },
);

t.test('a submission names only the submitter: creator, user, speakers and email', async (t) => {
  const fe = frontEnd(base, cast.other.token);
  const post = (
    path: string,
    type: string,
    attributes: Record<string, unknown>,
    relationships: Record<string, unknown>,
  ) =>
    fe.adapter('POST', path, {
      body: { data: { type, attributes, relationships: { event: { data: event }, ...relationships } } },
    });
  const other = { data: { type: 'user', id: cast.speaker.id } };
  const cases: [string, () => ReturnType<typeof post>, string][] = [
    ['speaker user', () => post('/v1/speakers', 'speaker', { name: 'X' }, { user: other }), '/data/relationships/user'],
    [
      'speaker email',
      () => post('/v1/speakers', 'speaker', { name: 'X', email: 'someone.else@example.com' }, {}),
      '/data/attributes/email',
    ],
    [
      "someone else's speaker",
      () =>
        post(
          '/v1/sessions',
          'session',
          { title: 'X' },
          { speakers: { data: [{ type: 'speaker', id: published.speaker }] } },
        ),
      '/data/relationships/speakers',
    ],
    [
      'a scheduled session',
      () => post('/v1/sessions', 'session', { title: 'X', 'starts-at': '2030-05-01T10:00:00.000Z' }, {}),
      '/data/attributes/starts-at',
    ],
    [
      'a locked session',
      () => post('/v1/sessions', 'session', { title: 'X', 'is-locked': true }, {}),
      '/data/attributes/is-locked',
    ],
    [
      'an accepted session',
      () => post('/v1/sessions', 'session', { title: 'X', state: 'accepted' }, {}),
      '/data/attributes/state',
    ],
  ];
  const before =
    await app.sql`select (select count(*) from sessions) as sessions, (select count(*) from speakers) as speakers`;
  for (const [what, send, pointer] of cases) {
    const answer = await send();
    t.equal(answer.status, 403, what);
    t.same(answer.body.errors?.[0]?.source, { pointer }, `${what}: pointer`);
  }
  const creator = await post('/v1/sessions', 'session', { title: 'X' }, { creator: other });
  t.equal(creator.status, 422, 'the creator is read-only: only the caller may be named');
  t.same(creator.body.errors?.[0]?.source, { pointer: '/data/relationships/creator' });
  const after =
    await app.sql`select (select count(*) from sessions) as sessions, (select count(*) from speakers) as speakers`;
  t.same(after, before, 'nothing written');
  const draft = await frontEnd(base, cast.other.token).adapter('POST', '/v1/speakers', {
    body: {
      data: {
        type: 'speaker',
        attributes: { name: 'X' },
        relationships: { event: { data: { type: 'event', id: world.draft.event } } },
      },
    },
  });
  t.equal(draft.status, 404, 'no submissions to an event the user cannot see');
});
