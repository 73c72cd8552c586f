/**
 * The world the blueprint's examples refer to, seeded through the API as the reference's Dredd hooks seed it
 * (tests/hook_main.py: one record of each kind, a super administrator whose token every request carries):
 * an administrator (the examples' user 1, who owns the event and makes everything), a second user (user 2),
 * the login user of the authentication examples, and one event holding one record of every kind.
 * `fresh(kind)` makes another record of a kind for an example that deletes one.
 */
import type { FastifyInstance } from 'fastify';
import { users } from '../../db/schema/index.js';
import { hashPassword } from '../../src/auth/password.js';
import { call } from '../helpers/app.js';
import { create, eventAttributes, rel } from '../helpers/events.js';
import { acceptPayment } from '../helpers/orders.js';
import { attendeeAttributes, speakersCallAttributes, ticketAttributes } from '../helpers/ticket-bodies.js';
import { taskEnded } from '../helpers/service.js';
import { seedUser, type TestUser } from '../helpers/users.js';

/** The account of the authentication examples (`email@example.com`, `password`), as the hooks make it. */
export const LOGIN = { email: 'email@example.com', password: 'password' };
/** The reference's super administrator, whose address some examples name. */
export const SUPER_ADMIN_EMAIL = 'open_event_test_user@fossasia.org';

export interface Kind {
  /** The JSON:API type of its records in the examples' bodies. */
  type: string;
  /** Kinds an event holds at most one of: a fresh one needs a fresh event. */
  onePerEvent?: boolean;
  /** Makes a record in `event` and answers its id. */
  make(w: BlueprintWorld, event: string): Promise<string>;
}

export class BlueprintWorld {
  /** The id of the world's record of each collection (the URL segment: `events`, `tracks`, ...). */
  readonly ids = new Map<string, string>();
  orderIdentifier = '';
  /**
   * An export of the world's event, ended: its task (the task example reads it) and its archive (the Event Import
   * example uploads it). Started when the world is built, so the job runs while the examples before those are replayed.
   */
  exported!: Promise<{ taskUrl: string; archive: Buffer }>;
  /** What a hook leaves for a later one. */
  readonly notes = new Map<string, string>();
  private constructor(
    readonly app: FastifyInstance,
    readonly admin: TestUser,
    readonly user: TestUser,
  ) {}

  get token() {
    return this.admin.token;
  }

  id(collection: string): string {
    const id = this.ids.get(collection);
    if (id === undefined) throw new Error(`the world has no ${collection}`);
    return id;
  }

  create(path: string, type: string, attributes: Record<string, unknown>, relationships: Record<string, unknown> = {}) {
    return create(this.app, this.token, path, type, attributes, relationships);
  }

  /** Another record of `collection`, in the world's event or, for kinds an event holds one of, in a new event. */
  async fresh(collection: string): Promise<string> {
    const kind = KINDS[collection];
    if (!kind) throw new Error(`no recipe for a fresh ${collection}`);
    const event = kind.onePerEvent ? await KINDS.events!.make(this, '') : this.id('events');
    return kind.make(this, event);
  }

  static async build(app: FastifyInstance): Promise<BlueprintWorld> {
    const admin = { ...(await seedUser(app, { admin: true, superAdmin: true })), email: SUPER_ADMIN_EMAIL };
    await app.sql`update users set email = ${SUPER_ADMIN_EMAIL} where id = ${Number(admin.id)}`;
    const user = await seedUser(app);
    await app.db.insert(users).values({ email: LOGIN.email, passwordHash: await hashPassword(LOGIN.password) });
    await app.sql`update users set is_verified = true`;
    const w = new BlueprintWorld(app, admin, user);
    w.ids.set('users', admin.id);
    w.ids.set('roles', 'organizer');
    for (const [collection, kind] of Object.entries(KINDS)) {
      if (collection === 'users') continue;
      w.ids.set(collection, await kind.make(w, w.ids.get('events') ?? ''));
    }
    const order = await call(app, { url: `/v1/orders/${w.id('orders')}`, token: w.token });
    w.orderIdentifier = order.body.data.attributes.identifier;
    w.exported = exportOf(w);
    // Awaited by the hooks that use it; a failure shows there.
    w.exported.catch(() => {});
    return w;
  }
}

