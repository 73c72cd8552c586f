/**
 * The permission matrix, writes of the event service other than on event records (logins, users,
 * events and their roles, topics, pages, settings, orders, notifications, uploads, export and
 * import): every such route the app serves, for every caller, against the outcome written once in
 * permission-matrix.ts. Each recipe sends a body an allowed caller succeeds with; every cell that
 * deletes or changes a state for good acts on a record made for it alone.
 */
import t from 'tap';
import { create, eventAttributes, rel } from '../helpers/events.js';
import { dataUri, makeImage, multipart } from '../helpers/images.js';
import { zipOf } from '../helpers/imports.js';
import { issueAccountToken } from '../../src/auth/account-tokens.js';
import { loginPair } from '../helpers/auth.js';
import { sellTickets } from '../helpers/orders.js';
import { ticketAttributes } from '../helpers/ticket-bodies.js';
import { seedUser } from '../helpers/users.js';
import { and, eq } from 'drizzle-orm';
import { eventRoles, stripeAuthorizations } from '../../db/schema/index.js';
import { appWithRoutes, checkCoverage, inject, runMatrix, type Recipe, type Send } from './matrix.js';
import { consoleRecipes } from './matrix-console.js';
import { messageRecipes } from './matrix-messages.js';
import { invoiceRecipes } from './matrix-invoices.js';
import { imageRecipes } from './matrix-images.js';
import { doorRecipes } from './matrix-door.js';
import { buildMatrixWorld, buyOrder, inviteTo, inviteToken, notify, ownGroup as ownGroupOf } from './matrix-world.js';
import { document, freshTargets, linkage, newRecord, next, toOne, update } from './matrix-writes.js';
import type { Caller } from './permission-matrix.js';

// Role invites mail the callers themselves (accept-invite cells): room for them beside the receipts.
const { app, routes } = await appWithRoutes(t, { MAIL_RATE_PER_RECIPIENT: '50' });

t.test('every other write route of the event service has an entry', async (t) => checkCoverage(t, routes, 'v1-write'));

