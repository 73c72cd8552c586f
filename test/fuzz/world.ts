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
import { doorRecords } from './door.js';

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
  if (status !== 200 && status !== 201 && status !== 202)
    throw new Error(
      `fuzz world: ${what}: ${status} ${typeof res.body === 'string' ? res.body : JSON.stringify(res.body)}`,
    );
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
          attributes: { attendees: [{ name: 'Ann', email: 'ann@example.com' }] },
          relationships: { event: rel('event', published.event) },
        },
      },
    }),
  );
  const page = await create(app, admin, 'pages', 'page', { name: 'About', url: '/about', description: 'About us' });
  const eventType = await create(app, admin, 'event-types', 'event-type', { name: 'Conference' });
  const subTopic = await create(
    app,
    admin,
    'event-sub-topics',
    'event-sub-topic',
    { name: 'Robotics' },
    { 'event-topic': rel('event-topic', topic) },
  );
  // The sub-topic's placeholder image (its variants are the image job's, which the fuzzer's app does not run).
  const [placeholder] = await app.sql<{ id: number }[]>`
    insert into custom_placeholders (name, original_image_url, event_sub_topic_id)
    values ('Robots', 'https://example.com/robots.jpg', ${Number(subTopic)}) returning id`;
  // Only the server writes notifications (a finished import): one row as an import would leave it.
  const [notification] = await app.sql<
    { id: number }[]
  >`insert into notifications (user_id, title, message) values (${Number(cast.owner.id)}, 'Import done', 'Your event was imported') returning id`;
  // The server issues event invoices (src/resources/event-invoices/issue.ts): one of the published event, as it leaves it.
  const [invoice] = await app.sql<{ id: number; identifier: string }[]>`
    insert into event_invoices (identifier, amount, user_id, event_id, month, issued_at)
    values ('200002U-000001', 12.5, ${Number(cast.owner.id)}, ${Number(published.event)}, '2000-01', '2000-02-01T00:00:00Z')
    returning id, identifier`;
  // The messages and logs (issue 43): a seeded message setting, the owner's e-mail notification for the published
  // event, a mail as the mailer records it, and a line of the activity log.
  const [messageSetting] = await app.sql<{ id: number }[]>`select id from message_settings order by id limit 1`;
  const [emailNotification] = await app.sql<{ id: number }[]>`insert into email_notifications (user_id, event_id)
    values (${Number(cast.owner.id)}, ${Number(published.event)}) returning id`;
  const [mail] = await app.sql<{ id: number }[]>`insert into mails (recipient, subject, message, action, status)
    values ('fuzz@example.org', 'Fuzz', 'The text', 'test-mail', 'sent') returning id`;
  const [activity] = await app.sql<{ id: number }[]>`insert into activities (actor, action)
    values ('fuzz@example.org (1)', 'Event 1 updated') returning id`;
  // An import job as the import leaves its task (the fuzzer's imports would run no job).
  const [importTask] = await app.sql<
    { id: string }[]
  >`insert into tasks (kind, user_id, state, result) values ('import', ${Number(cast.owner.id)}, 'FAILURE', '{"message":"No event"}') returning id`;
  const invite = await create(
    app,
    cast.owner.token,
    'role-invites',
    'role-invite',
    { email: 'invitee@example.org', 'role-name': 'registrar' },
    {
      event: { data: { type: 'event', id: published.event } },
    },
  );
  const heldRoles = await app.sql<
    { id: number }[]
  >`select event_role_id as id from event_roles where event_id in (${Number(published.event)}, ${Number(draft.event)})`;
  const exported = await must(
    'export',
    await call(app, {
      method: 'POST',
      url: `/v1/events/${published.event}/export/json`,
      token: admin,
      body: {},
      headers: { 'content-type': 'application/json' },
    }),
  );
  const bytes = await makeImage('png', 8, 8);
  const upload = multipart([['file', 'notes.txt', 'hello']]);
  const stored = await must(
    'upload',
    await app.inject({
      method: 'POST',
      url: '/v1/upload/file?force_local=true',
      headers: { ...upload.headers, authorization: `JWT ${admin}` },
      payload: upload.payload,
    }),
  );
  const skill = await app.inject({
    method: 'POST',
    url: '/cms/modifySkill.json',
    query: {
      access_token: admin,
      model: 'general',
      group: 'Knowledge',
      language: 'en',
      skill: 'fuzz',
      content: 'hello',
      changelog: 'fuzz world',
    },
  });
  if (!skill.json().accepted) throw new Error(`fuzz world: skill: ${skill.body}`);

  const sales = { 'sales-starts-at': '2030-01-01T00:00:00Z', 'sales-ends-at': '2030-02-01T00:00:00Z' };
  const perEvent = async (make: (event: string) => Promise<string>) => [
    await make(published.event),
    await make(draft.event),
  ];
  const tickets = await perEvent((event) =>
    create(app, admin, 'tickets', 'ticket', { name: 'Entry', ...sales }, { event: rel('event', event) }),
  );
  const taxes = await perEvent((event) =>
    create(app, admin, 'taxes', 'tax', { name: 'VAT', rate: 19 }, { event: rel('event', event) }),
  );
  const calls = await perEvent((event) =>
    create(
      app,
      admin,
      'speakers-calls',
      'speakers-call',
      { 'starts-at': '2030-01-01T00:00:00Z', 'ends-at': '2030-02-01T00:00:00Z' },
      { event: rel('event', event) },
    ),
  );
  const attendee = await create(
    app,
    admin,
    'attendees',
    'attendee',
    { firstname: 'Ann' },
    {
      event: rel('event', published.event),
      order: rel('order', order.data.id),
      ticket: rel('ticket', tickets[0]!),
    },
  );
  // The order holds a free ticket: it costs nothing, and is completed once its holder is in.
  await must(
    'completing the order',
    await call(app, {
      method: 'PATCH',
      url: `/v1/orders/${order.data.id}`,
      token: admin,
      body: { data: { type: 'order', id: order.data.id, attributes: { status: 'completed' } } },
    }),
  );
  // None can be made through the API (no Stripe here): one row as a Stripe integration would write it.
  const [stripe] = await app.sql<
    { id: number }[]
  >`insert into stripe_authorizations (event_id) values (${Number(published.event)}) returning id`;
  // The owner rates each event's session, adds it to their schedule and invites a co-speaker to it.
  const social = async (r: World['published']) => {
    const session = rel('session', r.session);
    return {
      feedback: await create(app, cast.owner.token, 'feedbacks', 'feedback', { rating: 4 }, { session }),
      favourite: await create(
        app,
        cast.owner.token,
        'user-favourite-sessions',
        'user-favourite-session',
        {},
        { session },
      ),
      invite: await create(
        app,
        cast.owner.token,
        'speaker-invites',
        'speaker-invite',
        { email: 'guest@example.org' },
        { session, event: rel('event', r.event) },
      ),
    };
  };
  const socials = [await social(published), await social(draft)];
  const stream = await create(
    app,
    admin,
    'video-streams',
    'video-stream',
    { name: 'Main', url: 'https://meet.example.org/main' },
    { event: rel('event', published.event) },
  );
  const roomStream = await create(
    app,
    admin,
    'video-streams',
    'video-stream',
    { name: 'Room', url: 'https://meet.example.org/room' },
    { rooms: { data: [{ type: 'microlocation', id: draft.microlocation }] } },
  );
  const group = await create(
    app,
    admin,
    'groups',
    'group',
    { name: 'Summits' },
    { events: { data: [{ type: 'event', id: published.event }] } },
  );
  const follow = await create(
    app,
    cast.owner.token,
    'user-follow-groups',
    'user-follow-group',
    {},
    { group: rel('group', group) },
  );
  const ticketTags = await perEvent((event) =>
    create(app, admin, 'ticket-tags', 'ticket-tag', { name: 'Early' }, { event: rel('event', event) }),
  );
  const tags = await perEvent((event) =>
    create(app, admin, 'tags', 'tag', { name: 'VIPs' }, { event: rel('event', event) }),
  );
  const ticketFee = await create(app, admin, 'ticket-fees', 'ticket-fee', { currency: 'EUR', country: 'DE' });
  const formOptions = await Promise.all(
    [published.customForm, draft.customForm].map((form) =>
      create(
        app,
        admin,
        'custom-form-options',
        'custom-form-option',
        { value: 'S' },
        {
          'custom-form': rel('custom_form', form),
        },
      ),
    ),
  );
  // Each event's codes (text FUZZ), found by the lookups too.
  const discountCodes = await perEvent((event) =>
    create(
      app,
      admin,
      'discount-codes',
      'discount-code',
      { code: 'FUZZ', type: 'amount', value: 1 },
      { event: rel('event', event) },
    ),
  );
  const accessCodes = await perEvent((event) =>
    create(app, admin, 'access-codes', 'access-code', { code: 'FUZZ' }, { event: rel('event', event) }),
  );
  const records = (pick: (r: World['published']) => string) => [pick(published), pick(draft)];
  const ids = new Map<string, string[]>([
    ['user', [cast.owner, cast.organizer, cast.coorganizer, cast.speaker, cast.other, cast.admin].map((u) => u.id)],
    ['event', records((r) => r.event)],
    ['event-topic', [topic]],
    ['event-type', [eventType]],
    ['event-sub-topic', [subTopic]],
    ['custom-placeholder', [String(placeholder!.id)]],
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
    ['message-setting', [String(messageSetting!.id)]],
    ['email-notification', [String(emailNotification!.id)]],
    ['mail', [String(mail!.id)]],
    ['activity', [String(activity!.id)]],
    ['event-invoice', [String(invoice!.id), invoice!.identifier]],
    ['ticket', tickets],
    ['tax', taxes],
    ['ticket-tag', ticketTags],
    ['tag', tags],
    ['ticket-fee', [ticketFee]],
    ['discount-code', discountCodes],
    ['access-code', accessCodes],
    ['custom-form-option', formOptions],
    ['speakers-call', calls],
    ['attendee', [attendee]],
    ['stripe-authorization', [String(stripe!.id)]],
    ['feedback', socials.map((s) => s.feedback)],
    ['user-favourite-session', socials.map((s) => s.favourite)],
    ['speaker-invite', socials.map((s) => s.invite)],
    ['video-stream', [stream, roomStream]],
    ['group', [group]],
    ['user-follow-group', [follow]],
    ['role', ['organizer', 'owner']],
    ...(await consoleIds(app)),
    ['users-events-roles', heldRoles.map((r) => String(r.id))],
    ['role-invite', [invite]],
    ['import-job', [importTask!.id]],
    // The statistics of an event and of a ticket have its id.
    ['event-statistics-general', records((r) => r.event)],
    ['order-statistics-event', records((r) => r.event)],
    ['order-statistics-ticket', tickets],
    ...(await doorRecords(app, admin, { ...published, attendee })),
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

/** The seeded records of the administrator's console (system roles, panels, user and event role permissions, services). */
async function consoleIds(app: FastifyInstance): Promise<Array<[string, string[]]>> {
  const ids = async (table: string) =>
    (await app.sql<{ id: number }[]>`select id from ${app.sql(table)} order by id limit 3`).map((r) => String(r.id));
  return [
    ['custom-system-role', await ids('custom_sys_roles')],
    ['panel-permission', await ids('panel_permissions')],
    ['user-permission', await ids('user_permissions')],
    ['service', await ids('services')],
    ['event-role-permissions', await ids('permissions')],
  ];
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
  if (name === 'event_id' || name === 'event') return events;
  // The lookups of discount and access codes by their text (the world's codes are FUZZ).
  if (name === 'code') return ['FUZZ', 'fuzz', 'NOPE'];
  if (name === 'task_id') return fw.taskIds;
  if (name === 'source_type') return ['json'];
  if (name === 'identifier' && path.startsWith('/v1/orders/')) return fw.orderIdentifiers;
  if (name === 'identifier' && path.startsWith('/v1/event-invoices/')) return fw.ids.get('event-invoice')!;
  // The front end's path of an order's tickets (a UUID there names an order), and one holder's ticket as PDF.
  if (name === 'order_identifier') return fw.orderIdentifiers;
  if (name === 'attendee_id') return fw.ids.get('attendee')!;
  // The door's lists by session and by badge (door.ts: the badge is `fuzz`), and a ticket's badge fields.
  if (name === 'session_id') return fw.ids.get('session')!;
  if (name === 'badge_id') return ['fuzz', 'nope'];
  if (name === 'ticket_id') return fw.ids.get('ticket')!;
  // The door's scan at a station (door.ts: a registration desk).
  if (name === 'station_id') return fw.ids.get('station')!;
  if (name === 'provider') return ['facebook', 'google'];
  if (name === 'path') return path.startsWith('/static/media/') ? fw.mediaPaths : ['export.zip', 'a/b.zip'];
  const collection = /^\/v1\/([^/]+)\/\{id\}/.exec(path)?.[1];
  if (collection === 'settings') return ['1'];
  // The one record of each image-size kind (seeded by the migration).
  if (collection === 'event-image-sizes') return ['1'];
  if (collection === 'speaker-image-sizes') return ['2'];
  if (collection === 'events') return events;
  if (collection === 'orders') return [...fw.ids.get('order')!, ...fw.orderIdentifiers];
  const type = collection && typeOfCollection.get(collection);
  const values = type ? fw.ids.get(type) : undefined;
  if (!values) throw new Error(`fuzz world: no values for {${name}} of ${path}`);
  return values;
}
