/**
 * The event-domain world most event tests start from, built through the API: users in every role and
 * two events (one published, one draft), each with one record of every kind.
 */
import type { FastifyInstance } from 'fastify';
import type { Test } from 'tap';
import { call, JSONAPI } from './app.js';
import { expectError, seedUser, type TestUser } from './users.js';

export type RoleName = 'anonymous' | 'other' | 'speaker' | 'coorganizer' | 'organizer' | 'owner' | 'admin';

export interface Cast {
  owner: TestUser;
  organizer: TestUser;
  coorganizer: TestUser;
  /** The user linked to the speaker of each event's session. */
  speaker: TestUser;
  other: TestUser;
  admin: TestUser;
}

/** Ids of one event and one record of every kind under it. */
export interface EventRecords {
  event: string;
  identifier: string;
  copyright: string;
  socialLink: string;
  microlocation: string;
  sponsor: string;
  track: string;
  sessionType: string;
  session: string;
  speaker: string;
  customForm: string;
}

export interface World {
  cast: Cast;
  topic: string;
  published: EventRecords;
  draft: EventRecords;
}

export const rel = (type: string, id: string) => ({ data: { type, id } });

/** POSTs a resource document and answers the created id, failing loudly otherwise. */
export async function create(
  app: FastifyInstance,
  token: string,
  path: string,
  type: string,
  attributes: Record<string, unknown>,
  relationships: Record<string, unknown> = {},
): Promise<string> {
  const res = await call(app, {
    method: 'POST',
    url: `/v1/${path}`,
    token,
    body: { data: { type, attributes, ...(Object.keys(relationships).length ? { relationships } : {}) } },
  });
  if (res.status !== 201) throw new Error(`create ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.id as string;
}

/** Completes an order as someone who may (the event's staff) and answers its identifier, failing loudly otherwise. */
export async function completeOrder(app: FastifyInstance, token: string, id: string): Promise<string> {
  const res = await call(app, {
    method: 'PATCH',
    url: `/v1/orders/${id}`,
    token,
    body: { data: { type: 'order', id, attributes: { status: 'completed' } } },
  });
  if (res.status !== 200) throw new Error(`completing order ${id}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.attributes.identifier as string;
}

/** POST /v1/attendees/send-receipt for an order, as the plain JSON body clients send. */
export const sendReceipt = (app: FastifyInstance, token: string, identifier: string) =>
  call(app, {
    method: 'POST',
    url: '/v1/attendees/send-receipt',
    token,
    body: { 'order-identifier': identifier },
    headers: { 'content-type': 'application/json' },
  });

export const eventAttributes = (name: string, state: 'draft' | 'published' = 'published') => ({
  name,
  'starts-at': '2030-05-01T09:00:00Z',
  'ends-at': '2030-05-03T18:00:00Z',
  timezone: 'Europe/Berlin',
  state,
});

/** An event owned by `owner` with organizer and coorganizer roles given to the cast. */
export async function createEvent(
  app: FastifyInstance,
  cast: Cast,
  name: string,
  state: 'draft' | 'published',
  topic?: string,
) {
  const id = await create(app, cast.owner.token, 'events', 'event', eventAttributes(name, state), {
    ...(topic ? { 'event-topic': rel('event-topic', topic) } : {}),
    organizers: { data: [{ type: 'user', id: cast.organizer.id }] },
    coorganizers: { data: [{ type: 'user', id: cast.coorganizer.id }] },
  });
  const res = await call(app, { url: `/v1/events/${id}`, token: cast.owner.token });
  return { id, identifier: res.body.data.attributes.identifier as string };
}

/** One record of every kind under the event, made by its owner; the session's speaker is `cast.speaker`. */
export async function fillEvent(
  app: FastifyInstance,
  cast: Cast,
  event: string,
): Promise<Omit<EventRecords, 'event' | 'identifier'>> {
  const token = cast.owner.token;
  const of = { event: rel('event', event) };
  const make = (path: string, type: string, attributes: Record<string, unknown>, more: Record<string, unknown> = {}) =>
    create(app, token, path, type, attributes, { ...of, ...more });
  const copyright = await make('event-copyrights', 'event-copyright', {
    holder: 'FOSSASIA',
    licence: 'CC BY 4.0',
    year: 2024,
  });
  const socialLink = await make('social-links', 'social-link', { name: 'Site', link: 'https://example.com' });
  const microlocation = await make('microlocations', 'microlocation', { name: 'Room 1', floor: 1 });
  const sponsor = await make('sponsors', 'sponsor', { name: 'ACME', level: 1 });
  const track = await make('tracks', 'track', { name: 'Web', color: '#a04b23' });
  const sessionType = await make('session-types', 'session-type', { name: 'Talk', length: '00:30' });
  const speaker = await make(
    'speakers',
    'speaker',
    { name: 'Ada', email: `ada-${event}@example.com`, mobile: '+49 30 123456' },
    { user: rel('user', cast.speaker.id) },
  );
  const session = await make(
    'sessions',
    'session',
    { title: 'Opening', 'starts-at': '2030-05-01T10:00:00Z', 'ends-at': '2030-05-01T10:30:00Z', state: 'accepted' },
    {
      track: rel('track', track),
      microlocation: rel('microlocation', microlocation),
      'session-type': rel('session-type', sessionType),
      speakers: { data: [{ type: 'speaker', id: speaker }] },
    },
  );
  const customForm = await make('custom-forms', 'custom_form', {
    form: 'speaker',
    'field-identifier': 'shirt',
    type: 'text',
  });
  return { copyright, socialLink, microlocation, sponsor, track, sessionType, session, speaker, customForm };
}

export async function createCast(app: FastifyInstance): Promise<Cast> {
  const [owner, organizer, coorganizer, speaker, other, admin] = [
    await seedUser(app),
    await seedUser(app),
    await seedUser(app),
    await seedUser(app),
    await seedUser(app),
    await seedUser(app, { admin: true }),
  ];
  return {
    owner: owner!,
    organizer: organizer!,
    coorganizer: coorganizer!,
    speaker: speaker!,
    other: other!,
    admin: admin!,
  };
}

/** The cast, a topic, a published event and a draft event, each filled with one record of every kind. */
export async function buildWorld(app: FastifyInstance): Promise<World> {
  const cast = await createCast(app);
  const topic = await create(app, cast.admin.token, 'event-topics', 'event-topic', { name: 'Science & Technology' });
  const pub = await createEvent(app, cast, 'Open Summit', 'published', topic);
  const draft = await createEvent(app, cast, 'Secret Camp', 'draft', topic);
  return {
    cast,
    topic,
    published: { event: pub.id, identifier: pub.identifier, ...(await fillEvent(app, cast, pub.id)) },
    draft: { event: draft.id, identifier: draft.identifier, ...(await fillEvent(app, cast, draft.id)) },
  };
}

/** The token of a role, or undefined for an anonymous caller. */
export const tokenOf = (cast: Cast, role: RoleName): string | undefined =>
  role === 'anonymous' ? undefined : cast[role].token;

/**
 * One cell of a permission matrix: the status, the JSON:API envelope, and a document (2xx) or an
 * error document with that status (4xx). `label` names route and role.
 */
export function expectCell(t: Test, res: Awaited<ReturnType<typeof call>>, status: number, label: string) {
  t.equal(res.status, status, `${label} -> ${status}`);
  t.match(
    { type: res.headers['content-type'], jsonapi: res.body?.jsonapi },
    { type: JSONAPI, jsonapi: { version: '1.0' } },
    `${label}: JSON:API`,
  );
  if (status >= 400) {
    t.strictSame(Object.keys(res.body ?? {}).sort(), ['errors', 'jsonapi'], `${label}: an error document`);
    t.match(res.body?.errors?.[0], { status: String(status), title: String, detail: String }, `${label}: error object`);
  } else
    t.ok(
      res.body?.data !== undefined || res.body?.meta?.message === 'Object successfully deleted',
      `${label}: a document`,
    );
}

/** Every row of `tables`, read in one statement: what a refused request must leave unchanged. */
export const snapshotOf = (app: FastifyInstance, tables: string[]) => {
  const each = tables.map((name) => `(select coalesce(json_agg(t order by t), '[]') from ${name} t) as ${name}`);
  return () => app.sql.unsafe(`select ${each.join(', ')}`);
};

/** [what, input, status, pointer]: a request `send(input)` must refuse. */
export type RefusedCase<T> = [string, T, number, string?];

/** One subtest per case: the error document with that status and pointer, and nothing written. */
export async function expectRefused<T>(
  t: Test,
  cases: RefusedCase<T>[],
  send: (input: T) => ReturnType<typeof call>,
  snapshot: () => Promise<unknown>,
  before: unknown,
) {
  for (const [what, input, status, pointer] of cases) {
    await t.test(what, async (t) => {
      expectError(t, await send(input), status, pointer !== undefined ? { pointer } : {});
      t.same(await snapshot(), before, `${what}: nothing written`);
    });
  }
}
