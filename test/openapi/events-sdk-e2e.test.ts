/**
 * The event domain through the typed SDK against a listening server: an admin files a topic, a user
 * registers, logs in and builds a small event (copyright, social links, tracks, rooms, session
 * types, three sessions with speakers), publishes it, and everything is read back as written.
 */
import type { AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import { createApiClient, JSONAPI, type ApiClient, type components } from '../../openapi/client/index.js';
import { buildTestApp } from '../helpers/app.js';
import { seedUser } from '../helpers/users.js';

type Schemas = components['schemas'];
type Included = NonNullable<Schemas['EventDocument']['included']>[number];
type Written<R extends keyof Schemas> = Schemas[R] extends { data: { attributes: infer A } } ? A : never;

const PASSWORD = 'correct horse battery';

/** The data of an SDK answer with the expected status; stops the test with the error document otherwise. */
function expect<D>(
  t: Test,
  label: string,
  result: { data?: D; error?: unknown; response: Response },
  status: number,
): D {
  t.equal(result.response.status, status, `${label}: ${status}`);
  if (result.data === undefined) throw new Error(`${label}: ${result.response.status} ${JSON.stringify(result.error)}`);
  return result.data;
}

/** The included resource of that type and id, typed as that resource. */
function included<T extends Included['type']>(doc: { included?: Included[] }, type: T, id: string) {
  return doc.included?.find((r): r is Extract<Included, { type: T }> => r.type === type && r.id === id);
}

/** Every attribute written comes back with the same value (instants compared as instants). */
function sameAttributes(t: Test, label: string, actual: object | undefined, written: object) {
  const got = (actual ?? {}) as Record<string, unknown>;
  for (const [name, value] of Object.entries(written)) {
    const instant = typeof value === 'string' && /^\d{4}-\d\d-\d\dT/.test(value);
    const seen = got[name];
    if (instant && typeof seen === 'string')
      t.equal(new Date(seen).toISOString(), new Date(value).toISOString(), `${label} ${name}`);
    else t.same(seen, value, `${label} ${name}`);
  }
}

const ids = (list: { id: string }[] | undefined) => (list ?? []).map((r) => r.id).sort((a, b) => Number(a) - Number(b));

// What the organizer writes, kept to compare with what is read back.
const TOPIC = { name: 'Science & Technology' } satisfies Written<'EventTopicCreateRequest'>;
const EVENT = {
  name: 'FOSSASIA Summit',
  'starts-at': '2030-03-10T01:00:00Z',
  'ends-at': '2030-03-12T10:00:00Z',
  timezone: 'Asia/Singapore',
  description: 'Open technology for people',
  'location-name': 'Lifelong Learning Institute',
  latitude: 1.3187,
  longitude: 103.8896,
  'ticket-url': 'https://tickets.example.com/summit',
  'code-of-conduct': 'Be excellent to each other',
  privacy: 'public',
  state: 'draft',
} satisfies Written<'EventCreateRequest'>;
const COPYRIGHT = {
  holder: 'FOSSASIA',
  'holder-url': 'https://fossasia.org',
  licence: 'CC BY-SA 4.0',
  'licence-url': 'https://creativecommons.org/licenses/by-sa/4.0/',
  year: 2024,
} satisfies Written<'EventCopyrightCreateRequest'>;
const LINKS = [
  { name: 'Website', link: 'https://summit.example.com' },
  { name: 'Mastodon', link: 'https://mastodon.example.com/@summit', identifier: '@summit' },
] satisfies Written<'SocialLinkCreateRequest'>[];
const TRACKS = [
  { name: 'Web', color: '#a04b23', description: 'Browsers and servers', position: 1 },
  { name: 'Hardware', color: '#f5e663', position: 2 },
] satisfies Written<'TrackCreateRequest'>[];
const FONT_COLORS = ['#ffffff', '#000000']; // white on the dark red, black on the light yellow
const ROOMS = [
  { name: 'Hall A', floor: 0, room: 'A.0.1', position: 1 },
  { name: 'Room 2', floor: 2, room: 'B.2.14', position: 2, 'hidden-in-scheduler': false },
] satisfies Written<'MicrolocationCreateRequest'>[];
const TYPES = [
  { name: 'Talk', length: '00:30', position: 1 },
  { name: 'Workshop', length: '02:00', position: 2 },
] satisfies Written<'SessionTypeCreateRequest'>[];
const SPEAKERS = [
  {
    name: 'Ada Lovelace',
    email: 'ada@speakers.example.com',
    mobile: '+44 20 7946 0001',
    city: 'London',
    position: 'Analyst',
  },
  {
    name: 'Grace Hopper',
    email: 'grace@speakers.example.com',
    mobile: '+1 202 555 0102',
    country: 'US',
    'is-featured': true,
  },
  {
    name: 'Linus Torvalds',
    email: 'linus@speakers.example.com',
    mobile: '+1 503 555 0103',
    website: 'https://kernel.org',
  },
] satisfies Written<'SpeakerCreateRequest'>[];
const SESSIONS = [
  {
    title: 'Opening keynote',
    subtitle: 'Why open',
    level: 'Beginner',
    'starts-at': '2030-03-10T02:00:00Z',
    'ends-at': '2030-03-10T02:30:00Z',
    language: 'English',
    state: 'accepted',
  },
  {
    title: 'Compilers workshop',
    'short-abstract': 'Build one',
    'starts-at': '2030-03-10T03:00:00Z',
    'ends-at': '2030-03-10T05:00:00Z',
    state: 'confirmed',
  },
  {
    title: 'Kernel hacking',
    'long-abstract': 'Patches welcome',
    'starts-at': '2030-03-11T02:00:00Z',
    'ends-at': '2030-03-11T02:30:00Z',
    'slides-url': 'https://slides.example.com/k',
    state: 'accepted',
  },
] satisfies Written<'SessionCreateRequest'>[];
/** Session i is linked to TRACKS[track], ROOMS[room], TYPES[type] and SPEAKERS[speakers]. */
const PLAN = [
  { track: 0, room: 0, type: 0, speakers: [0] },
  { track: 1, room: 1, type: 1, speakers: [0, 1] },
  { track: 0, room: 1, type: 0, speakers: [2] },
];

const { app } = await buildTestApp(t);
await app.listen({ port: 0, host: '127.0.0.1' });
const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

async function registerAndLogin(t: Test, client: ApiClient, email: string, firstName: string) {
  const user = expect(
    t,
    `register ${email}`,
    await client.POST('/v1/users', {
      body: { data: { type: 'user', attributes: { email, password: PASSWORD, 'first-name': firstName } } },
    }),
    201,
  );
  const login = expect(
    t,
    `login ${email}`,
    await client.POST('/v1/auth/login', { body: { email, password: PASSWORD } }),
    200,
  );
  return { id: user.data.id, token: login.access_token };
}

/** Ids of what the organizer built, for the read-back test. */
interface Built {
  organizer: ApiClient;
  speakerUser: ApiClient;
  topic: string;
  event: string;
  identifier: string;
  owner: string;
  copyright: string;
  links: string[];
  tracks: string[];
  rooms: string[];
  types: string[];
  speakers: string[];
  sessions: string[];
}
let built: Built | undefined;

await t.test(
  'an admin files a topic and a registered user builds and publishes an event through the SDK',
  async (t) => {
    const admin = createApiClient(baseUrl, { token: (await seedUser(app, { admin: true })).token });
    const topic = expect(
      t,
      'create topic',
      await admin.POST('/v1/event-topics', { body: { data: { type: 'event-topic', attributes: TOPIC } } }),
      201,
    );
    t.equal(topic.data.attributes.slug, 'science-technology', 'the slug is derived from the name');

    const organizer = createApiClient(baseUrl);
    const owner = await registerAndLogin(t, organizer, 'olga@organizers.example.com', 'Olga');
    organizer.setToken(owner.token);
    const speakerUser = createApiClient(baseUrl);
    const ada = await registerAndLogin(t, speakerUser, SPEAKERS[0].email, 'Ada');
    speakerUser.setToken(ada.token);

    const created = await organizer.POST('/v1/events', {
      body: {
        data: {
          type: 'event',
          attributes: EVENT,
          relationships: { 'event-topic': { data: { type: 'event-topic', id: topic.data.id } } },
        },
      },
    });
    const event = expect(t, 'create event', created, 201).data;
    t.equal(created.response.headers.get('location'), `/v1/events/${event.id}`);
    t.equal(created.response.headers.get('content-type'), JSONAPI);
    const identifier = event.attributes.identifier ?? '';
    t.match(identifier, /^[a-z][a-z0-9]{7}$/, 'the server gives the event an identifier');
    t.same(event.relationships?.owner?.data, { type: 'user', id: owner.id }, 'the creator owns the event');
    t.same(event.relationships?.['event-topic']?.data, { type: 'event-topic', id: topic.data.id });
    const hidden = await createApiClient(baseUrl).GET('/v1/events/{id}', { params: { path: { id: identifier } } });
    t.equal(hidden.response.status, 404, 'the draft is invisible to anonymous callers');
    t.equal(hidden.error?.errors[0]?.status, '404');

    const ofEvent = { event: { data: { type: 'event' as const, id: event.id } } };
    const copyright = expect(
      t,
      'create copyright',
      await organizer.POST('/v1/event-copyrights', {
        body: { data: { type: 'event-copyright', attributes: COPYRIGHT, relationships: ofEvent } },
      }),
      201,
    );
    const links: string[] = [];
    for (const attributes of LINKS) {
      const res = await organizer.POST('/v1/social-links', {
        body: { data: { type: 'social-link', attributes, relationships: ofEvent } },
      });
      links.push(expect(t, `create link ${attributes.name}`, res, 201).data.id);
    }
    const tracks: string[] = [];
    for (const [i, attributes] of TRACKS.entries()) {
      const res = expect(
        t,
        `create track ${attributes.name}`,
        await organizer.POST('/v1/tracks', {
          body: { data: { type: 'track', attributes, relationships: ofEvent } },
        }),
        201,
      );
      t.equal(res.data.attributes['font-color'], FONT_COLORS[i], `${attributes.name}: the font colour is derived`);
      tracks.push(res.data.id);
    }
    const rooms: string[] = [];
    for (const attributes of ROOMS) {
      const res = await organizer.POST('/v1/microlocations', {
        body: { data: { type: 'microlocation', attributes, relationships: ofEvent } },
      });
      rooms.push(expect(t, `create room ${attributes.name}`, res, 201).data.id);
    }
    const types: string[] = [];
    for (const attributes of TYPES) {
      const res = await organizer.POST('/v1/session-types', {
        body: { data: { type: 'session-type', attributes, relationships: ofEvent } },
      });
      types.push(expect(t, `create session type ${attributes.name}`, res, 201).data.id);
    }

    // Ada through the event's speakers path (which supplies the event), linked to her account.
    const viaEvent = expect(
      t,
      'create speaker via event',
      await organizer.POST('/v1/events/{id}/speakers', {
        params: { path: { id: identifier } },
        body: {
          data: {
            type: 'speaker',
            attributes: SPEAKERS[0],
            relationships: { user: { data: { type: 'user', id: ada.id } } },
          },
        },
      }),
      201,
    );
    t.same(
      viaEvent.data.relationships?.event?.data,
      { type: 'event', id: event.id },
      'the path links the speaker to the event',
    );
    // Grace through the plain collection.
    const grace = expect(
      t,
      'create speaker',
      await organizer.POST('/v1/speakers', {
        body: { data: { type: 'speaker', attributes: SPEAKERS[1], relationships: ofEvent } },
      }),
      201,
    );
    const speakers = [viaEvent.data.id, grace.data.id];

    const sessions: string[] = [];
    for (const [i, { track, room, type, speakers: which }] of PLAN.entries()) {
      // The third speaker does not exist yet: the third session gets him through its own path below.
      const speakerIds = which.filter((s) => s < 2).map((s) => speakers[s]!);
      const res = expect(
        t,
        `create session ${i + 1}`,
        await organizer.POST('/v1/sessions', {
          body: {
            data: {
              type: 'session',
              attributes: SESSIONS[i]!,
              relationships: {
                ...ofEvent,
                track: { data: { type: 'track', id: tracks[track]! } },
                microlocation: { data: { type: 'microlocation', id: rooms[room]! } },
                'session-type': { data: { type: 'session-type', id: types[type]! } },
                speakers: { data: speakerIds.map((id) => ({ type: 'speaker' as const, id })) },
              },
            },
          },
        }),
        201,
      );
      sessions.push(res.data.id);
    }
    // Linus through the third session's speakers path (which links him to it); the event stays explicit.
    const viaSession = expect(
      t,
      'create speaker via session',
      await organizer.POST('/v1/sessions/{id}/speakers', {
        params: { path: { id: sessions[2]! } },
        body: { data: { type: 'speaker', attributes: SPEAKERS[2], relationships: ofEvent } },
      }),
      201,
    );
    speakers.push(viaSession.data.id);
    // Responses carry to-many linkage only when included: the relationship routes show the links made.
    for (const [i, { speakers: which }] of PLAN.entries()) {
      const linkage = expect(
        t,
        `session ${i + 1} speakers linkage`,
        await organizer.GET('/v1/sessions/{id}/relationships/speakers', {
          params: { path: { id: sessions[i]! } },
        }),
        200,
      );
      t.same(
        ids(linkage.data),
        which.map((s) => speakers[s]),
        `session ${i + 1}: its speakers`,
      );
    }
    const linusSessions = expect(
      t,
      'speaker 3 sessions linkage',
      await organizer.GET('/v1/speakers/{id}/relationships/sessions', {
        params: { path: { id: viaSession.data.id } },
      }),
      200,
    );
    t.same(
      linusSessions.data,
      [{ type: 'session', id: sessions[2] }],
      'the session path links the speaker to the session',
    );

    // Only the state is sent: an update request has no defaults, so nothing else is required.
    const published = expect(
      t,
      'publish',
      await organizer.PATCH('/v1/events/{id}', {
        params: { path: { id: event.id } },
        body: { data: { type: 'event', id: event.id, attributes: { state: 'published' } } },
      }),
      200,
    );
    t.equal(published.data.attributes.state, 'published');
    t.equal(published.data.attributes.name, EVENT.name, 'other attributes keep their values');

    built = {
      organizer,
      speakerUser,
      topic: topic.data.id,
      event: event.id,
      identifier,
      owner: owner.id,
      copyright: copyright.data.id,
      links,
      tracks,
      rooms,
      types,
      speakers,
      sessions,
    };
  },
);

await t.test('the event reads back as written: detail with includes, sessions with includes, lists', async (t) => {
  if (!built) throw new Error('the event was not built');
  const b = built;
  const anonymous = createApiClient(baseUrl);
  const event = (id: string) => ({ type: 'event', id }) as const;

  for (const [who, client] of [
    ['anonymous', anonymous],
    ['organizer', b.organizer],
  ] as const) {
    const doc = expect(
      t,
      `${who} GET event`,
      await client.GET('/v1/events/{id}', {
        params: { path: { id: b.identifier }, query: { include: 'social-links,event-copyright,event-topic' } },
      }),
      200,
    );
    t.equal(doc.data.id, b.event, `${who}: the identifier names the event`);
    sameAttributes(t, `${who} event`, doc.data.attributes, { ...EVENT, state: 'published', identifier: b.identifier });
    const rel = doc.data.relationships;
    t.same(rel?.['event-topic']?.data, { type: 'event-topic', id: b.topic }, `${who}: topic linkage`);
    t.same(rel?.['event-copyright']?.data, { type: 'event-copyright', id: b.copyright }, `${who}: copyright linkage`);
    t.same(ids(rel?.['social-links']?.data), b.links, `${who}: social link linkage`);
    t.equal(rel?.owner?.links.related, `/v1/events/${b.event}/owner`, `${who}: relationship links`);
    t.equal(doc.included?.length, 4, `${who}: topic, copyright and two links are included`);
    sameAttributes(t, `${who} included topic`, included(doc, 'event-topic', b.topic)?.attributes, {
      ...TOPIC,
      slug: 'science-technology',
    });
    sameAttributes(
      t,
      `${who} included copyright`,
      included(doc, 'event-copyright', b.copyright)?.attributes,
      COPYRIGHT,
    );
    LINKS.forEach((link, i) =>
      sameAttributes(t, `${who} included link ${i + 1}`, included(doc, 'social-link', b.links[i]!)?.attributes, link),
    );
  }

  const listed = expect(t, 'anonymous listEvents', await anonymous.GET('/v1/events'), 200);
  t.same(
    listed.data.map((e) => e.id),
    [b.event],
    'the published event is listed publicly',
  );
  t.equal(listed.meta.count, 1);

  const include = 'speakers,track,microlocation,session-type';
  for (const [who, client] of [
    ['anonymous', anonymous],
    ['organizer', b.organizer],
  ] as const) {
    const doc = expect(
      t,
      `${who} GET sessions`,
      await client.GET('/v1/events/{id}/sessions', {
        params: { path: { id: b.event }, query: { include, sort: 'starts-at' } },
      }),
      200,
    );
    t.equal(doc.meta.count, 3, `${who}: three sessions`);
    t.same(
      doc.data.map((s) => s.id),
      b.sessions,
      `${who}: sessions by start`,
    );
    for (const [i, session] of doc.data.entries()) {
      const plan = PLAN[i]!;
      const label = `${who} session ${i + 1}`;
      sameAttributes(t, label, session.attributes, SESSIONS[i]!);
      const rel = session.relationships;
      t.same(rel?.event?.data, event(b.event), `${label} event`);
      t.same(rel?.track?.data, { type: 'track', id: b.tracks[plan.track] }, `${label} track`);
      t.same(rel?.microlocation?.data, { type: 'microlocation', id: b.rooms[plan.room] }, `${label} room`);
      t.same(rel?.['session-type']?.data, { type: 'session-type', id: b.types[plan.type] }, `${label} session type`);
      t.same(
        ids(rel?.speakers?.data),
        plan.speakers.map((s) => b.speakers[s]),
        `${label} speakers`,
      );
      t.same(rel?.creator?.data, { type: 'user', id: b.owner }, `${label} creator`);
      sameAttributes(
        t,
        `${label} track`,
        included(doc, 'track', b.tracks[plan.track]!)?.attributes,
        TRACKS[plan.track]!,
      );
      sameAttributes(
        t,
        `${label} room`,
        included(doc, 'microlocation', b.rooms[plan.room]!)?.attributes,
        ROOMS[plan.room]!,
      );
      sameAttributes(
        t,
        `${label} type`,
        included(doc, 'session-type', b.types[plan.type]!)?.attributes,
        TYPES[plan.type]!,
      );
    }
    t.equal(doc.included?.length, 2 + 2 + 2 + 3, `${who}: each track, room, type and speaker is included once`);
    SPEAKERS.forEach(({ email, mobile, ...rest }, i) => {
      const speaker = included(doc, 'speaker', b.speakers[i]!)?.attributes;
      sameAttributes(
        t,
        `${who} included speaker ${i + 1}`,
        speaker,
        who === 'organizer' ? { email, mobile, ...rest } : rest,
      );
      if (who === 'anonymous')
        t.notOk(speaker && ('email' in speaker || 'mobile' in speaker), `speaker ${i + 1}: no email or mobile`);
    });
  }

  const tracks = expect(
    t,
    'GET tracks',
    await anonymous.GET('/v1/events/{id}/tracks', { params: { path: { id: b.identifier } } }),
    200,
  );
  t.same(ids(tracks.data), b.tracks);
  tracks.data.forEach((track) => {
    const i = b.tracks.indexOf(track.id);
    sameAttributes(t, `track ${i + 1}`, track.attributes, { ...TRACKS[i]!, 'font-color': FONT_COLORS[i] });
    t.same(track.relationships?.event?.data, event(b.event));
  });
  const rooms = expect(
    t,
    'GET rooms',
    await anonymous.GET('/v1/events/{id}/microlocations', { params: { path: { id: b.identifier } } }),
    200,
  );
  t.same(ids(rooms.data), b.rooms);
  rooms.data.forEach((room) => sameAttributes(t, `room ${room.id}`, room.attributes, ROOMS[b.rooms.indexOf(room.id)]!));
  const types = expect(
    t,
    'GET session types',
    await anonymous.GET('/v1/events/{id}/session-types', { params: { path: { id: b.identifier } } }),
    200,
  );
  t.same(ids(types.data), b.types);
  types.data.forEach((type) => sameAttributes(t, `type ${type.id}`, type.attributes, TYPES[b.types.indexOf(type.id)]!));

  // Speakers: organizers see every email and mobile, the speaker's own user only hers, others none.
  const views = [
    ['organizer', b.organizer, [0, 1, 2]],
    ['speaker user', b.speakerUser, [0]],
    ['anonymous', anonymous, []],
  ] as const;
  for (const [who, client, privateOf] of views) {
    const list = expect(
      t,
      `${who} GET speakers`,
      await client.GET('/v1/events/{id}/speakers', {
        params: { path: { id: b.event }, query: { include: 'sessions' } },
      }),
      200,
    );
    t.same(ids(list.data), b.speakers, `${who}: the three speakers`);
    for (const speaker of list.data) {
      const i = b.speakers.indexOf(speaker.id);
      const { email, mobile, ...rest } = SPEAKERS[i]!;
      const sees = (privateOf as readonly number[]).includes(i);
      sameAttributes(t, `${who} speaker ${i + 1}`, speaker.attributes, sees ? { email, mobile, ...rest } : rest);
      if (!sees)
        t.notOk(
          'email' in speaker.attributes || 'mobile' in speaker.attributes,
          `${who} speaker ${i + 1}: private attributes left out`,
        );
      const sessionsOf = PLAN.flatMap((p, s) => (p.speakers.includes(i) ? [b.sessions[s]] : []));
      t.same(ids(speaker.relationships?.sessions?.data), sessionsOf, `${who} speaker ${i + 1}: sessions`);
    }
  }
  const linus = expect(
    t,
    'GET session speakers',
    await anonymous.GET('/v1/sessions/{id}/speakers', { params: { path: { id: b.sessions[2]! } } }),
    200,
  );
  t.same(
    linus.data.map((s) => s.attributes.name),
    [SPEAKERS[2].name],
    'the session path lists the speaker made through it',
  );
});