t.test('other write routes of the event service x callers', async (t) => {
  const w = await buildMatrixWorld(app);
  const { cast, topic, published: p } = w.world;
  const { owner } = w.users;
  const { freshEvent, fresh } = freshTargets(app, w);
  /** A ticket holder of the open order `owner` bought in the bazaar. */
  const ticketHolder = () =>
    document(
      'attendee',
      { firstname: `Bo ${next()}` },
      { event: rel('event', w.bazaar), order: rel('order', w.order), ticket: rel('ticket', w.bazaarTicket) },
    );

  /** A user of its own for the cell, who is the `owner` caller of that cell. */
  const ownUser = async (caller: Caller, send: (id: string) => Send): Promise<Send> => {
    const target = await seedUser(app);
    return { ...send(target.id), ...(caller === 'owner' ? { token: target.token } : {}) };
  };
  const unverified = async (caller: Caller) => {
    if (caller !== 'anonymous')
      await app.sql`update users set is_verified = false where id = ${Number(w.users[caller].id)}`;
  };
  const login = (caller: Caller): Send => {
    const user = caller === 'anonymous' ? owner : w.users[caller];
    return { json: { email: user.email, password: user.password } };
  };
  /** The tokens of a new login of the caller (of `owner` for anonymous callers). */
  const freshLogin = (caller: Caller) => {
    const user = caller === 'anonymous' ? owner : w.users[caller];
    return loginPair(app, user.email, user.password);
  };
  /** The token of a link mailed to a new account. */
  const mailedToken = async (purpose: 'verify-email' | 'reset-password') => {
    const target = await seedUser(app);
    return issueAccountToken(app.db, { id: Number(target.id), email: target.email }, purpose, 600);
  };
  const newUser =
    (attributes: Record<string, unknown> = {}) =>
    () =>
      document('user', { email: `new${next()}@example.com`, password: 'long enough', ...attributes });
  const raise =
    (flag: string): Recipe =>
    (caller) =>
      ownUser(caller, (id) => ({ path: `/v1/users/${id}`, ...update('user', id, { [flag]: true }) }));
  const roles = (
    name: 'organizers' | 'coorganizers' | 'track-organizers' | 'registrars' | 'moderators',
  ): [string, Recipe][] => {
    const holder = name === 'organizers' ? cast.organizer.id : cast.coorganizer.id;
    return [
      // A list that changes who holds the role (an unchanged one is no change: the front end sends them back on every save).
      [
        `PATCH /v1/events/{id}/relationships/${name}`,
        async () => ({
          path: `/v1/events/${await freshEvent()}/relationships/${name}`,
          ...linkage('user', holder, cast.other.id),
        }),
      ],
      [`POST /v1/events/{id}/relationships/${name}`, () => linkage('user', holder)],
      [
        `DELETE /v1/events/{id}/relationships/${name}`,
        async () => ({ path: `/v1/events/${await freshEvent()}/relationships/${name}`, ...linkage('user', holder) }),
      ],
    ];
  };
  const staffMade =
    (path: string, type: string, attributes: Record<string, unknown>): Recipe =>
    async () => ({
      path: `/v1/${path}/${await create(app, cast.admin.token, path, type, attributes)}`,
    });
  const subTopic = () =>
    document('event-sub-topic', { name: `Sub-topic ${next()}` }, { 'event-topic': rel('event-topic', topic) });
  /** A room of the published event, a stream of a room of its own, and a group of `owner`'s, each new. */
  const room = () =>
    create(
      app,
      owner.token,
      'microlocations',
      'microlocation',
      { name: `Room ${next()}` },
      { event: rel('event', p.event) },
    );
  const roomStream = async () =>
    create(
      app,
      owner.token,
      'video-streams',
      'video-stream',
      { name: 'Side room', url: 'https://meet.example.org/s' },
      { rooms: linkage('microlocation', await room()).document },
    );
  const ownGroup = () => ownGroupOf(app, owner);
  const order = (attributes: Record<string, unknown>) =>
    document('order', attributes, { event: rel('event', w.bazaar) });
  /** A paid ticket of the bazaar on sale now, as many as wanted. */
  let bazaarPaid: Promise<string> | undefined;
  const paidEntry = () =>
    (bazaarPaid ??= create(
      app,
      w.users.organizer.token,
      'tickets',
      'ticket',
      ticketAttributes({ name: 'Paid entry', type: 'paid', price: 10, quantity: null }),
      { event: rel('event', w.bazaar) },
    ));
  /** A paid order `owner` reserved in the bazaar and has not paid yet (initializing): one for every cell. */
  let unpaid: Promise<string> | undefined;
  const openOrder = () =>
    (unpaid ??= paidEntry().then(async (ticketId) => {
      const sale = await sellTickets(app, {
        buyer: owner,
        organizerToken: w.users.organizer.token,
        ticketId,
        status: 'initializing',
      });
      return sale.identifier;
    }));
  /** A paid order `owner` bought in the bazaar and placed, paying by bank transfer: the organizers' to mark paid. */
  const placedOrder = async () => {
    const ticketId = await paidEntry();
    return (
      await sellTickets(app, { buyer: owner, organizerToken: w.users.organizer.token, ticketId, status: 'placed' })
    ).id;
  };
  const png = dataUri(await makeImage('png'), 'png');
  const zip = zipOf({ 'event.json': { name: 'Imported' } });

  // Feedback, favourites and invites: one per user and session, so a new session (or address) per cell.
  const onFreshSession = async (path: string, type: string, attributes: Record<string, unknown>) =>
    create(app, owner.token, path, type, attributes, { session: rel('session', await fresh('sessions')) });
  const favouriteSession = await fresh('sessions');
  const invitation = (email: string) =>
    document('speaker-invite', { email }, { session: rel('session', p.session), event: rel('event', p.event) });
  const social: Record<string, Recipe> = {
    'POST /v1/feedbacks': async () =>
      document('feedback', { rating: 4 }, { session: rel('session', await fresh('sessions')) }),
    'PATCH /v1/feedbacks/{id}': () => update('feedback', w.ids.feedbacks!, { rating: 1 + (next() % 5) }),
    'DELETE /v1/feedbacks/{id}': async () => ({
      path: `/v1/feedbacks/${await onFreshSession('feedbacks', 'feedback', { rating: 2 })}`,
    }),
    'PATCH /v1/feedbacks/{id}/relationships/session': () => toOne('session', p.session),
    'PATCH /v1/feedbacks/{id}/relationships/event': () => toOne('event', p.event),
    'PATCH /v1/feedbacks/{id}/relationships/user': () => toOne('user', owner.id),
    'POST /v1/user-favourite-sessions': () =>
      document('user-favourite-session', {}, { session: rel('session', favouriteSession) }),
    'PATCH /v1/user-favourite-sessions/{id}': () =>
      update('user-favourite-session', w.ids['user-favourite-sessions']!, {}),
    'DELETE /v1/user-favourite-sessions/{id}': async () => ({
      path: `/v1/user-favourite-sessions/${await onFreshSession('user-favourite-sessions', 'user-favourite-session', {})}`,
    }),
    'PATCH /v1/user-favourite-sessions/{id}/relationships/session': () => toOne('session', p.session),
    'POST /v1/speaker-invites': () => invitation(`guest${next()}@example.org`),
    'PATCH /v1/speaker-invites/{id}': () =>
      update('speaker-invite', w.ids['speaker-invites']!, { email: `guest${next()}@example.org` }),
    'DELETE /v1/speaker-invites/{id}': async () => {
      const { document: body } = invitation(`gone${next()}@example.org`);
      return {
        path: `/v1/speaker-invites/${await create(app, owner.token, 'speaker-invites', 'speaker-invite', body.data.attributes, body.data.relationships)}`,
      };
    },
    'PATCH /v1/speaker-invites/{id}/relationships/event': () => toOne('event', p.event),
    'PATCH /v1/speaker-invites/{id}/relationships/session': () => toOne('session', p.session),
  };

  /** The writes of discount and access codes, on the world's codes (new ones for the cells that delete). */
  const codeRecipes = (): Record<string, Recipe> => {
    const { codes } = w;
    const of = { event: rel('event', p.event) };
    const discount = (attributes: Record<string, unknown> = {}) =>
      document(
        'discount-code',
        { code: `C${next()}`, type: 'amount', value: 1, ...attributes },
        { ...of, tickets: linkage('ticket', codes.paidTicket).document },
      );
    const access = () =>
      document(
        'access-code',
        { code: `A${next()}` },
        { ...of, tickets: linkage('ticket', codes.hiddenTicket).document },
      );
    const made = async (path: string, send: { document: unknown }, token = owner.token) => {
      const res = await inject(app, 'POST', `/v1/${path}`, { token, document: send.document });
      return String(res.body?.data?.id);
    };
    const eventCode = () =>
      document('discount-code', { code: `E${next()}`, type: 'percent', value: 5, 'used-for': 'event' });
    /** What both kinds of code take alike: deleting one (a new one) and writing its event and tickets linkage. */
    const codeCells = (path: string, newCode: () => { document: unknown }, ticket: string): Record<string, Recipe> => ({
      [`DELETE /v1/${path}/{id}`]: async () => ({ path: `/v1/${path}/${await made(path, newCode())}` }),
      [`PATCH /v1/${path}/{id}/relationships/event`]: () => toOne('event', p.event),
      [`PATCH /v1/${path}/{id}/relationships/tickets`]: () => linkage('ticket', ticket),
      [`POST /v1/${path}/{id}/relationships/tickets`]: () => linkage('ticket', ticket),
      [`DELETE /v1/${path}/{id}/relationships/tickets`]: async () => ({
        path: `/v1/${path}/${await made(path, newCode())}/relationships/tickets`,
        ...linkage('ticket', ticket),
      }),
    });
    return {
      'POST /v1/discount-codes': () => discount(),
      'POST /v1/discount-codes [used-for: event]': eventCode,
      'PATCH /v1/discount-codes/{id}': () => update('discount-code', codes.discount, { value: 2 }),
      ...codeCells('discount-codes', discount, codes.paidTicket),
      'PATCH /v1/discount-codes/{id}/relationships/events': () => ({
        path: `/v1/discount-codes/${codes.eventCode}/relationships/events`,
        ...linkage('event', w.bazaar),
      }),
      'POST /v1/discount-codes/{id}/relationships/events': () => ({
        path: `/v1/discount-codes/${codes.eventCode}/relationships/events`,
        ...linkage('event', w.bazaar),
      }),
      'DELETE /v1/discount-codes/{id}/relationships/events': async () => ({
        path: `/v1/discount-codes/${await made('discount-codes', eventCode(), cast.admin.token)}/relationships/events`,
        ...linkage('event', w.bazaar),
      }),
      'POST /v1/access-codes': access,
      'PATCH /v1/access-codes/{id}': () => update('access-code', codes.access, { 'max-quantity': 50 }),
      ...codeCells('access-codes', access, codes.hiddenTicket),
    };
  };
  const RECIPES: Record<string, Recipe> = {
    ...social,
    ...(await doorRecipes(app, w)),
    ...consoleRecipes(app, w.ids),
    ...messageRecipes(
      app,
      w.ids,
      { published: w.world.published.event, draft: w.world.draft.event },
      w.world.cast.owner.id,
    ),
    ...invoiceRecipes(w.ids),
    ...imageRecipes(app, w.ids),
    'POST /v1/auth/login': login,
    'POST /auth/session': login,
    'POST /v1/auth/token/refresh': async (caller) => ({
      json: { refresh_token: (await freshLogin(caller)).refresh_token },
    }),
    'POST /v1/auth/logout': async (caller) => ({ json: { refresh_token: (await freshLogin(caller)).refresh_token } }),
    'POST /v1/auth/verify-email': async () => ({ json: { data: { token: await mailedToken('verify-email') } } }),
    // A new account per cell: each mailbox may get only so many mails.
    'POST /v1/auth/reset-password': async () => ({ json: { data: { email: (await seedUser(app)).email } } }),
    'PATCH /v1/auth/reset-password': async () => ({
      json: { data: { token: await mailedToken('reset-password'), password: 'a new long password' } },
    }),
    'POST /v1/auth/resend-verification-email': (caller) => ({
      json: { data: { email: (caller === 'anonymous' ? owner : w.users[caller]).email } },
    }),
    'POST /v1/auth/resend-verification-email [another account]': async () => ({
      json: { data: { email: (await seedUser(app)).email } },
    }),
    // Each signed-in caller changes the password of an account of its own: a change ends the caller's other tokens.
    'POST /v1/auth/change-password': async (caller) => {
      const own = await seedUser(app);
      const { access_token } = await loginPair(app, own.email, own.password);
      return {
        json: { data: { 'old-password': own.password, 'new-password': 'a new long password' } },
        ...(caller === 'anonymous' ? {} : { token: access_token }),
      };
    },
    'POST /v1/users/check_email': () => ({ json: { email: owner.email } }),
    'POST /v1/users': newUser(),
    'POST /v1/users [is-admin: true]': newUser({ 'is-admin': true }),
    'PATCH /v1/users/{id}': () => update('user', owner.id, { name: `Owner ${next()}` }),
    'PATCH /v1/users/{id} [is-admin: true]': raise('is-admin'),
    'PATCH /v1/users/{id} [is-super-admin: true]': raise('is-super-admin'),
    'PATCH /v1/users/{id} [is-verified: true]': raise('is-verified'),
    'DELETE /v1/users/{id}': (caller) => ownUser(caller, (id) => ({ path: `/v1/users/${id}` })),
    'POST /v1/users/{id}/speakers': () => newRecord('speakers', p.event),
    'POST /v1/events': () => document('event', eventAttributes(`New ${next()}`)),
    'PATCH /v1/events/{id}': () => update('event', p.event, { name: `Open Summit ${next()}` }),
    'DELETE /v1/events/{id}': async () => ({ path: `/v1/events/${await freshEvent()}` }),
    'PATCH /v1/events/{id}/relationships/event-topic': () => toOne('event-topic', topic),
    'PATCH /v1/events/{id}/relationships/event-type': () => toOne('event-type', w.ids['event-types']!),
    'PATCH /v1/events/{id}/relationships/event-sub-topic': () => toOne('event-sub-topic', w.ids['event-sub-topics']!),
    'PATCH /v1/events/{id} [is-featured: true]': async () => {
      const id = await freshEvent();
      return { path: `/v1/events/${id}`, ...update('event', id, { 'is-featured': true }) };
    },
    'POST /v1/events/{id}/speakers': () => newRecord('speakers', p.event),
    'POST /v1/events/{id}/custom-forms': () => newRecord('custom-forms', p.event),
    ...Object.fromEntries(
      (['organizers', 'coorganizers', 'track-organizers', 'registrars', 'moderators'] as const).flatMap(roles),
    ),
    'POST /v1/events/{event_id}/export/json': () => ({ json: {} }),
    ...Object.fromEntries(
      [
        'ical',
        'xcal',
        'pentabarf',
        ...['sessions', 'speakers', 'orders', 'attendees'].flatMap((kind) => [`${kind}/csv`, `${kind}/pdf`]),
      ].map((path) => [`POST /v1/events/{event_id}/export/${path}`, () => ({ json: {} })]),
    ),
    'POST /v1/events/import/{source_type}': () => multipart([['file', 'event.zip', zip]]),
    'POST /v1/event-topics': () => document('event-topic', { name: `Topic ${next()}` }),
    'PATCH /v1/event-topics/{id}': () => update('event-topic', topic, { name: `Topic ${next()}` }),
    'DELETE /v1/event-topics/{id}': staffMade('event-topics', 'event-topic', { name: 'Gone' }),
    'POST /v1/event-topics/{id}/event-sub-topics': () => subTopic(),
    'POST /v1/event-types': () => document('event-type', { name: `Type ${next()}` }),
    'PATCH /v1/event-types/{id}': () => update('event-type', w.ids['event-types']!, { name: `Type ${next()}` }),
    'DELETE /v1/event-types/{id}': staffMade('event-types', 'event-type', { name: 'Gone' }),
    'POST /v1/event-sub-topics': () => subTopic(),
    'PATCH /v1/event-sub-topics/{id}': () =>
      update('event-sub-topic', w.ids['event-sub-topics']!, { name: `Sub-topic ${next()}` }),
    'DELETE /v1/event-sub-topics/{id}': async () => ({
      path: `/v1/event-sub-topics/${await create(app, cast.admin.token, 'event-sub-topics', 'event-sub-topic', { name: 'Gone' }, { 'event-topic': rel('event-topic', topic) })}`,
    }),
    'PATCH /v1/event-sub-topics/{id}/relationships/event-topic': () => toOne('event-topic', topic),
    'POST /v1/pages': () => document('page', { name: 'About', url: '/about', description: 'About us' }),
    'PATCH /v1/pages/{id}': () => update('page', w.page, { title: `Terms ${next()}` }),
    'DELETE /v1/pages/{id}': staffMade('pages', 'page', { name: 'Old', url: '/old', description: 'Old' }),
    'PATCH /v1/settings/{id}': () => update('setting', '1', { tagline: `Events ${next()}` }),
    'POST /v1/orders': () => order({ attendees: [{ name: 'Bo', email: 'bo@example.org' }] }),
    'POST /v1/orders [status: completed]': () => order({ status: 'completed' }),
    'PATCH /v1/orders/{id}': () => update('order', w.order, { company: `ACME ${next()}` }),
    'PATCH /v1/orders/{id} [status: completed]': async () => {
      const id = await placedOrder();
      return { path: `/v1/orders/${id}`, ...update('order', id, { status: 'completed' }) };
    },
    'POST /v1/orders/calculate-amount': async () => ({ json: { tickets: [{ id: await paidEntry(), quantity: 2 }] } }),
    'POST /v1/orders/create-order': async () => ({ json: { tickets: [{ id: await paidEntry(), quantity: 1 }] } }),
    'DELETE /v1/orders/{id}': async () => ({ path: `/v1/orders/${await buyOrder(app, owner, w.bazaar)}` }),
    'PATCH /v1/orders/{id}/relationships/event': () => toOne('event', w.bazaar),
    'POST /v1/auth/oauth/login/{provider}': () => ({ path: '/v1/auth/oauth/login/facebook?code=not-a-code' }),
    'POST /v1/orders/{identifier}/verify': () => ({ path: `/v1/orders/${w.completed}/verify` }),
    'POST /v1/orders [onsite=true]': async () => ({
      query: { onsite: 'true' },
      ...order({
        'on-site-tickets': [{ data: { type: 'on-site-ticket', attributes: { id: await paidEntry(), quantity: '1' } } }],
      }),
    }),
    'POST /v1/orders/{identifier}/charge': async () => ({
      path: `/v1/orders/${await openOrder()}/charge`,
      document: { data: { type: 'charge', attributes: { stripe: 'tok_visa' } } },
    }),
    'POST /v1/orders/{identifier}/create-paypal-payment': async () => ({
      path: `/v1/orders/${await openOrder()}/create-paypal-payment`,
      document: {
        data: {
          type: 'paypal-payment',
          attributes: { 'return-url': 'https://example.org/paid', 'cancel-url': 'https://example.org/cancelled' },
        },
      },
    }),
    'POST /v1/attendees/send-receipt': () => ({ json: { 'order-identifier': w.completed } }),
    'POST /v1/events/{id}/tickets': () => newRecord('tickets', p.event),
    'POST /v1/attendees': () => ticketHolder(),
    'PATCH /v1/attendees/{id}': () => update('attendee', w.ids.attendees!, { firstname: `Ada ${next()}` }),
    'PATCH /v1/attendees/{id} [is-checked-in: true]': () =>
      update('attendee', w.ids.attendees!, { 'is-checked-in': true, 'checkin-times': new Date().toISOString() }),
    'DELETE /v1/attendees/{id}': async () => ({
      path: `/v1/attendees/${await create(app, owner.token, 'attendees', 'attendee', {}, ticketHolder().document.data.relationships)}`,
    }),
    'PATCH /v1/attendees/{id}/relationships/event': () => toOne('event', w.bazaar),
    'PATCH /v1/attendees/{id}/relationships/order': () => toOne('order', w.order),
    'PATCH /v1/attendees/{id}/relationships/ticket': () => toOne('ticket', w.bazaarTicket),
    'PATCH /v1/attendees/{id}/relationships/user': () => toOne('user', owner.id),
    'PATCH /v1/attendees/{id}/relationships/tag': () => toOne('tag', w.bazaarTag),
    'POST /v1/events/{id}/ticket-tags': () => document('ticket-tag', { name: `Early ${next()}` }),
    'POST /v1/events/{id}/tags': () => document('tag', { name: `Tag ${next()}` }),
    'POST /v1/ticket-fees': () => document('ticket-fee', { currency: 'EUR', country: `C${next()}`, 'service-fee': 1 }),
    'PATCH /v1/ticket-fees/{id}': () => update('ticket-fee', w.ids['ticket-fees']!, { 'service-fee': next() % 100 }),
    'DELETE /v1/ticket-fees/{id}': async () => ({
      path: `/v1/ticket-fees/${await create(app, cast.admin.token, 'ticket-fees', 'ticket-fee', { currency: 'USD', country: `C${next()}` })}`,
    }),
    'POST /v1/custom-form-options': () =>
      document('custom-form-option', { value: `L ${next()}` }, { 'custom-form': rel('custom_form', p.customForm) }),
    'PATCH /v1/custom-form-options/{id}': () =>
      update('custom-form-option', w.ids['custom-form-options']!, { value: `XL ${next()}` }),
    'DELETE /v1/custom-form-options/{id}': async () => ({
      path: `/v1/custom-form-options/${await create(app, cast.owner.token, 'custom-form-options', 'custom-form-option', { value: 'XS' }, { 'custom-form': rel('custom_form', p.customForm) })}`,
    }),
    'PATCH /v1/custom-form-options/{id}/relationships/custom-form': () => toOne('custom_form', p.customForm),
    'POST /v1/stripe-authorizations': () =>
      document('stripe-authorization', { 'stripe-auth-code': 'ac_1' }, { event: rel('event', p.event) }),
    'PATCH /v1/stripe-authorizations/{id}': () =>
      update('stripe-authorization', w.ids['stripe-authorizations']!, { 'stripe-auth-code': 'ac_2' }),
    'DELETE /v1/stripe-authorizations/{id}': async () => {
      const event = await freshEvent();
      const [row] = await app.db
        .insert(stripeAuthorizations)
        .values({ eventId: Number(event) })
        .returning();
      return { path: `/v1/stripe-authorizations/${row!.id}` };
    },
    'PATCH /v1/stripe-authorizations/{id}/relationships/event': () => toOne('event', p.event),
    'POST /v1/notifications': () => document('notification', { 'is-read': false }),
    'PATCH /v1/notifications/{id}': () => update('notification', w.notification, { 'is-read': true }),
    'DELETE /v1/notifications/{id}': async () => ({ path: `/v1/notifications/${await notify(app, owner)}` }),
    'PATCH /v1/events/{id}/relationships/group': async () => ({
      path: `/v1/events/${await freshEvent()}/relationships/group`,
      ...toOne('group', w.group),
    }),
    'POST /v1/video-streams': async () =>
      document(
        'video-stream',
        { name: 'Room stream', url: 'https://meet.example.org/r' },
        { rooms: linkage('microlocation', await room()).document },
      ),
    'PATCH /v1/video-streams/{id}': () => update('video-stream', w.stream, { name: `Main hall ${next()}` }),
    'DELETE /v1/video-streams/{id}': async () => ({ path: `/v1/video-streams/${await roomStream()}` }),
    'PATCH /v1/video-streams/{id}/relationships/event': () => toOne('event', p.event),
    'PATCH /v1/video-streams/{id}/relationships/rooms': () => linkage('microlocation', p.microlocation),
    'POST /v1/video-streams/{id}/relationships/rooms': () => linkage('microlocation', p.microlocation),
    'DELETE /v1/video-streams/{id}/relationships/rooms': async () => ({
      path: `/v1/video-streams/${await roomStream()}/relationships/rooms`,
      ...linkage('microlocation', p.microlocation),
    }),
    // Only verified users create groups; an accept-invite cell verifies its caller, so each cell starts unverified.
    'POST /v1/groups': async (caller) => {
      await unverified(caller);
      return document('group', { name: `Group ${next()}` });
    },
    'POST /v1/groups [is-promoted: true]': async (caller) => {
      await unverified(caller);
      return document('group', { name: `Group ${next()}`, 'is-promoted': true });
    },
    'PATCH /v1/groups/{id}': () => update('group', w.group, { name: `Summits ${next()}` }),
    'PATCH /v1/groups/{id} [is-promoted: true]': async () => {
      const id = await ownGroup();
      return { path: `/v1/groups/${id}`, ...update('group', id, { 'is-promoted': true }) };
    },
    'DELETE /v1/groups/{id}': async () => ({ path: `/v1/groups/${await ownGroup()}` }),
    'PATCH /v1/groups/{id}/relationships/events': async () => linkage('event', await freshEvent()),
    'POST /v1/groups/{id}/relationships/events': async () => linkage('event', await freshEvent()),
    'DELETE /v1/groups/{id}/relationships/events': async () => {
      const event = await freshEvent();
      const group = await ownGroup();
      await inject(app, 'POST', `/v1/groups/${group}/relationships/events`, {
        token: owner.token,
        ...linkage('event', event),
      });
      return { path: `/v1/groups/${group}/relationships/events`, ...linkage('event', event) };
    },
    'POST /v1/user-follow-groups': async () =>
      document('user-follow-group', {}, { group: rel('group', await ownGroup()) }),
    'PATCH /v1/user-follow-groups/{id}': () => update('user-follow-group', w.follow, {}),
    'DELETE /v1/user-follow-groups/{id}': async () => ({
      path: `/v1/user-follow-groups/${await create(app, owner.token, 'user-follow-groups', 'user-follow-group', {}, { group: rel('group', await ownGroup()) })}`,
    }),
    'PATCH /v1/user-follow-groups/{id}/relationships/group': () => toOne('group', w.group),
    'PATCH /v1/user-follow-groups/{id}/relationships/user': () => toOne('user', owner.id),
    'POST /v1/roles': () => document('role', {}),
    'PATCH /v1/roles/{id}': () => update('role', 'organizer', {}),
    'DELETE /v1/roles/{id}': () => ({}),
    'POST /v1/users-events-roles': () => document('users-events-role', {}),
    'PATCH /v1/users-events-roles/{id}': () => update('users-events-role', w.ids['users-events-roles']!, {}),
    'DELETE /v1/users-events-roles/{id}': async () => {
      const event = await freshEvent();
      const [held] = await app.db
        .select({ id: eventRoles.id })
        .from(eventRoles)
        .where(and(eq(eventRoles.eventId, Number(event)), eq(eventRoles.role, 'coorganizer')));
      return { path: `/v1/users-events-roles/${held!.id}` };
    },
    'POST /v1/role-invites': () =>
      document(
        'role-invite',
        { email: `inv${next()}@example.org`, 'role-name': 'registrar' },
        { event: rel('event', p.event) },
      ),
    'PATCH /v1/role-invites/{id}': () => update('role-invite', w.ids['role-invites']!, { status: 'accepted' }),
    'DELETE /v1/role-invites/{id}': async () => ({
      path: `/v1/role-invites/${await inviteTo(app, owner, p.event, `gone${next()}@example.org`)}`,
    }),
    ...codeRecipes(),
    'PATCH /v1/role-invites/{id}/relationships/event': () => toOne('event', p.event),
    'PATCH /v1/role-invites/{id}/relationships/role': () => toOne('role', 'organizer'),
    'POST /v1/role-invites/{id}/resend-invite': () => ({}),
    'POST /v1/role_invites/user': async () => ({
      json: { data: { token: await inviteToken(app, w.ids['role-invites']!) } },
    }),
    'POST /v1/role_invites/decline-invite': async () => ({
      json: { data: { token: await inviteToken(app, await inviteTo(app, owner, p.event, `no${next()}@example.org`)) } },
    }),
    // An invite to the caller's own address, in an event of its own.
    'POST /v1/role_invites/accept-invite': async (caller) => {
      const email = caller === 'anonymous' ? `anyone${next()}@example.org` : w.users[caller].email;
      return {
        json: { data: { token: await inviteToken(app, await inviteTo(app, owner, await freshEvent(), email)) } },
      };
    },
    'POST /v1/upload/file': () => ({ query: { force_local: 'true' }, ...multipart([['file', 'notes.txt', 'notes']]) }),
    'POST /v1/upload/files': () => ({
      query: { force_local: 'true' },
      ...multipart([
        ['files', 'a.txt', 'a'],
        ['files', 'b.txt', 'b'],
      ]),
    }),
    'POST /v1/upload/image': () => ({ query: { force_local: 'true' }, json: { data: png } }),
  };
  await runMatrix(t, app, 'v1-write', w.ids, w.tokens, RECIPES);
});