async function exportOf(w: BlueprintWorld): Promise<{ taskUrl: string; archive: Buffer }> {
  const answer = await call(w.app, {
    method: 'POST',
    url: `/v1/events/${w.id('events')}/export/json`,
    token: w.token,
    body: {},
    headers: { 'content-type': 'application/json' },
  });
  if (answer.status >= 300) throw new Error(`the export: ${answer.status} ${JSON.stringify(answer.body)}`);
  const done = await taskEnded(w.app, answer.body.task_url, w.token, 60_000);
  const url = new URL(String(done.result?.download_url ?? ''), 'http://localhost');
  const zip = await w.app.inject({ url: url.pathname, headers: { authorization: `JWT ${w.token}` } });
  if (zip.statusCode !== 200) throw new Error(`the export's archive: ${zip.statusCode}`);
  return { taskUrl: answer.body.task_url, archive: zip.rawPayload };
}

const of = (event: string) => ({ event: rel('event', event) });
let serial = 0;
const unique = (s: string) => `${s} ${++serial}`;

/** One recipe per collection, in the order the world makes them (a kind's relationships come before it). */
export const KINDS: Record<string, Kind> = {
  users: { type: 'user', make: async (w) => (await seedUser(w.app)).id },
  'event-types': {
    type: 'event-type',
    make: (w) => w.create('event-types', 'event-type', { name: unique('Conference') }),
  },
  'event-topics': {
    type: 'event-topic',
    make: (w) => w.create('event-topics', 'event-topic', { name: unique('Science') }),
  },
  'event-sub-topics': {
    type: 'event-sub-topic',
    make: (w) =>
      w.create(
        'event-sub-topics',
        'event-sub-topic',
        { name: unique('Robotics') },
        { 'event-topic': rel('event-topic', w.id('event-topics')) },
      ),
  },
  'custom-placeholders': {
    type: 'custom-placeholder',
    // The world's sub-topic has the first; a sub-topic has at most one, so later ones (a delete's) have none.
    make: (w) =>
      w.create(
        'custom-placeholders',
        'custom-placeholder',
        { name: unique('Robots'), 'original-image-url': 'https://example.com/placeholder.jpg' },
        w.ids.has('custom-placeholders') ? {} : { 'event-sub-topic': rel('event-sub-topic', w.id('event-sub-topics')) },
      ),
  },
  events: {
    type: 'event',
    make: (w) =>
      w.create('events', 'event', eventAttributes(unique('Open Summit')), {
        'event-topic': rel('event-topic', w.id('event-topics')),
        'event-sub-topic': rel('event-sub-topic', w.id('event-sub-topics')),
        'event-type': rel('event-type', w.id('event-types')),
        organizers: { data: [{ type: 'user', id: w.user.id }] },
      }),
  },
  'event-copyrights': {
    type: 'event-copyright',
    onePerEvent: true,
    make: (w, event) =>
      w.create(
        'event-copyrights',
        'event-copyright',
        { holder: 'FOSSASIA', licence: 'CC BY 4.0', year: 2024 },
        of(event),
      ),
  },
  'social-links': {
    type: 'social-link',
    make: (w, event) =>
      w.create('social-links', 'social-link', { name: 'Site', link: 'https://example.com' }, of(event)),
  },
  microlocations: {
    type: 'microlocation',
    make: (w, event) => w.create('microlocations', 'microlocation', { name: unique('Room'), floor: 1 }, of(event)),
  },
  sponsors: {
    type: 'sponsor',
    make: (w, event) => w.create('sponsors', 'sponsor', { name: 'ACME', level: 1 }, of(event)),
  },
  tracks: {
    type: 'track',
    make: (w, event) => w.create('tracks', 'track', { name: unique('Web'), color: '#a04b23' }, of(event)),
  },
  'session-types': {
    type: 'session-type',
    make: (w, event) => w.create('session-types', 'session-type', { name: unique('Talk'), length: '00:30' }, of(event)),
  },
  speakers: {
    type: 'speaker',
    make: (w, event) =>
      w.create(
        'speakers',
        'speaker',
        { name: 'Ada', email: `ada${++serial}@example.com`, mobile: '+49 30 123456' },
        { ...of(event), user: rel('user', w.admin.id) },
      ),
  },
  sessions: {
    type: 'session',
    make: (w, event) =>
      w.create(
        'sessions',
        'session',
        { title: 'Opening', 'starts-at': '2030-05-01T10:00:00Z', 'ends-at': '2030-05-01T10:30:00Z', state: 'accepted' },
        {
          ...of(event),
          track: rel('track', w.id('tracks')),
          microlocation: rel('microlocation', w.id('microlocations')),
          'session-type': rel('session-type', w.id('session-types')),
          speakers: { data: [{ type: 'speaker', id: w.id('speakers') }] },
        },
      ),
  },
  'custom-forms': {
    type: 'custom-form',
    make: (w, event) =>
      w.create(
        'custom-forms',
        'custom_form',
        { form: 'speaker', 'field-identifier': `shirt${++serial}`, type: 'text' },
        of(event),
      ),
  },
  'speakers-calls': {
    type: 'speakers-call',
    onePerEvent: true,
    make: (w, event) =>
      w.create(
        'speakers-calls',
        'speakers-call',
        speakersCallAttributes({ 'ends-at': '2030-04-01T00:00:00Z', hash: `call-${++serial}` }),
        of(event),
      ),
  },
  taxes: {
    type: 'tax',
    onePerEvent: true,
    make: (w, event) => w.create('taxes', 'tax', { name: 'VAT', rate: 19 }, of(event)),
  },
  tickets: {
    type: 'ticket',
    // Paid: the discount code examples name it, and a discount code lowers paid tickets only.
    make: (w, event) =>
      w.create(
        'tickets',
        'ticket',
        ticketAttributes({ name: unique('Standard'), type: 'paid', price: 100 }),
        of(event),
      ),
  },
  'discount-codes': {
    type: 'discount-code',
    make: (w, event) =>
      w.create(
        'discount-codes',
        'discount-code',
        { code: `DC${++serial}`, type: 'amount', value: 10 },
        { ...of(event), tickets: { data: [{ type: 'ticket', id: w.id('tickets') }] } },
      ),
  },
  'access-codes': {
    type: 'access-code',
    // With a hidden ticket of its own (an access code shows hidden tickets): the examples list the tickets of an
    // access code and the access codes of a ticket (hooks.ts names the world's hidden ticket for the latter).
    make: async (w, event) => {
      const hidden = await w.create(
        'tickets',
        'ticket',
        ticketAttributes({ name: unique('Crew'), 'is-hidden': true }),
        of(event),
      );
      if (!w.notes.has('hidden-ticket')) w.notes.set('hidden-ticket', hidden);
      return w.create(
        'access-codes',
        'access-code',
        { code: `AC${++serial}` },
        { ...of(event), tickets: { data: [{ type: 'ticket', id: hidden }] } },
      );
    },
  },
  'ticket-tags': {
    type: 'ticket-tag',
    make: (w, event) =>
      w.create(
        'ticket-tags',
        'ticket-tag',
        { name: unique('Early bird') },
        { ...of(event), tickets: { data: [{ type: 'ticket', id: w.id('tickets') }] } },
      ),
  },
  stations: {
    type: 'station',
    make: (w, event) =>
      w.create(
        'stations',
        'station',
        { 'station-name': unique('Door'), 'station-type': 'registration' },
        { ...of(event), microlocation: rel('microlocation', w.id('microlocations')) },
      ),
  },
  'station-store-paxs': {
    type: 'station-store-pax',
    make: (w) =>
      w.create(
        'station-store-paxs',
        'station-store-pax',
        { 'current-pax': 10 },
        { station: rel('station', w.id('stations')), session: rel('session', w.id('sessions')) },
      ),
  },
  'badge-forms': {
    type: 'badge-form',
    make: (w, event) => w.create('badge-forms', 'badge-form', { 'badge-id': unique('badge') }, of(event)),
  },
  'badge-field-forms': {
    type: 'badge-field-form',
    make: (w) =>
      w.create(
        'badge-field-forms',
        'badge-field-form',
        { 'badge-id': 'badge', 'field-identifier': 'firstname' },
        { 'badge-form': rel('badge-form', w.id('badge-forms')) },
      ),
  },
  'ticket-fees': {
    type: 'ticket-fee',
    // One fee per currency and country: each one of its own country.
    make: (w) =>
      w.create('ticket-fees', 'ticket-fee', {
        currency: 'EUR',
        country: `C${++serial}`,
        'service-fee': 2,
        'maximum-fee': 5,
      }),
  },
  orders: {
    type: 'order',
    make: async (w, event) => {
      const order = await w.create('orders', 'order', { amount: 0 }, of(event));
      await w.create(
        'attendees',
        'attendee',
        attendeeAttributes({ firstname: 'Grace', lastname: 'Hopper', email: 'grace@example.com' }),
        { ...of(event), order: rel('order', order), ticket: rel('ticket', w.id('tickets')) },
      );
      // The ticket is paid: the buyer places the order by bank transfer, the organizers mark it paid.
      await acceptPayment(w.app, w.token, event, 'bank');
      for (const attributes of [{ 'payment-mode': 'bank', status: 'placed' }, { status: 'completed' }]) {
        const done = await call(w.app, {
          method: 'PATCH',
          url: `/v1/orders/${order}`,
          token: w.token,
          body: { data: { type: 'order', id: order, attributes } },
        });
        if (done.status !== 200) throw new Error(`completing an order: ${done.status} ${JSON.stringify(done.body)}`);
      }
      return order;
    },
  },
  'event-invoices': {
    type: 'event-invoice',
    // The server issues invoices (src/resources/event-invoices/issue.ts): one as a month's run leaves it, each of a
    // month of its own (one per event and month), billed to the examples' user 2 (one of the event's organizers),
    // whose list of invoices an example reads.
    make: async (w, event) => {
      const n = ++serial;
      const [row] = await w.app.sql<{ id: number }[]>`
        insert into event_invoices (identifier, amount, user_id, event_id, month, issued_at)
        values (${`200002U-${String(n).padStart(6, '0')}`}, 12.5, ${Number(w.user.id)}, ${Number(event)},
          ${`${1900 + n}-01`}, ${`${1900 + n}-02-01T00:00:00Z`})
        returning id`;
      return String(row!.id);
    },
  },
  attendees: {
    type: 'attendee',
    make: (w, event) =>
      w.create(
        'attendees',
        'attendee',
        attendeeAttributes({ firstname: 'Ann', lastname: 'Lee', email: 'ann@example.com' }),
        {
          ...of(event),
          order: rel('order', w.id('orders')),
          ticket: rel('ticket', w.id('tickets')),
        },
      ),
  },
  // The administrator's console: a panel of its own with a role of its own that opens it, a user permission.
  'panel-permissions': {
    type: 'panel-permission',
    make: (w) => w.create('panel-permissions', 'panel-permission', { 'panel-name': unique('panel') }),
  },
  'custom-system-roles': {
    type: 'custom-system-role',
    make: (w) =>
      w.create(
        'custom-system-roles',
        'custom-system-role',
        { name: unique('Accountant') },
        { 'panel-permissions': { data: [{ type: 'panel-permission', id: w.id('panel-permissions') }] } },
      ),
  },
  'user-permissions': {
    type: 'user-permission',
    make: (w) => w.create('user-permissions', 'user-permission', { name: unique('action'), description: 'An action' }),
  },
  'role-invites': {
    type: 'role-invite',
    make: (w, event) =>
      w.create(
        'role-invites',
        'role-invite',
        { email: `invitee${++serial}@example.org`, 'role-name': 'coorganizer' },
        of(event),
      ),
  },
  'users-events-roles': {
    type: 'users-events-roles',
    make: async (w, event) => {
      const user = await seedUser(w.app);
      const [row] = await w.app.sql<{ id: number }[]>`
        insert into event_roles (event_id, user_id, role) values (${Number(event)}, ${Number(user.id)}, 'coorganizer')
        returning event_role_id as id`;
      return String(row!.id);
    },
  },
  groups: {
    type: 'group',
    // An event belongs to one group.
    onePerEvent: true,
    make: (w, event) =>
      w.create('groups', 'group', { name: unique('Summits') }, { events: { data: [{ type: 'event', id: event }] } }),
  },
  feedbacks: {
    type: 'feedback',
    // One rating per user and session: a fresh one rates a fresh session.
    make: async (w, event) => {
      const session = w.ids.has('feedbacks') ? await KINDS.sessions!.make(w, event) : w.id('sessions');
      return w.create('feedbacks', 'feedback', { rating: 4 }, { session: rel('session', session) });
    },
  },
  'user-favourite-sessions': {
    type: 'user-favourite-session',
    make: async (w, event) => {
      // One favourite per user and session: a fresh one marks a fresh session.
      const session = w.ids.has('user-favourite-sessions') ? await KINDS.sessions!.make(w, event) : w.id('sessions');
      return w.create('user-favourite-sessions', 'user-favourite-session', {}, { session: rel('session', session) });
    },
  },
  'message-settings': {
    type: 'message-setting',
    // Seeded one per kind of mail: the examples' is event_role.
    make: async (w) => {
      const [row] = await w.app.sql<{ id: number }[]>`select id from message_settings where action = 'event_role'`;
      return String(row!.id);
    },
  },
  'email-notifications': {
    type: 'email-notification',
    // One per user and event: a fresh one is for a fresh event.
    onePerEvent: true,
    // The examples' user 2 (w.user) chooses; the administrator's token reads and changes them.
    make: (w, event) =>
      create(w.app, w.user.token, 'email-notifications', 'email-notification', { 'session-schedule': true }, of(event)),
  },
  mails: {
    type: 'mail',
    // The mailer records every mail it sends: one sent to the examples' user.
    make: async (w) => {
      const sent = await w.app.mailer.send({
        to: { address: w.user.email },
        subject: 'Welcome',
        action: 'test-mail',
        text: 'Welcome to the examples',
      });
      return String(sent.id);
    },
  },
  activities: {
    type: 'activity',
    // The world's writes have logged lines already: the first of them.
    make: async (w) => {
      const [row] = await w.app.sql<{ id: number }[]>`select min(id)::int as id from activities`;
      return String(row!.id);
    },
  },
  notifications: {
    type: 'notification',
    // Only the server writes notifications: one row as a finished import leaves it (user 2's, as in the examples).
    make: async (w) => {
      const [row] = await w.app.sql<{ id: number }[]>`
        insert into notifications (user_id, title, message) values (${Number(w.user.id)}, 'Import done', 'Your event was imported')
        returning id`;
      return String(row!.id);
    },
  },
  'stripe-authorizations': {
    type: 'stripe-authorization',
    onePerEvent: true,
    // None can be made through the API without Stripe: one row as the integration writes it.
    make: async (w, event) => {
      const [row] = await w.app.sql<{ id: number }[]>`
        insert into stripe_authorizations (event_id) values (${Number(event)}) returning id`;
      return String(row!.id);
    },
  },
  pages: {
    type: 'page',
    make: (w) =>
      w.create('pages', 'page', { name: unique('About'), url: `/about-${++serial}`, description: 'About us' }),
  },
  'video-streams': {
    type: 'video-stream',
    make: (w, event) =>
      w.create('video-streams', 'video-stream', { name: 'Main', url: 'https://meet.example.org/main' }, of(event)),
  },
};

/** The collection of a JSON:API type of the examples' bodies. */
export const collectionOfType = new Map([
  ...Object.entries(KINDS).map(([collection, kind]) => [kind.type, collection] as const),
  ['custom_form', 'custom-forms'],
  ['users-events-roles', 'users-events-roles'],
]);
