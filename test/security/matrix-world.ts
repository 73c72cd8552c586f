/**
 * The records the permission matrix acts on, built through the API: buildWorld's cast and published
 * event with one record of every kind (its owner is the matrix's `owner`), a super admin, a second
 * published event (hosted by someone else, organized by `organizer`) where `owner` bought orders, a
 * page, and a notification for `owner`.
 */
import type { FastifyInstance } from 'fastify';
import { and, eq } from 'drizzle-orm';
import { eventRoles, events, groups, notifications, stripeAuthorizations, tasks } from '../../db/schema/index.js';
import { issueInviteToken } from '../../src/resources/role-invites/mail.js';
import { buildWorld, completeOrder, create, eventAttributes, rel, type World } from '../helpers/events.js';
import { seedUser, type TestUser } from '../helpers/users.js';
import { consoleIds, seedSalesAdmin } from './matrix-console.js';
import { invoiceIds } from './matrix-invoices.js';
import { imageIds } from './matrix-images.js';
import { messageIds } from './matrix-messages.js';
import type { Caller } from './permission-matrix.js';

export interface MatrixWorld {
  world: World;
  users: Record<Exclude<Caller, 'anonymous'>, TestUser>;
  tokens: Record<Caller, string | undefined>;
  /** The event of the orders: published, hosted by another user, `organizer` organizes it. */
  bazaar: string;
  /** An open order `owner` bought in the bazaar. */
  order: string;
  /** A ticket of the bazaar; `ids.attendees` holds it in `order`. */
  bazaarTicket: string;
  /** The identifier of a completed order `owner` bought in the bazaar. */
  completed: string;
  page: string;
  notification: string;
  /** The published event's own video stream, and a group `owner` owns (the published event is in it) and follows. */
  stream: string;
  group: string;
  follow: string;
  /** A tag of the bazaar (the event of the ticket holder the matrix names). */
  bazaarTag: string;
  /** The published event's discount and access codes (text MATRIX) and the administrators' event code. */
  codes: { discount: string; access: string; eventCode: string; paidTicket: string; hiddenTicket: string };
  /** Path segment -> the id a `{param}` after it takes (see fill). */
  ids: Record<string, string>;
}

let n = 0;

/** The codes of the matrix (see MatrixWorld.codes). */
export async function matrixCodes(
  app: FastifyInstance,
  by: { owner: TestUser; admin: TestUser },
  event: string,
  otherEvent: string,
): Promise<MatrixWorld['codes']> {
  const sales = { 'sales-starts-at': '2030-01-01T00:00:00Z', 'sales-ends-at': '2030-05-01T00:00:00Z' };
  const of = { event: rel('event', event) };
  const paidTicket = await create(
    app,
    by.owner.token,
    'tickets',
    'ticket',
    { name: 'Paid', type: 'paid', price: 50, ...sales },
    of,
  );
  const hiddenTicket = await create(
    app,
    by.owner.token,
    'tickets',
    'ticket',
    { name: 'Crew', 'is-hidden': true, ...sales },
    of,
  );
  const tickets = (id: string) => ({ data: [{ type: 'ticket', id }] });
  const discount = await create(
    app,
    by.owner.token,
    'discount-codes',
    'discount-code',
    { code: 'MATRIX', type: 'amount', value: 5 },
    { ...of, tickets: tickets(paidTicket) },
  );
  const access = await create(
    app,
    by.owner.token,
    'access-codes',
    'access-code',
    { code: 'MATRIX' },
    {
      ...of,
      tickets: tickets(hiddenTicket),
    },
  );
  const eventCode = await create(
    app,
    by.admin.token,
    'discount-codes',
    'discount-code',
    { code: `FEE${++n}`, type: 'percent', value: 10, 'used-for': 'event' },
    { events: { data: [{ type: 'event', id: otherEvent }] } },
  );
  return { discount, access, eventCode, paidTicket, hiddenTicket };
}

/** A new order bought by `buyer` in `event` (nothing to pay until ticket holders are added); its id. */
export const buyOrder = (app: FastifyInstance, buyer: TestUser, event: string) =>
  create(
    app,
    buyer.token,
    'orders',
    'order',
    { attendees: [{ name: 'Ada', email: `ada${++n}@example.org` }] },
    { event: rel('event', event) },
  );

