/**
 * The permission matrix, writes of the event service other than on event records (logins, users,
 * events and their roles, topics, pages, settings, orders, notifications, uploads, export and
 * import): every such route the app serves, for every caller, against the outcome written once in
 * permission-matrix.ts. Each recipe sends a body an allowed caller succeeds with; every cell that
 * deletes or changes a state for good acts on a record made for it alone.
 */
import AdmZip from 'adm-zip';
import t from 'tap';
import { create, eventAttributes, rel } from '../helpers/events.js';
import { dataUri, makeImage, multipart } from '../helpers/images.js';
import { issueAccountToken } from '../../src/auth/account-tokens.js';
import { loginPair } from '../helpers/auth.js';
import { seedUser } from '../helpers/users.js';
import { appWithRoutes, checkCoverage, runMatrix, type Recipe, type Send } from './matrix.js';
import { and, eq } from 'drizzle-orm';
import { eventRoles } from '../../db/schema/index.js';
import { buildMatrixWorld, buyOrder, inviteTo, inviteToken, notify } from './matrix-world.js';
import { document, freshTargets, linkage, newRecord, next, toOne, update } from './matrix-writes.js';
import type { Caller } from './permission-matrix.js';

// Role invites mail the callers themselves (accept-invite cells): room for them beside the receipts.
const { app, routes } = await appWithRoutes(t, { MAIL_RATE_PER_RECIPIENT: '50' });

t.test('every other write route of the event service has an entry', async (t) => checkCoverage(t, routes, 'v1-write'));

