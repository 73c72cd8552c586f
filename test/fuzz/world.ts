/**
 * The records the fuzzer's requests name: the event world of test/helpers/events.ts plus one record of
 * every other kind (order, page, notification, task, stored file, skill), and the accounts it sends
 * requests as. Ids are grouped by JSON:API type for bodies and by URL for path parameters.
 */
import type { FastifyInstance } from 'fastify';
import { call } from '../helpers/app.js';
import { buildWorld, create, rel, type World } from '../helpers/events.js';
import { dataUri, makeImage, multipart } from '../helpers/images.js';
import { seedUser, type TestUser } from '../helpers/users.js';
import { operations } from './operations.js';

export interface FuzzWorld {
  world: World;
  superAdmin: TestUser;
  /** A user with no role anywhere. */
  user: TestUser;
  /** E-mail addresses of accounts the fuzzer may change (never its own). */
  emails: string[];
  /** JSON:API type -> ids of existing records (users: never the fuzzer's own accounts). */
  ids: Map<string, string[]>;
  orderIdentifiers: string[];
  taskIds: string[];
  /** Paths under /static/media/ of stored files. */
  mediaPaths: string[];
  /** A PNG as a data URI and as bytes, for the image routes. */
  png: { uri: string; bytes: Buffer };
}

async function must(what: string, res: { status?: number; statusCode?: number; body: unknown }) {
  const status = res.status ?? res.statusCode;
  if (status !== 200 && status !== 201 && status !== 202) throw new Error(`fuzz world: ${what}: ${status} ${typeof res.body === 'string' ? res.body : JSON.stringify(res.body)}`);
  return typeof res.body === 'string' ? JSON.parse(res.body) : res.body;
}

export async function buildFuzzWorld(app: FastifyInstance): Promise<FuzzWorld> {
  const world = await buildWorld(app);
  const superAdmin = await seedUser(app, { superAdmin: true });
  const user = await seedUser(app);
  const admin = superAdmin.token;
  const { published, draft, cast, topic } = world;
  const order = await must(
    'order',
    await call(app, {
      method: 'POST',
      url: '/v1/orders',
      token: admin,
      body: {
        data: {
          type: 'order',
          attributes: { status: 'completed', amount: 10, attendees: [{ name: 'Ann', email: 'ann@example.com' }] },
          relationships: { event: rel('event', published.event) },
        },
      },
    }),
  );
  const page = await create(app, admin, 'pages', 'page', { name: 'About', url: '/about', description: 'About us' });
  // Only the server writes notifications (a finished import): one row as an import would leave it.
  const [notification] = await app.sql<{ id: number }[]>`insert into notifications (user_id, title, message) values (${Number(cast.owner.id)}, 'Import done', 'Your event was imported') returning id`;
  const invite = await create(app, cast.owner.token, 'role-invites', 'role-invite', { email: 'invitee@example.org', 'role-name': 'registrar' }, {
    event: { data: { type: 'event', id: published.event } },
  });
  const heldRoles = await app.sql<{ id: number }[]>`select event_role_id as id from event_roles where event_id in (${Number(published.event)}, ${Number(draft.event)})`;
  const exported = await must(
    'export',
    await call(app, { method: 'POST', url: `/v1/events/${published.event}/export/json`, token: admin, body: {}, headers: { 'content-type': 'application/json' } }),
  );
  const bytes = await makeImage('png', 8, 8);
  const upload = multipart([['file', 'notes.txt', 'hello']]);
  const stored = await must('upload', await app.inject({ method: 'POST', url: '/v1/upload/file?force_local=true', headers: { ...upload.headers, authorization: `JWT ${admin}` }, payload: upload.payload }));
  const skill = await app.inject({
    method: 'POST',
    url: '/cms/modifySkill.json',
    query: { access_token: admin, model: 'general', group: 'Knowledge', language: 'en', skill: 'fuzz', content: 'hello', changelog: 'fuzz world' },
  });
  if (!skill.json().accepted) throw new Error(`fuzz world: skill: ${skill.body}`);

  const records = (pick: (r: World['published']) => string) => [pick(published), pick(draft)];
  const ids = new Map<string, string[]>([
    ['user', [cast.owner, cast.organizer, cast.coorganizer, cast.speaker, cast.other, cast.admin].map((u) => u.id)],
    ['event', records((r) => r.event)],
    ['event-topic', [topic]],
    ['event-copyright', records((r) => r.copyright)],
    ['social-link', records((r) => r.socialLink)],
    ['microlocation', records((r) => r.microlocation)],
    ['sponsor', records((r) => r.sponsor)],
    ['track', records((r) => r.track)],
    ['session-type', records((r) => r.sessionType)],
    ['session', records((r) => r.session)],
    ['speaker', records((r) => r.speaker)],
    ['custom_form', records((r) => r.customForm)],
    ['order', [order.data.id]],
    ['page', [page]],
    ['notification', [String(notification!.id)]],
    ['role', ['organizer', 'owner']],
    ['users-events-role', heldRoles.map((r) => String(r.id))],
    ['role-invite', [invite]],
  ]);
  return {
    world,
    superAdmin,
    user,
    emails: Object.values(cast).map((u) => u.email),
    ids,
    orderIdentifiers: [order.data.attributes.identifier],
    taskIds: [String(exported.task_url).split('/').pop()!],
    mediaPaths: [new URL(String(stored.url)).pathname.replace(/^\/static\/media\//, '')],
    png: { uri: dataUri(bytes, 'png'), bytes },
  };
}

/** The collection a `/v1/<collection>/{id}` path names -> the type of its records (from the detail routes). */
const typeOfCollection = new Map(
  operations.flatMap((op) => {
    const m = /^\/v1\/([^/]+)\/\{id\}$/.exec(op.path);
    return m && op.method === 'GET' && op.primaryType ? [[m[1]!, op.primaryType] as const] : [];
  }),
);

/** Values that name existing things in a path parameter of `path`. */
export function pathValues(fw: FuzzWorld, path: string, name: string): string[] {
  const events = [...fw.ids.get('event')!, fw.world.published.identifier, fw.world.draft.identifier];
  if (name === 'event_id') return events;
  if (name === 'task_id') return fw.taskIds;
  if (name === 'source_type') return ['json'];
  if (name === 'path') return path.startsWith('/static/media/') ? fw.mediaPaths : ['export.zip', 'a/b.zip'];
  const collection = /^\/v1\/([^/]+)\/\{id\}/.exec(path)?.[1];
  if (collection === 'settings') return ['1'];
  if (collection === 'events') return events;
  if (collection === 'orders') return [...fw.ids.get('order')!, ...fw.orderIdentifiers];
  const type = collection && typeOfCollection.get(collection);
  const values = type ? fw.ids.get(type) : undefined;
  if (!values) throw new Error(`fuzz world: no values for {${name}} of ${path}`);
  return values;
}