/** A notification for `user`, written as the server writes them. */
export async function notify(app: FastifyInstance, user: TestUser): Promise<string> {
  const [row] = await app.db
    .insert(notifications)
    .values({ userId: Number(user.id), title: 'Import done', message: 'Open Summit was imported' })
    .returning();
  return String(row!.id);
}

/** An event import `user` asked for that failed, as the import job leaves its task; its id. */
export async function importTask(app: FastifyInstance, user: TestUser): Promise<string> {
  const [row] = await app.db
    .insert(tasks)
    .values({
      kind: 'import',
      userId: Number(user.id),
      state: 'FAILURE',
      result: { __error: true, message: 'No event' },
    })
    .returning({ id: tasks.id });
  return row!.id;
}

/** A group owned by `user`, as the table stores it (the API wants a verified address); its id. */
export async function ownGroup(app: FastifyInstance, user: TestUser): Promise<string> {
  const [row] = await app.db
    .insert(groups)
    .values({ name: `Group ${++n}`, userId: Number(user.id) })
    .returning({ id: groups.id });
  return String(row!.id);
}

/** A role invite to `email` in `event`, made by `inviter`; its id. */
export const inviteTo = (app: FastifyInstance, inviter: TestUser, event: string, email: string, role = 'coorganizer') =>
  create(
    app,
    inviter.token,
    'role-invites',
    'role-invite',
    { email, 'role-name': role },
    { event: rel('event', event) },
  );

/** A token of an invite's link, issued as its mail issues one (the database keeps only its hash). */
export async function inviteToken(app: FastifyInstance, id: string): Promise<string> {
  return (await issueInviteToken(app.db, Number(id), 3600))!;
}

const tokensOf = (users: MatrixWorld['users']) =>
  ({
    anonymous: undefined,
    ...Object.fromEntries(Object.entries(users).map(([k, u]) => [k, u.token])),
  }) as MatrixWorld['tokens'];

/**
 * The callers alone, for the faces without event records (assistant, app generator): the same users,
 * `owner` owning an event that `organizer` organizes.
 */
export async function buildCallers(app: FastifyInstance): Promise<Pick<MatrixWorld, 'users' | 'tokens'>> {
  const users = {
    other: await seedUser(app),
    owner: await seedUser(app),
    organizer: await seedUser(app),
    admin: await seedUser(app, { admin: true }),
    superAdmin: await seedUser(app, { superAdmin: true }),
    registrar: await seedUser(app),
    salesAdmin: await seedSalesAdmin(app),
  };
  await create(app, users.owner.token, 'events', 'event', eventAttributes('Open Summit'), {
    organizers: { data: [{ type: 'user', id: users.organizer.id }] },
    registrars: { data: [{ type: 'user', id: users.registrar.id }] },
  });
  return { users, tokens: tokensOf(users) };
}

/**
 * The published event's door records, made by its owner: a registration station in its room, a head count of its
 * session there, a ticket holder registered there, and a badge form with one field.
 */
async function doorRecords(app: FastifyInstance, owner: TestUser, p: World['published'], ticket: string) {
  const of = { event: rel('event', p.event) };
  const make = (path: string, type: string, attributes: Record<string, unknown>, relationships = {}) =>
    create(app, owner.token, path, type, attributes, relationships);
  const station = await make(
    'stations',
    'station',
    { 'station-name': 'Desk', 'station-type': 'registration' },
    { ...of, microlocation: rel('microlocation', p.microlocation) },
  );
  const pax = await make(
    'station-store-paxs',
    'station-store-pax',
    { 'current-pax': 3 },
    { station: rel('station', station), session: rel('session', p.session) },
  );
  const holder = await make('attendees', 'attendee', { firstname: 'Kim' }, { ...of, ticket: rel('ticket', ticket) });
  const checkIn = await make(
    'user-check-in',
    'user_check_in',
    {},
    { station: rel('station', station), 'ticket-holder': rel('attendee', holder) },
  );
  const badgeForm = await make('badge-forms', 'badge-form', { 'badge-id': 'matrix' }, of);
  // The holder's ticket wears that badge: its badge prints.
  await app.sql`update tickets set badge_id = 'matrix' where id = ${Number(ticket)}`;
  const badgeField = await make(
    'badge-field-forms',
    'badge-field-form',
    { 'badge-id': 'matrix', 'field-identifier': 'firstname' },
    { 'badge-form': rel('badge-form', badgeForm) },
  );
  return {
    stations: station,
    'station-store-paxs': pax,
    'user-check-in': checkIn,
    'badge-forms': badgeForm,
    'badge-field-forms': badgeField,
  };
}