t.test('other write routes of the event service x callers', async (t) => {
  const w = await buildMatrixWorld(app);
  const { cast, topic, published: p } = w.world;
  const { owner } = w.users;
  const { freshEvent } = freshTargets(app, w);

  /** A user of its own for the cell, who is the `owner` caller of that cell. */
  const ownUser = async (caller: Caller, send: (id: string) => Send): Promise<Send> => {
    const target = await seedUser(app);
    return { ...send(target.id), ...(caller === 'owner' ? { token: target.token } : {}) };
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
  const newUser = (attributes: Record<string, unknown> = {}) => () => document('user', { email: `new${next()}@example.com`, password: 'long enough', ...attributes });
  const raise = (flag: string): Recipe => (caller) => ownUser(caller, (id) => ({ path: `/v1/users/${id}`, ...update('user', id, { [flag]: true }) }));
  const roles = (name: 'organizers' | 'coorganizers' | 'track-organizers' | 'registrars' | 'moderators'): [string, Recipe][] => {
    const holder = name === 'organizers' ? cast.organizer.id : cast.coorganizer.id;
    return [
      // A list that changes who holds the role (an unchanged one is no change: the front end sends them back on every save).
      [`PATCH /v1/events/{id}/relationships/${name}`, async () => ({ path: `/v1/events/${await freshEvent()}/relationships/${name}`, ...linkage('user', holder, cast.other.id) })],
      [`POST /v1/events/{id}/relationships/${name}`, () => linkage('user', holder)],
      [`DELETE /v1/events/{id}/relationships/${name}`, async () => ({ path: `/v1/events/${await freshEvent()}/relationships/${name}`, ...linkage('user', holder) })],
    ];
  };
  const staffMade = (path: string, type: string, attributes: Record<string, unknown>): Recipe => async () => ({
    path: `/v1/${path}/${await create(app, cast.admin.token, path, type, attributes)}`,
  });
  const order = (attributes: Record<string, unknown>) => document('order', attributes, { event: rel('event', w.bazaar) });
  const png = dataUri(await makeImage('png'), 'png');
  const zip = new AdmZip();
  zip.addFile('event.json', Buffer.from(JSON.stringify({ name: 'Imported' })));

  const RECIPES: Record<string, Recipe> = {
    'POST /v1/auth/login': login,
    'POST /auth/session': login,
    'POST /v1/auth/token/refresh': async (caller) => ({ json: { refresh_token: (await freshLogin(caller)).refresh_token } }),
    'POST /v1/auth/logout': async (caller) => ({ json: { refresh_token: (await freshLogin(caller)).refresh_token } }),
    'POST /v1/auth/verify-email': async () => ({ json: { data: { token: await mailedToken('verify-email') } } }),
    // A new account per cell: each mailbox may get only so many mails.
    'POST /v1/auth/reset-password': async () => ({ json: { data: { email: (await seedUser(app)).email } } }),
    'PATCH /v1/auth/reset-password': async () => ({ json: { data: { token: await mailedToken('reset-password'), password: 'a new long password' } } }),
    'POST /v1/auth/resend-verification-email': (caller) => ({ json: { data: { email: (caller === 'anonymous' ? owner : w.users[caller]).email } } }),
    'POST /v1/auth/resend-verification-email [another account]': async () => ({ json: { data: { email: (await seedUser(app)).email } } }),
    // Each signed-in caller changes the password of an account of its own: a change ends the caller's other tokens.
    'POST /v1/auth/change-password': async (caller) => {
      const own = await seedUser(app);
      const { access_token } = await loginPair(app, own.email, own.password);
      return { json: { data: { 'old-password': own.password, 'new-password': 'a new long password' } }, ...(caller === 'anonymous' ? {} : { token: access_token }) };
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
    'POST /v1/events/{id}/speakers': () => newRecord('speakers', p.event),
    'POST /v1/events/{id}/custom-forms': () => newRecord('custom-forms', p.event),
    ...Object.fromEntries((['organizers', 'coorganizers', 'track-organizers', 'registrars', 'moderators'] as const).flatMap(roles)),
    'POST /v1/events/{event_id}/export/json': () => ({ json: {} }),
    'POST /v1/events/import/{source_type}': () => multipart([['file', 'event.zip', zip.toBuffer()]]),
    'POST /v1/event-topics': () => document('event-topic', { name: `Topic ${next()}` }),
    'PATCH /v1/event-topics/{id}': () => update('event-topic', topic, { name: `Topic ${next()}` }),
    'DELETE /v1/event-topics/{id}': staffMade('event-topics', 'event-topic', { name: 'Gone' }),
    'POST /v1/pages': () => document('page', { name: 'About', url: '/about', description: 'About us' }),
    'PATCH /v1/pages/{id}': () => update('page', w.page, { title: `Terms ${next()}` }),
    'DELETE /v1/pages/{id}': staffMade('pages', 'page', { name: 'Old', url: '/old', description: 'Old' }),
    'PATCH /v1/settings/{id}': () => update('setting', '1', { tagline: `Events ${next()}` }),
    'POST /v1/orders': () => order({ attendees: [{ name: 'Bo', email: 'bo@example.org' }] }),
    'POST /v1/orders [status: completed]': () => order({ status: 'completed' }),
    'PATCH /v1/orders/{id}': () => update('order', w.order, { amount: next() }),
    'PATCH /v1/orders/{id} [status: completed]': async () => {
      const id = await buyOrder(app, owner, w.bazaar);
      return { path: `/v1/orders/${id}`, ...update('order', id, { status: 'completed' }) };
    },
    'DELETE /v1/orders/{id}': async () => ({ path: `/v1/orders/${await buyOrder(app, owner, w.bazaar)}` }),
    'PATCH /v1/orders/{id}/relationships/event': () => toOne('event', w.bazaar),
    'POST /v1/attendees/send-receipt': () => ({ json: { 'order-identifier': w.completed } }),
    'POST /v1/notifications': () => document('notification', { 'is-read': false }),
    'PATCH /v1/notifications/{id}': () => update('notification', w.notification, { 'is-read': true }),
    'DELETE /v1/notifications/{id}': async () => ({ path: `/v1/notifications/${await notify(app, owner)}` }),
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
    'POST /v1/role-invites': () => document('role-invite', { email: `inv${next()}@example.org`, 'role-name': 'registrar' }, { event: rel('event', p.event) }),
    'PATCH /v1/role-invites/{id}': () => update('role-invite', w.ids['role-invites']!, { status: 'accepted' }),
    'DELETE /v1/role-invites/{id}': async () => ({ path: `/v1/role-invites/${await inviteTo(app, owner, p.event, `gone${next()}@example.org`)}` }),
    'PATCH /v1/role-invites/{id}/relationships/event': () => toOne('event', p.event),
    'PATCH /v1/role-invites/{id}/relationships/role': () => toOne('role', 'organizer'),
    'POST /v1/role-invites/{id}/resend-invite': () => ({}),
    'POST /v1/role_invites/user': async () => ({ json: { data: { token: await inviteToken(app, w.ids['role-invites']!) } } }),
    'POST /v1/role_invites/decline-invite': async () => ({
      json: { data: { token: await inviteToken(app, await inviteTo(app, owner, p.event, `no${next()}@example.org`)) } },
    }),
    // An invite to the caller's own address, in an event of its own.
    'POST /v1/role_invites/accept-invite': async (caller) => {
      const email = caller === 'anonymous' ? `anyone${next()}@example.org` : w.users[caller].email;
      return { json: { data: { token: await inviteToken(app, await inviteTo(app, owner, await freshEvent(), email)) } } };
    },
    'POST /v1/upload/file': () => ({ query: { force_local: 'true' }, ...multipart([['file', 'notes.txt', 'notes']]) }),
    'POST /v1/upload/files': () => ({ query: { force_local: 'true' }, ...multipart([['files', 'a.txt', 'a'], ['files', 'b.txt', 'b']]) }),
    'POST /v1/upload/image': () => ({ query: { force_local: 'true' }, json: { data: png } }),
  };
  await runMatrix(t, app, 'v1-write', w.ids, w.tokens, RECIPES);
});