export async function buildMatrixWorld(app: FastifyInstance): Promise<MatrixWorld> {
  const world = await buildWorld(app);
  const { cast, published: p } = world;
  const users = {
    other: cast.other,
    owner: cast.owner,
    organizer: cast.organizer,
    admin: cast.admin,
    superAdmin: await seedUser(app, { superAdmin: true }),
    registrar: await seedUser(app),
    salesAdmin: await seedSalesAdmin(app),
  };
  // The registrar runs the door of both events (the published one's records, the bazaar's ticket holders).
  await app.sql`insert into event_roles (event_id, user_id, role)
    values (${Number(p.event)}, ${Number(users.registrar.id)}, 'registrar')`;

  const host = await seedUser(app);
  const bazaar = await create(app, host.token, 'events', 'event', eventAttributes('Bazaar'), {
    organizers: { data: [{ type: 'user', id: cast.organizer.id }] },
    registrars: { data: [{ type: 'user', id: users.registrar.id }] },
  });
  const order = await buyOrder(app, cast.owner, bazaar);
  const done = await buyOrder(app, cast.owner, bazaar);
  const completed = await completeOrder(app, cast.organizer.token, done);
  const page = await create(app, cast.admin.token, 'pages', 'page', {
    name: 'Terms',
    url: '/terms',
    description: 'The terms',
  });
  const notification = await notify(app, cast.owner);
  const eventType = await create(app, cast.admin.token, 'event-types', 'event-type', { name: 'Conference' });
  const subTopic = await create(
    app,
    cast.admin.token,
    'event-sub-topics',
    'event-sub-topic',
    { name: 'Robotics' },
    { 'event-topic': rel('event-topic', world.topic) },
  );
  const sales = { 'sales-starts-at': '2030-01-01T00:00:00Z', 'sales-ends-at': '2030-05-01T00:00:00Z' };
  const ofPublished = { event: rel('event', p.event) };
  const ticket = await create(app, cast.owner.token, 'tickets', 'ticket', { name: 'Standard', ...sales }, ofPublished);
  const tax = await create(
    app,
    cast.owner.token,
    'taxes',
    'tax',
    { name: 'VAT', rate: 19, 'tax-id': 'DE1', email: 'tax@example.org' },
    ofPublished,
  );
  const call = await create(
    app,
    cast.owner.token,
    'speakers-calls',
    'speakers-call',
    { 'starts-at': '2030-01-01T00:00:00Z', 'ends-at': '2030-03-01T00:00:00Z' },
    ofPublished,
  );
  // None can be created through the API (no Stripe here): one written as a Stripe integration would.
  const [stripe] = await app.db
    .insert(stripeAuthorizations)
    .values({ eventId: Number(p.event), stripePublishableKey: 'pk_test' })
    .returning();
  const bazaarTicket = await create(
    app,
    host.token,
    'tickets',
    'ticket',
    { name: 'Entry', ...sales },
    { event: rel('event', bazaar) },
  );
  const attendee = await create(
    app,
    cast.owner.token,
    'attendees',
    'attendee',
    { firstname: 'Ada' },
    {
      event: rel('event', bazaar),
      order: rel('order', order),
      ticket: rel('ticket', bazaarTicket),
    },
  );
  // Tags of tickets and of ticket holders, a ticket fee of the administrators, a choice of the custom form field.
  const bazaarTag = await create(app, host.token, 'tags', 'tag', { name: 'VIPs' }, { event: rel('event', bazaar) });
  const tag = await create(app, cast.owner.token, 'tags', 'tag', { name: 'Press' }, ofPublished);
  const ticketTag = await create(
    app,
    cast.owner.token,
    'ticket-tags',
    'ticket-tag',
    { name: 'Early' },
    {
      ...ofPublished,
      tickets: { data: [{ type: 'ticket', id: ticket }] },
    },
  );
  const ticketFee = await create(app, cast.admin.token, 'ticket-fees', 'ticket-fee', {
    currency: 'EUR',
    country: 'DE',
  });
  const option = await create(
    app,
    cast.owner.token,
    'custom-form-options',
    'custom-form-option',
    { value: 'S' },
    {
      'custom-form': rel('custom_form', p.customForm),
    },
  );
  // The event's owner rates its session, adds it to their schedule and invites a co-speaker to it.
  const session = rel('session', p.session);
  const feedback = await create(app, cast.owner.token, 'feedbacks', 'feedback', { rating: 4 }, { session });
  const favourite = await create(
    app,
    cast.owner.token,
    'user-favourite-sessions',
    'user-favourite-session',
    {},
    { session },
  );
  const invite = await create(
    app,
    cast.owner.token,
    'speaker-invites',
    'speaker-invite',
    { email: 'invitee@example.org' },
    {
      session,
      event: rel('event', p.event),
    },
  );
  const stream = await create(
    app,
    cast.owner.token,
    'video-streams',
    'video-stream',
    { name: 'Main hall', url: 'https://meet.example.org/main', password: 'open sesame' },
    { event: rel('event', p.event) },
  );
  // The matrix callers' addresses stay unverified (a verified user may create groups): `owner`'s group is written as stored.
  const group = await ownGroup(app, cast.owner);
  await app.db
    .update(events)
    .set({ groupId: Number(group) })
    .where(eq(events.id, Number(p.event)));
  const follow = await create(
    app,
    cast.owner.token,
    'user-follow-groups',
    'user-follow-group',
    {},
    { group: rel('group', group) },
  );
  const roleInvite = await inviteTo(app, cast.owner, p.event, `invitee${++n}@example.org`);
  const [held] = await app.db
    .select({ id: eventRoles.id })
    .from(eventRoles)
    .where(
      and(
        eq(eventRoles.eventId, Number(p.event)),
        eq(eventRoles.userId, Number(cast.organizer.id)),
        eq(eventRoles.role, 'organizer'),
      ),
    );

  // The published event's codes, made by its owner (their marketer): a discount code on a paid ticket, an access code
  // on a hidden one, both named MATRIX; and an administrator's event code for the bazaar.
  const codes = await matrixCodes(app, cast, p.event, bazaar);
  const ids: Record<string, string> = {
    'discount-codes': codes.discount,
    'access-codes': codes.access,
    users: cast.owner.id,
    events: p.event,
    'event-topics': world.topic,
    'event-types': eventType,
    'event-sub-topics': subTopic,
    'event-copyrights': p.copyright,
    'event-copyright': p.copyright,
    'social-links': p.socialLink,
    microlocations: p.microlocation,
    sponsors: p.sponsor,
    tracks: p.track,
    'session-types': p.sessionType,
    sessions: p.session,
    speakers: p.speaker,
    'custom-forms': p.customForm,
    'custom-form-options': option,
    'ticket-tags': ticketTag,
    ...(await doorRecords(app, cast.owner, p, ticket)),
    tags: tag,
    'ticket-fees': ticketFee,
    orders: order,
    tickets: ticket,
    taxes: tax,
    tax,
    'speakers-calls': call,
    'speakers-call': call,
    'stripe-authorizations': String(stripe!.id),
    attendees: attendee,
    pages: page,
    notifications: notification,
    feedbacks: feedback,
    'user-favourite-sessions': favourite,
    'speaker-invites': invite,
    'video-streams': stream,
    groups: group,
    'user-follow-groups': follow,
    roles: 'organizer',
    'role-invites': roleInvite,
    'users-events-roles': String(held!.id),
    settings: '1',
    import: 'json',
    'import-jobs': await importTask(app, cast.owner),
    ...(await consoleIds(app)),
    ...(await invoiceIds(app, p.event, cast.owner.id)),
    ...(await imageIds(app, subTopic)),
    ...(await messageIds(app, { published: p.event, draft: world.draft.event }, cast.owner.id)),
  };
  return {
    world,
    users,
    tokens: tokensOf(users),
    codes,
    bazaar,
    bazaarTicket,
    order,
    completed,
    page,
    notification,
    stream,
    group,
    follow,
    bazaarTag,
    ids,
  };
}
