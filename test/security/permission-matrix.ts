/**
 * The permission matrix: for every route the app serves (all three faces), what each caller gets,
 * written once. The tests beside this file collect the routes from the real app and fail for a route
 * without an entry here, and for an entry whose route is gone.
 *
 * Callers, on records built for the matrix (test/security/matrix-world.ts):
 * - anonymous: no token.
 * - other: a signed-in user with no relation to the record.
 * - owner: the owner of the record the path names: the user themself on /v1/users/{id}/..., the
 *   event's owner for an event and every record under it, the buyer of an order (who holds no role in
 *   the order's event), the user of a notification, the requester of an export task, the author of a skill.
 * - organizer: an organizer of the event (for an order: of the order's event), nothing else.
 * - admin, superAdmin: the `is-admin` and `is-super-admin` flags.
 * - registrar: a registrar of the event and of the order's event (the door right: src/resources/events/access.ts),
 *   nothing else; where a row does not say, what `other` gets (the role gives no other right).
 * - salesAdmin: a user with `is-sales-admin`, who holds the "Sales Admin" custom system role, which opens the sales
 *   panel (src/auth/panels.ts) and nothing else; where a row does not say, what `other` gets.
 *
 * An outcome is the HTTP status; a refused caller gets 401 (no token), 403 (no right) or 404 (a
 * record the caller may not know of). Rows with a `[...]` suffix are further checks of a route: a
 * forbidden member in a write, another target, or `shown` / `hidden` for a 200 whose protected members
 * the caller may or may not see. The routes left out (CORS preflight, Swagger UI, the HEAD twins of
 * GET routes) are listed with their reasons in matrix.ts.
 */
export const CALLERS = [
  'anonymous',
  'other',
  'owner',
  'organizer',
  'admin',
  'superAdmin',
  'registrar',
  'salesAdmin',
] as const;
export type Caller = (typeof CALLERS)[number];
export type Outcome = number | 'shown' | 'hidden';
export type Row = Readonly<Record<Caller, Outcome>>;

const row = (
  anonymous: Outcome,
  other: Outcome,
  owner: Outcome,
  organizer: Outcome,
  admin: Outcome,
  superAdmin: Outcome,
  registrar: Outcome = other,
  salesAdmin: Outcome = other,
): Row => ({
  anonymous,
  other,
  owner,
  organizer,
  admin,
  superAdmin,
  registrar,
  salesAdmin,
});
/** `r` with what the event's registrars get (the door right). */
const door = (r: Row, registrar: Outcome): Row => ({ ...r, registrar });

/** Every caller, signed in or not. */
const everyone = (s: Outcome) => row(s, s, s, s, s, s);
/** Any signed-in caller; `anonymous` what a caller without a token gets. */
const signedIn = (s: Outcome, anonymous: Outcome = 401) => row(anonymous, s, s, s, s, s);
/** The record's owner, the event's organizers and administrators. */
const involved = (s: Outcome) => row(401, 403, s, s, s, s);
/** The record's owner and administrators (the owner of an event manages its roles; a user their record). */
const ownerOrStaff = (s: Outcome) => row(401, 403, s, 403, s, s);
/** Administrators only. */
const staffOnly = (s: Outcome) => row(401, 403, 403, 403, s, s);
/** Administrators and those the sales panel is open to (a sales administrator). */
const salesPanel = (s: Outcome) => ({ ...staffOnly(s), salesAdmin: s });
/** The assistant refuses every role below the endpoint's minimum with 401 (as the reference does). */
const assistantAdmin = (s: Outcome) => row(401, 401, 401, 401, s, s);
/** A 200 for everyone, with the protected members shown only to `who`. */
const shownTo = (...who: Caller[]) =>
  Object.fromEntries(CALLERS.map((c) => [c, who.includes(c) ? 'shown' : 'hidden'])) as unknown as Row;

/** The routes every record kind of an event has: reads where its event is visible, writes by the event's organizers. */
const eventRecord = (path: string, read: Row = everyone(200)): Record<string, Row> => ({
  [`GET /v1/${path}`]: read,
  [`POST /v1/${path}`]: involved(201),
  [`GET /v1/${path}/{id}`]: read,
  [`PATCH /v1/${path}/{id}`]: involved(200),
  [`DELETE /v1/${path}/{id}`]: involved(200),
  [`GET /v1/${path}/{id}/relationships/event`]: read,
  [`PATCH /v1/${path}/{id}/relationships/event`]: involved(200),
  [`GET /v1/${path}/{id}/event`]: read,
});

/** A relationship readable by everyone: its linkage and its related route. */
const publicRelationship = (base: string, name: string): Record<string, Row> => ({
  [`GET ${base}/relationships/${name}`]: everyone(200),
  [`GET ${base}/${name}`]: everyone(200),
});

/** A to-one relationship the event's organizers may change. */
const editableToOne = (base: string, name: string): Record<string, Row> => ({
  ...publicRelationship(base, name),
  [`PATCH ${base}/relationships/${name}`]: involved(200),
});

/** A to-many relationship: everyone reads it, `writers` replace, add and remove. */
const editableToMany = (base: string, name: string, writers: (s: Outcome) => Row): Record<string, Row> => ({
  [`GET ${base}/relationships/${name}`]: everyone(200),
  [`PATCH ${base}/relationships/${name}`]: writers(200),
  [`POST ${base}/relationships/${name}`]: writers(200),
  [`DELETE ${base}/relationships/${name}`]: writers(200),
});

/** Who reads a feedback, favourite or speaker invite: its owner (see above), the event's organizers, staff. */
const socialReader = (s: Outcome) => row(401, 404, s, s, s, s);
/** Its owner gets `s`; the others who see it `seen`. */
const authorOnly = (s: Outcome, seen: Outcome = 403) => row(401, 404, s, seen, seen, seen);
/** The list, the record, and its relationships' reads. */
const socialRecord = (path: string, relationships: string[]): Record<string, Row> => ({
  [`GET /v1/${path}`]: signedIn(200),
  [`GET /v1/${path}/{id}`]: socialReader(200),
  ...Object.fromEntries(
    relationships.flatMap((n) => [
      [`GET /v1/${path}/{id}/relationships/${n}`, socialReader(200)],
      [`GET /v1/${path}/{id}/${n}`, socialReader(200)],
    ]),
  ),
});

/**
 * The door's records (stations, head counts, check-ins, badges): the event's owner, organizers, coorganizers and
 * registrars and administrators; the others find nothing (404), as the reference answers them.
 */
const atTheDoor = (s: Outcome) => row(404, 404, s, s, s, s, s);
/** A create at the door: 401 without a token, 404 for anyone else but the door's staff. */
const doorCreate = row(401, 404, 201, 201, 201, 201, 201);
/** A route of the door that names the event (scan, stats, search): 401 without a token, 404 for others. */
const doorRoute = (s: Outcome) => row(401, 404, s, s, s, s, s);
/** A door record's routes: the list (scoped), create, the record, and its relationships (`writable`: PATCH too). */
const doorRecord = (
  path: string,
  readOnly: string[],
  writable: string[],
  update: Outcome = 200,
): Record<string, Row> => ({
  [`GET /v1/${path}`]: signedIn(200),
  [`POST /v1/${path}`]: doorCreate,
  [`GET /v1/${path}/{id}`]: atTheDoor(200),
  [`PATCH /v1/${path}/{id}`]: atTheDoor(update),
  [`DELETE /v1/${path}/{id}`]: atTheDoor(200),
  ...Object.fromEntries(
    [...readOnly, ...writable].flatMap((n) => [
      [`GET /v1/${path}/{id}/relationships/${n}`, atTheDoor(200)],
      [`GET /v1/${path}/{id}/${n}`, atTheDoor(200)],
    ]),
  ),
  ...Object.fromEntries(writable.map((n) => [`PATCH /v1/${path}/{id}/relationships/${n}`, atTheDoor(update)])),
});

const USER = '/v1/users/{id}';
const EVENT = '/v1/events/{id}';

/** Everyone reads them, administrators write them; nobody creates or deletes one of a fixed list (403). */
const fixedList = (path: string): Record<string, Row> => ({
  [`GET /v1/${path}`]: everyone(200),
  [`POST /v1/${path}`]: everyone(403),
  [`GET /v1/${path}/{id}`]: everyone(200),
  [`PATCH /v1/${path}/{id}`]: staffOnly(200),
  [`DELETE /v1/${path}/{id}`]: everyone(403),
});
const ROLE = '/v1/custom-system-roles/{id}';
const PANEL = '/v1/panel-permissions/{id}';
/** Custom system roles (everyone reads), panels (administrators alone), user and event role permissions, services. */
const consoleRoles: Record<string, Row> = {
  'GET /v1/custom-system-roles': everyone(200),
  'POST /v1/custom-system-roles': staffOnly(201),
  [`GET ${ROLE}`]: everyone(200),
  [`PATCH ${ROLE}`]: staffOnly(200),
  [`DELETE ${ROLE}`]: staffOnly(200),
  // The linkage lists the panels the caller may read: none but for administrators.
  [`GET ${ROLE}/relationships/panel-permissions`]: everyone(200),
  [`GET ${ROLE}/panel-permissions`]: staffOnly(200),
  [`PATCH ${ROLE}/relationships/panel-permissions`]: staffOnly(200),
  [`POST ${ROLE}/relationships/panel-permissions`]: staffOnly(200),
  [`DELETE ${ROLE}/relationships/panel-permissions`]: staffOnly(200),
  'GET /v1/panel-permissions': staffOnly(200),
  'POST /v1/panel-permissions': staffOnly(201),
  [`GET ${PANEL}`]: staffOnly(200),
  [`PATCH ${PANEL}`]: staffOnly(200),
  [`DELETE ${PANEL}`]: staffOnly(200),
  [`GET ${PANEL}/relationships/custom-system-roles`]: staffOnly(200),
  [`GET ${PANEL}/custom-system-roles`]: staffOnly(200),
  [`PATCH ${PANEL}/relationships/custom-system-roles`]: staffOnly(200),
  [`POST ${PANEL}/relationships/custom-system-roles`]: staffOnly(200),
  [`DELETE ${PANEL}/relationships/custom-system-roles`]: staffOnly(200),
  'GET /v1/user-permissions': everyone(200),
  'POST /v1/user-permissions': staffOnly(201),
  'GET /v1/user-permissions/{id}': everyone(200),
  'PATCH /v1/user-permissions/{id}': staffOnly(200),
  'DELETE /v1/user-permissions/{id}': staffOnly(200),
  ...fixedList('services'),
  ...fixedList('event-role-permissions'),
  ...publicRelationship('/v1/event-role-permissions/{id}', 'role'),
  ...publicRelationship('/v1/event-role-permissions/{id}', 'service'),
};

export const MATRIX: Record<string, Row> = {
  // Accounts: registration and login are open; a user record is its user's and the administrators'.
  'POST /v1/auth/login': everyone(200),
  'POST /auth/session': everyone(200),
  // Whoever holds a refresh token (or the token of a mailed link) may use it; the token is the credential.
  'POST /v1/auth/token/refresh': everyone(200),
  'POST /v1/auth/logout': everyone(200),
  'POST /v1/auth/verify-email': everyone(200),
  'POST /v1/auth/reset-password': everyone(200),
  'PATCH /v1/auth/reset-password': everyone(200),
  // A signed-in caller asks for a link to their own address; administrators for anyone's.
  'POST /v1/auth/resend-verification-email': signedIn(200),
  'POST /v1/auth/resend-verification-email [another account]': row(401, 403, 403, 403, 200, 200),
  'POST /v1/auth/change-password': signedIn(200),
  // Tells anyone whether an address is registered, as the reference does (rate limited per client).
  'POST /v1/users/check_email': everyone(200),
  // No OAuth provider is configured: refused alike for everyone, nothing written.
  'POST /v1/auth/oauth/login/{provider}': everyone(404),
  'GET /v1/users': staffOnly(200),
  'POST /v1/users': everyone(201),
  'POST /v1/users [is-admin: true]': row(403, 403, 403, 403, 403, 201),
  [`GET ${USER}`]: ownerOrStaff(200),
  [`PATCH ${USER}`]: ownerOrStaff(200),
  [`PATCH ${USER} [is-admin: true]`]: row(401, 403, 403, 403, 403, 200),
  [`PATCH ${USER} [is-super-admin: true]`]: row(401, 403, 403, 403, 403, 200),
  [`PATCH ${USER} [is-verified: true]`]: row(401, 403, 403, 403, 200, 200),
  [`DELETE ${USER}`]: ownerOrStaff(200),
  [`POST ${USER}/speakers`]: ownerOrStaff(201),
  // The reference's name of a user's favourites (a related list only).
  [`GET ${USER}/user-favourite-sessions`]: ownerOrStaff(200),
  'GET /v1/users/user-details/get-user-id': signedIn(200),
  ...Object.fromEntries(
    [
      'speakers',
      'sessions',
      'orders',
      'notifications',
      'events',
      'owner-events',
      'organizer-events',
      'coorganizer-events',
      'track-organizer-events',
      'registrar-events',
      'moderator-events',
      'marketer-events',
      'sales-admin-events',
      'feedbacks',
      'favourites',
      'groups',
      'followed-groups',
      'attendees',
      'discount-codes',
      'access-codes',
      'event-invoices',
      'email-notifications',
    ].flatMap((name) => [
      [`GET ${USER}/relationships/${name}`, ownerOrStaff(200)],
      [`GET ${USER}/${name}`, ownerOrStaff(200)],
    ]),
  ),

  // Events: public when published; coorganizer rights and up edit, organizers delete, the owner manages roles.
  'GET /v1/events': everyone(200),
  'GET /v1/events/upcoming': everyone(200),
  [`GET ${EVENT}/sessions/languages`]: everyone(200),
  [`GET ${EVENT}/sessions/dates`]: everyone(200),
  'GET /v1/sessions/states': everyone(200),
  'GET /v1/sessions/mails': everyone(200),
  'POST /v1/events': signedIn(201),
  [`GET ${EVENT}`]: everyone(200),
  [`PATCH ${EVENT}`]: involved(200),
  [`DELETE ${EVENT}`]: involved(200),
  // Included orders follow the order rules: on the event where `owner` bought one, the buyer sees it.
  [`GET ${EVENT} [include=orders]`]: shownTo('owner', 'organizer', 'admin', 'superAdmin'),
  ...editableToOne(EVENT, 'event-topic'),
  ...editableToOne(EVENT, 'event-type'),
  ...editableToOne(EVENT, 'event-sub-topic'),
  // The home page's list flags are the administrators' (the event's owner may only send them back unchanged).
  [`PATCH ${EVENT} [is-featured: true]`]: row(401, 403, 403, 403, 200, 200),
  ...publicRelationship(EVENT, 'event-copyright'),
  ...publicRelationship(EVENT, 'owner'),
  ...Object.assign(
    {},
    ...['social-links', 'microlocations', 'sponsors', 'tracks', 'session-types', 'sessions', 'speakers'].map((n) =>
      publicRelationship(EVENT, n),
    ),
  ),
  // The linkage is scoped like the list (empty without a login); the list itself needs a login.
  [`GET ${EVENT}/relationships/custom-forms`]: everyone(200),
  [`GET ${EVENT}/custom-forms`]: signedIn(200),
  [`POST ${EVENT}/speakers`]: involved(201),
  [`POST ${EVENT}/custom-forms`]: involved(201),
  ...Object.assign(
    {},
    ...['tickets', 'tax', 'speakers-call', 'stripe-authorization'].map((n) => publicRelationship(EVENT, n)),
  ),
  [`POST ${EVENT}/tickets`]: involved(201),
  // Ticket tags are public where the event is; attendee tags are its organizers' (linkage and list alike).
  ...publicRelationship(EVENT, 'ticket-tags'),
  [`POST ${EVENT}/ticket-tags`]: involved(201),
  [`GET ${EVENT}/relationships/tags`]: involved(200),
  [`GET ${EVENT}/tags`]: involved(200),
  [`POST ${EVENT}/tags`]: involved(201),
  [`GET ${EVENT}/tickets/availability`]: everyone(200),
  // An event's ticket holders are its organizers' and its registrars' (linkage and list alike).
  [`GET ${EVENT}/relationships/attendees`]: door(involved(200), 200),
  [`GET ${EVENT}/attendees`]: door(involved(200), 200),
  ...publicRelationship(EVENT, 'video-stream'),
  [`GET ${EVENT}/has-streams`]: everyone(200),
  ...publicRelationship(EVENT, 'group'),
  // Only the owner of the event puts it in a group, and only in a group the owner owns.
  [`PATCH ${EVENT}/relationships/group`]: ownerOrStaff(200),
  [`GET ${EVENT}/relationships/orders`]: involved(200),
  [`GET ${EVENT}/orders`]: involved(200),
  ...editableToMany(EVENT, 'organizers', ownerOrStaff),
  ...editableToMany(EVENT, 'coorganizers', ownerOrStaff),
  ...editableToMany(EVENT, 'track-organizers', ownerOrStaff),
  ...editableToMany(EVENT, 'registrars', ownerOrStaff),
  ...editableToMany(EVENT, 'moderators', ownerOrStaff),
  // The role holders' user records: scoped, not refused (the front end reads `coorganizers` to tell whether the
  // caller is on the team): the event's owner, organizers and coorganizers see its team, anyone else none of it.
  ...Object.fromEntries(
    ['organizers', 'coorganizers', 'track-organizers', 'registrars', 'moderators'].map((n) => [
      `GET ${EVENT}/${n}`,
      everyone(200),
    ]),
  ),
  // Who holds which role: the linkage is scoped (a user's own roles, all for the event's organizers); the list needs a login.
  [`GET ${EVENT}/relationships/roles`]: everyone(200),
  [`GET ${EVENT}/roles`]: signedIn(200),
  [`GET ${EVENT}/users-events-roles`]: signedIn(200),
  [`GET ${EVENT}/relationships/role-invites`]: involved(200),
  [`GET ${EVENT}/role-invites`]: involved(200),
  // The event's statistics (and a ticket's): its owner, organizers and coorganizers, as its orders.
  ...Object.fromEntries(
    ['general-statistics', 'order-statistics'].flatMap((name) => [
      [`GET ${EVENT}/relationships/${name}`, involved(200)],
      [`GET ${EVENT}/${name}`, involved(200)],
    ]),
  ),
  'GET /v1/tickets/{id}/relationships/order-statistics': involved(200),
  'GET /v1/tickets/{id}/order-statistics': involved(200),

  // Discount and access codes: an event's codes are its owner's, organizers' and coorganizers' (and the
  // administrators'); the codes' marketer (`owner` made them) sees them too; anyone else finds nothing (404), except
  // by the code's text on the lookup routes, open to whoever knows it. Event codes (the bazaar's) are the
  // administrators'. The reference let any logged-in user read, change and delete any code by id.
  ...Object.fromEntries(
    ['discount-codes', 'access-codes'].flatMap((name) => [
      [`GET ${EVENT}/relationships/${name}`, involved(200)],
      [`GET ${EVENT}/${name}`, involved(200)],
      [`GET /v1/tickets/{id}/relationships/${name}`, involved(200)],
      [`GET /v1/tickets/{id}/${name}`, involved(200)],
      [`GET /v1/events/{event}/${name}/{code}`, everyone(200)],
    ]),
  ),
  // An event's fee code: scoped (null for all but administrators and its marketer).
  ...publicRelationship(EVENT, 'discount-code'),
  'GET /v1/discount-codes': staffOnly(200),
  'POST /v1/discount-codes': involved(201),
  'POST /v1/discount-codes [used-for: event]': staffOnly(201),
  'GET /v1/access-codes': signedIn(200),
  'POST /v1/access-codes': involved(201),
  ...Object.fromEntries(
    ['discount-codes', 'access-codes'].flatMap((path) => [
      [`GET /v1/${path}/{id}`, row(404, 404, 200, 200, 200, 200)],
      [`PATCH /v1/${path}/{id}`, row(404, 404, 200, 200, 200, 200)],
      [`DELETE /v1/${path}/{id}`, row(404, 404, 200, 200, 200, 200)],
      [`PATCH /v1/${path}/{id}/relationships/event`, row(404, 404, 200, 200, 200, 200)],
      ...['PATCH', 'POST', 'DELETE'].map((m) => [
        `${m} /v1/${path}/{id}/relationships/tickets`,
        row(404, 404, 200, 200, 200, 200),
      ]),
      ...['event', 'tickets', 'marketer', ...(path === 'discount-codes' ? ['events'] : [])].flatMap((n) => [
        [`GET /v1/${path}/{id}/relationships/${n}`, row(404, 404, 200, 200, 200, 200)],
        [`GET /v1/${path}/{id}/${n}`, row(404, 404, 200, 200, 200, 200)],
      ]),
    ]),
  ),
  // The events of an event code: the administrators'.
  ...Object.fromEntries(
    ['PATCH', 'POST', 'DELETE'].map((m) => [
      `${m} /v1/discount-codes/{id}/relationships/events`,
      row(404, 404, 404, 404, 200, 200),
    ]),
  ),

  // Roles: a fixed list everyone reads and nobody writes.
  'GET /v1/roles': everyone(200),
  'POST /v1/roles': everyone(403),
  'GET /v1/roles/{id}': everyone(200),
  'PATCH /v1/roles/{id}': everyone(403),
  'DELETE /v1/roles/{id}': everyone(403),
  // The invites to a role in the events the caller organizes or coorganizes; the list needs a login.
  'GET /v1/roles/{id}/relationships/role-invites': everyone(200),
  'GET /v1/roles/{id}/role-invites': signedIn(200),
  // A role held in an event: its user and the event's owner, organizers and coorganizers see it; the owner removes it.
  // The administrator's console (issue 43): system roles and their panels, user and event role permissions.
  ...consoleRoles,
  'GET /v1/users-events-roles': signedIn(200),
  'POST /v1/users-events-roles': everyone(403),
  'GET /v1/users-events-roles/{id}': row(404, 404, 200, 200, 200, 200),
  'PATCH /v1/users-events-roles/{id}': row(404, 404, 403, 403, 403, 403),
  'DELETE /v1/users-events-roles/{id}': row(404, 404, 200, 403, 200, 200),
  ...Object.fromEntries(
    ['event', 'role', 'user'].flatMap((name) => [
      [`GET /v1/users-events-roles/{id}/relationships/${name}`, row(404, 404, 200, 200, 200, 200)],
      [`GET /v1/users-events-roles/{id}/${name}`, row(404, 404, 200, 200, 200, 200)],
    ]),
  ),
  // Role invites: the event's organizers invite and delete, its organizers and coorganizers read; nobody changes one.
  'GET /v1/role-invites': signedIn(200),
  'POST /v1/role-invites': involved(201),
  'GET /v1/role-invites/{id}': row(404, 404, 200, 200, 200, 200),
  'PATCH /v1/role-invites/{id}': row(404, 404, 403, 403, 403, 403),
  'DELETE /v1/role-invites/{id}': row(404, 404, 200, 200, 200, 200),
  ...Object.fromEntries(
    ['event', 'role'].flatMap((name) => [
      [`GET /v1/role-invites/{id}/relationships/${name}`, row(404, 404, 200, 200, 200, 200)],
      [`GET /v1/role-invites/{id}/${name}`, row(404, 404, 200, 200, 200, 200)],
      [`PATCH /v1/role-invites/{id}/relationships/${name}`, row(404, 404, 403, 403, 403, 403)],
    ]),
  ),
  'POST /v1/role-invites/{id}/resend-invite': involved(200),
  // The mailed token is the credential for naming the address and declining; accepting needs the invitee's login.
  'POST /v1/role_invites/user': everyone(200),
  'POST /v1/role_invites/decline-invite': everyone(200),
  'POST /v1/role_invites/accept-invite': signedIn(200),
  'POST /v1/events/{event_id}/export/json': involved(200),
  // The schedule exports and the CSV and PDF exports: started by POST, and by GET as the Open Event front end does.
  ...Object.fromEntries(
    [
      'ical',
      'xcal',
      'pentabarf',
      ...['sessions', 'speakers', 'orders', 'attendees'].flatMap((kind) => [`${kind}/csv`, `${kind}/pdf`]),
    ].flatMap((path) =>
      ['POST', 'GET'].map((method) => [`${method} /v1/events/{event_id}/export/${path}`, involved(200)]),
    ),
  ),
  // The schedule documents of a published public event, for conference apps and calendars without an account.
  ...Object.fromEntries(
    ['xml', 'json', 'ics', 'xcal'].map((format) => [`GET /v1/events/{id}/schedule.${format}`, everyone(200)]),
  ),
  'GET /v1/sessions/{id}/session.ics': everyone(200),
  'GET /v1/events/{event_id}/exports/{*}': involved(200),
  // The signed download_url of the task: whoever holds it, until it expires (the front end sends no token).
  'GET /v1/events/{event_id}/exports/{*} [signed link]': everyone(200),
  'POST /v1/events/import/{source_type}': signedIn(200),
  // Only the requester and administrators know an export or import task exists.
  'GET /v1/tasks/{task_id}': row(401, 404, 200, 404, 200, 200),
  // An app build is asked for without an account: its task URL is the capability.
  'GET /v1/tasks/{task_id} [app build]': everyone(200),
  // The import jobs: the caller's own imports; one import is its requester's and the administrators'.
  'GET /v1/import-jobs': signedIn(200),
  'GET /v1/import-jobs/{id}': row(404, 404, 200, 404, 200, 200),

  // Site-wide records: everyone reads, administrators write.
  'GET /v1/event-topics': everyone(200),
  'POST /v1/event-topics': staffOnly(201),
  'GET /v1/event-topics/{id}': everyone(200),
  'PATCH /v1/event-topics/{id}': staffOnly(200),
  'DELETE /v1/event-topics/{id}': staffOnly(200),
  ...publicRelationship('/v1/event-topics/{id}', 'events'),
  ...publicRelationship('/v1/event-topics/{id}', 'event-sub-topics'),
  'POST /v1/event-topics/{id}/event-sub-topics': staffOnly(201),
  'GET /v1/event-types': everyone(200),
  'POST /v1/event-types': staffOnly(201),
  'GET /v1/event-types/{id}': everyone(200),
  'PATCH /v1/event-types/{id}': staffOnly(200),
  'DELETE /v1/event-types/{id}': staffOnly(200),
  ...publicRelationship('/v1/event-types/{id}', 'events'),
  'GET /v1/event-sub-topics': everyone(200),
  'POST /v1/event-sub-topics': staffOnly(201),
  'GET /v1/event-sub-topics/{id}': everyone(200),
  'PATCH /v1/event-sub-topics/{id}': staffOnly(200),
  'DELETE /v1/event-sub-topics/{id}': staffOnly(200),
  ...publicRelationship('/v1/event-sub-topics/{id}', 'events'),
  ...publicRelationship('/v1/event-sub-topics/{id}', 'event-topic'),
  'PATCH /v1/event-sub-topics/{id}/relationships/event-topic': staffOnly(200),
  'GET /v1/pages': everyone(200),
  'POST /v1/pages': staffOnly(201),
  'GET /v1/pages/{id}': everyone(200),
  'PATCH /v1/pages/{id}': staffOnly(200),
  'DELETE /v1/pages/{id}': staffOnly(200),
  'GET /v1/settings': everyone(200),
  'GET /v1/settings/{id}': everyone(200),
  'GET /v1/settings/{id} [storage and mail secrets]': shownTo('admin', 'superAdmin'),
  'PATCH /v1/settings/{id}': staffOnly(200),
  'PATCH /v1/settings': staffOnly(200),
  // The image sizes (one record each) and the sub-topics' placeholder images: everyone reads, administrators write.
  ...Object.fromEntries(
    ['event-image-sizes', 'speaker-image-sizes'].flatMap((n) => [
      [`GET /v1/${n}`, everyone(200)],
      [`GET /v1/${n}/{id}`, everyone(200)],
      [`PATCH /v1/${n}`, staffOnly(200)],
      [`PATCH /v1/${n}/{id}`, staffOnly(200)],
    ]),
  ),
  'GET /v1/custom-placeholders': everyone(200),
  'POST /v1/custom-placeholders': staffOnly(201),
  'GET /v1/custom-placeholders/{id}': everyone(200),
  'PATCH /v1/custom-placeholders/{id}': staffOnly(200),
  'DELETE /v1/custom-placeholders/{id}': staffOnly(200),
  ...publicRelationship('/v1/custom-placeholders/{id}', 'event-sub-topic'),
  'PATCH /v1/custom-placeholders/{id}/relationships/event-sub-topic': staffOnly(200),
  ...publicRelationship('/v1/event-sub-topics/{id}', 'custom-placeholder'),
  ...Object.fromEntries(
    ['events', 'users', 'groups', 'mails', 'sessions', 'event-types', 'event-topics'].map((n) => [
      `GET /v1/admin/statistics/${n}`,
      staffOnly(200),
    ]),
  ),
  ...Object.fromEntries(
    ['by-events', 'by-organizers', 'by-marketer', 'by-location', 'discounted', 'fees'].map((n) => [
      `GET /v1/admin/sales/${n}`,
      salesPanel(200),
    ]),
  ),

  // The records of an event.
  ...eventRecord('event-copyrights'),
  'GET /v1/event-copyright/{id}': everyone(200),
  'GET /v1/event-copyright/{id}/event': everyone(200),
  'PATCH /v1/event-copyright/{id}': involved(200),
  'DELETE /v1/event-copyright/{id}': involved(200),
  ...eventRecord('social-links'),
  ...eventRecord('microlocations'),
  ...publicRelationship('/v1/microlocations/{id}', 'sessions'),
  ...eventRecord('sponsors'),
  ...eventRecord('tracks'),
  ...publicRelationship('/v1/tracks/{id}', 'sessions'),
  ...eventRecord('session-types'),
  ...publicRelationship('/v1/session-types/{id}', 'sessions'),
  ...eventRecord('sessions'),
  ...editableToOne('/v1/sessions/{id}', 'track'),
  ...editableToOne('/v1/sessions/{id}', 'microlocation'),
  ...editableToOne('/v1/sessions/{id}', 'session-type'),
  ...editableToMany('/v1/sessions/{id}', 'speakers', involved),
  'GET /v1/sessions/{id}/speakers': everyone(200),
  'POST /v1/sessions/{id}/speakers': involved(201),
  ...publicRelationship('/v1/sessions/{id}', 'creator'),
  ...eventRecord('speakers'),
  // A speaker's email and mobile: their user, the event's organizers, administrators.
  'GET /v1/speakers/{id} [email, mobile]': shownTo('owner', 'organizer', 'admin', 'superAdmin'),
  ...editableToOne('/v1/speakers/{id}', 'user'),
  ...editableToMany('/v1/speakers/{id}', 'sessions', involved),
  'GET /v1/speakers/{id}/sessions': everyone(200),
  ...eventRecord('custom-forms', signedIn(200)),
  ...eventRecord('tickets'),
  // Holders are listed as far as the caller may see them (its own, or all for the event's organizers).
  'GET /v1/tickets/{id}/relationships/attendees': everyone(200),
  'GET /v1/tickets/{id}/attendees': signedIn(200),
  'GET /v1/tickets/{id}/relationships/orders': involved(200),
  'GET /v1/tickets/{id}/orders': involved(200),
  ...editableToMany('/v1/tickets/{id}', 'ticket-tags', involved),
  'GET /v1/tickets/{id}/ticket-tags': everyone(200),
  // Ticket tags: public where their event is, written by its organizers.
  ...eventRecord('ticket-tags'),
  ...editableToMany('/v1/ticket-tags/{id}', 'tickets', involved),
  'GET /v1/ticket-tags/{id}/tickets': everyone(200),
  // The door's records (see atTheDoor); the event's lists of them are its door staff's alone.
  ...doorRecord('stations', ['station-store-paxs', 'user-check-ins'], ['event', 'microlocation']),
  'POST /v1/station': doorCreate,
  ...doorRecord('station-store-paxs', ['event'], ['station', 'session']),
  // A check-in is never changed (405, as the reference has no such method), only deleted.
  ...doorRecord('user-check-in', ['event'], ['station', 'session', 'ticket-holder'], 405),
  ...doorRecord('badge-forms', ['badge-field-forms'], ['event']),
  ...doorRecord('badge-field-forms', ['event'], ['badge-form']),
  ...Object.fromEntries(
    ['stations', 'user-check-in', 'badge-forms'].flatMap((n) => [
      [`GET ${EVENT}/relationships/${n}`, doorRoute(200)],
      [`GET ${EVENT}/${n}`, doorRoute(200)],
    ]),
  ),
  // The door's scan (a new ticket holder of the event at its registration desk, per cell), figures of the day and
  // search, and the check-ins at a room's stations.
  'POST /v1/stations/{station_id}/scan': doorRoute(201),
  'GET /v1/user-check-in/stats/event/{event_id}': doorRoute(200),
  'GET /v1/events/{event_id}/attendees/search': doorRoute(200),
  'GET /v1/microlocations/{id}/relationships/user-check-in': doorRoute(200),
  'GET /v1/microlocations/{id}/user-check-in': doorRoute(200),
  [`POST ${EVENT}/stations`]: doorCreate,
  [`POST ${EVENT}/badge-forms`]: doorCreate,
  // The reference's lists of the door's records by room, session, station and session, and badge; the fields of a
  // ticket's badge (plain JSON).
  ...Object.fromEntries(
    [
      ['/v1/microlocations/{id}', 'stations'],
      ['/v1/sessions/{id}', 'station-store-paxs'],
    ].flatMap(([base, n]) => [
      [`GET ${base}/relationships/${n}`, doorRoute(200)],
      [`GET ${base}/${n}`, doorRoute(200)],
    ]),
  ),
  'GET /v1/stations/{id}/sessions/{session_id}/station-store-paxs': atTheDoor(200),
  [`GET ${EVENT}/badge-forms/{badge_id}`]: doorRoute(200),
  'GET /v1/badge-forms/{id}/badge-field-forms/{badge_id}': atTheDoor(200),
  'GET /v1/tickets/{ticket_id}/badge-forms': doorRoute(200),
  // Printing badges (a task, polled like an export): the door's work.
  'GET /v1/badge-forms/print-badge-pdf': doorRoute(200),
  'GET /v1/events/{event_id}/export/badges/pdf': doorRoute(200),
  'POST /v1/events/{event_id}/export/badges/pdf': doorRoute(200),
  // Attendee tags: the event's organizers' labels on people; the list is scoped (a stranger's is empty).
  ...eventRecord('tags', involved(200)),
  'GET /v1/tags': signedIn(200),
  // Ticket fees: the administrators' settings; orders read them on the server.
  'GET /v1/ticket-fees': staffOnly(200),
  // Event invoices (issue 43): the server issues them; the event's owner (billed) and organizers see them, the sales
  // panel all, strangers nothing (404); only administrators change one; online payment is not available (422).
  'GET /v1/event-invoices': salesPanel(200),
  'POST /v1/event-invoices': everyone(403),
  'GET /v1/event-invoices/{id}': row(404, 404, 200, 200, 200, 200, 404, 200),
  'PATCH /v1/event-invoices/{id}': row(404, 404, 403, 403, 200, 200, 404, 403),
  'DELETE /v1/event-invoices/{id}': row(404, 404, 403, 403, 403, 403, 404, 403),
  ...Object.fromEntries(
    ['user', 'event'].flatMap((name) => [
      [`GET /v1/event-invoices/{id}/relationships/${name}`, row(404, 404, 200, 200, 200, 200, 404, 200)],
      [`GET /v1/event-invoices/{id}/${name}`, row(404, 404, 200, 200, 200, 200, 404, 200)],
    ]),
  ),
  'GET /v1/events/{id}/event-invoices': row(401, 404, 200, 200, 200, 200, 404, 404),
  'GET /v1/events/{id}/relationships/event-invoices': row(401, 404, 200, 200, 200, 200, 404, 404),
  'POST /v1/event-invoices/monthly-run': staffOnly(200),
  'POST /v1/event-invoices/{identifier}/charge': row(401, 404, 422, 422, 422, 422, 404, 422),
  'POST /v1/event-invoices/{identifier}/create-paypal-payment': row(401, 404, 422, 422, 422, 422, 404, 422),
  'GET /v1/admin/sales/invoices': salesPanel(200),
  'POST /v1/ticket-fees': staffOnly(201),
  'GET /v1/ticket-fees/{id}': staffOnly(200),
  'PATCH /v1/ticket-fees/{id}': staffOnly(200),
  'DELETE /v1/ticket-fees/{id}': staffOnly(200),
  // The choices of a custom form field: read as the fields are (with a login), written by the event's organizers.
  'GET /v1/custom-form-options': signedIn(200),
  'POST /v1/custom-form-options': involved(201),
  'GET /v1/custom-form-options/{id}': signedIn(200),
  'PATCH /v1/custom-form-options/{id}': involved(200),
  'DELETE /v1/custom-form-options/{id}': involved(200),
  'GET /v1/custom-form-options/{id}/relationships/custom-form': signedIn(200),
  'PATCH /v1/custom-form-options/{id}/relationships/custom-form': involved(200),
  'GET /v1/custom-form-options/{id}/custom-form': signedIn(200),
  'GET /v1/custom-forms/{id}/relationships/custom-form-options': signedIn(200),
  'GET /v1/custom-forms/{id}/custom-form-options': signedIn(200),
  'POST /v1/custom-forms/{id}/custom-form-options': involved(201),
  // The public part of a tax for everyone, the invoicing details for the event's organizers.
  ...eventRecord('taxes'),
  'GET /v1/tax/{id}': everyone(200),
  'PATCH /v1/tax/{id}': involved(200),
  'DELETE /v1/tax/{id}': involved(200),
  'GET /v1/tax/{id}/event': everyone(200),
  'GET /v1/taxes/{id} [tax-id, email]': shownTo('owner', 'organizer', 'admin', 'superAdmin'),
  ...eventRecord('speakers-calls'),
  'GET /v1/speakers-call/{id}': everyone(200),
  'GET /v1/speakers-call/{id}/event': everyone(200),
  'PATCH /v1/speakers-call/{id}': involved(200),
  'DELETE /v1/speakers-call/{id}': involved(200),

  ...editableToOne('/v1/microlocations/{id}', 'video-stream'),

  // Video streams: seen where their event is; joined through url and password, which only the event's staff see and write.
  'GET /v1/video-streams': everyone(200),
  'POST /v1/video-streams': involved(201),
  'GET /v1/video-streams/{id}': everyone(200),
  'GET /v1/video-streams/{id} [url, password]': shownTo('owner', 'organizer', 'admin', 'superAdmin'),
  'PATCH /v1/video-streams/{id}': involved(200),
  'DELETE /v1/video-streams/{id}': involved(200),
  ...editableToOne('/v1/video-streams/{id}', 'event'),
  ...publicRelationship('/v1/video-streams/{id}', 'rooms'),
  ...editableToMany('/v1/video-streams/{id}', 'rooms', involved),

  // Groups: public; a verified user creates one and owns it; only administrators promote; followers are seen by
  // themselves, the group's owner and administrators.
  'GET /v1/groups': everyone(200),
  // The matrix callers' addresses are unverified, and only users with a verified address create groups.
  'POST /v1/groups': staffOnly(201),
  'POST /v1/groups [is-promoted: true]': staffOnly(201),
  'GET /v1/groups/{id}': everyone(200),
  'GET /v1/groups/{id} [include=followers]': shownTo('owner', 'admin', 'superAdmin'),
  'PATCH /v1/groups/{id}': ownerOrStaff(200),
  'PATCH /v1/groups/{id} [is-promoted: true]': staffOnly(200),
  'DELETE /v1/groups/{id}': ownerOrStaff(200),
  ...publicRelationship('/v1/groups/{id}', 'user'),
  ...publicRelationship('/v1/groups/{id}', 'events'),
  ...editableToMany('/v1/groups/{id}', 'events', ownerOrStaff),
  ...publicRelationship('/v1/groups/{id}', 'followers'),
  ...publicRelationship('/v1/groups/{id}', 'follower'),
  'GET /v1/user-follow-groups': everyone(200),
  'POST /v1/user-follow-groups': signedIn(201),
  ...Object.fromEntries(
    [
      'GET /v1/user-follow-groups/{id}',
      'PATCH /v1/user-follow-groups/{id}',
      'DELETE /v1/user-follow-groups/{id}',
      ...['group', 'user'].flatMap((n) => [
        `GET /v1/user-follow-groups/{id}/relationships/${n}`,
        `PATCH /v1/user-follow-groups/{id}/relationships/${n}`,
        `GET /v1/user-follow-groups/{id}/${n}`,
      ]),
    ].map((key) => [key, row(404, 404, 200, 404, 200, 200)]),
  ),

  // Orders: the buyer, the event's organizers, administrators; only administrators delete.
  'GET /v1/orders': signedIn(200),
  'POST /v1/orders': signedIn(201),
  // The checkout: anyone prices the tickets they may see; anyone logged in reserves tickets on sale.
  'POST /v1/orders/calculate-amount': everyone(200),
  'POST /v1/orders/create-order': signedIn(200),
  // A new order is initializing, whoever creates it: the server and the status moves set the others.
  'POST /v1/orders [status: completed]': row(401, 422, 422, 422, 422, 422),
  'GET /v1/orders/{id}': involved(200),
  // Tickets sold at the door: the event's organizers only (the buyer holds no role in the event).
  'POST /v1/orders [onsite=true]': row(401, 403, 403, 201, 201, 201),
  // The stored payment status: strangers are told of no order (404).
  'POST /v1/orders/{identifier}/verify': row(401, 404, 200, 200, 200, 200),
  // Online payments of an open order: no provider is configured, so those who handle it get the 422 naming it.
  'POST /v1/orders/{identifier}/charge': row(401, 404, 422, 422, 422, 422),
  'POST /v1/orders/{identifier}/create-paypal-payment': row(401, 404, 422, 422, 422, 422),
  // The tickets and the invoice as PDF: strangers are told of no order (404).
  'GET /v1/orders/{identifier}/tickets-pdf': row(401, 404, 200, 200, 200, 200),
  'GET /v1/tickets/{order_identifier}': row(401, 404, 200, 200, 200, 200),
  'GET /v1/orders/attendees/{attendee_id}.pdf': row(401, 404, 200, 200, 200, 200),
  'GET /v1/orders/invoices/{identifier}': row(401, 404, 200, 200, 200, 200),
  'PATCH /v1/orders/{id}': involved(200),
  // A paid order the buyer placed (bank transfer): the organizers mark it paid, the buyer may not.
  'PATCH /v1/orders/{id} [status: completed]': row(401, 403, 403, 200, 200, 200),
  'DELETE /v1/orders/{id}': staffOnly(200),
  'GET /v1/orders/{id}/relationships/event': involved(200),
  'PATCH /v1/orders/{id}/relationships/event': involved(200),
  'GET /v1/orders/{id}/event': involved(200),
  'GET /v1/orders/{id}/relationships/user': involved(200),
  'GET /v1/orders/{id}/user': involved(200),
  ...Object.fromEntries(
    ['marketer', 'discount-code', 'access-code', 'event-invoice'].flatMap((n) => [
      [`GET /v1/orders/{id}/relationships/${n}`, involved(200)],
      [`GET /v1/orders/{id}/${n}`, involved(200)],
    ]),
  ),
  'POST /v1/attendees/send-receipt': involved(200),
  ...Object.fromEntries(
    ['attendees', 'tickets'].flatMap((n) => [
      [`GET /v1/orders/{id}/relationships/${n}`, involved(200)],
      [`GET /v1/orders/{id}/${n}`, involved(200)],
    ]),
  ),

  // Ticket holders (of the open order `owner` bought in the bazaar): the buyer and the event's organizers; organizers
  // delete. The registrars read them and change their check-in members only (a new first name: 403).
  'GET /v1/attendees': signedIn(200),
  'POST /v1/attendees': involved(201),
  'GET /v1/attendees/{id}': door(involved(200), 200),
  // An attendee's registration: for those who read the attendee (the recipe names the attendee of `owner`'s order).
  'GET /v1/states': door(involved(200), 200),
  'PATCH /v1/attendees/{id}': involved(200),
  // Checking in is the door's: not the buyer's, even of an open order.
  'PATCH /v1/attendees/{id} [is-checked-in: true]': row(401, 403, 403, 200, 200, 200, 200),
  'DELETE /v1/attendees/{id}': row(401, 403, 403, 200, 200, 200),
  ...Object.fromEntries(
    ['event', 'order', 'ticket', 'user', 'tag'].flatMap((n) => [
      [`GET /v1/attendees/{id}/relationships/${n}`, door(involved(200), 200)],
      // The door changes no linkage (a document may send it back unchanged).
      [`PATCH /v1/attendees/{id}/relationships/${n}`, door(involved(200), 403)],
      [`GET /v1/attendees/{id}/${n}`, door(involved(200), 200)],
    ]),
  ),
  // Tagging a ticket holder is for the event's staff (the recipe names a tag of the holder's event).
  'PATCH /v1/attendees/{id}/relationships/tag': row(401, 403, 403, 200, 200, 200),

  // Stripe: no integration here, so organizers' writes are refused with 422; reads are the organizers'.
  'GET /v1/stripe-authorizations': signedIn(200),
  'POST /v1/stripe-authorizations': row(401, 403, 422, 422, 422, 422),
  'GET /v1/stripe-authorizations/{id}': involved(200),
  'PATCH /v1/stripe-authorizations/{id}': row(401, 403, 422, 422, 422, 422),
  'DELETE /v1/stripe-authorizations/{id}': involved(200),
  'GET /v1/stripe-authorizations/{id}/relationships/event': involved(200),
  'PATCH /v1/stripe-authorizations/{id}/relationships/event': row(401, 403, 422, 422, 422, 422),
  'GET /v1/stripe-authorizations/{id}/event': involved(200),

  // Message settings (the messages panel's), the mail and activity logs (the reports panel's): administrators.
  'GET /v1/message-settings': staffOnly(200),
  'POST /v1/message-settings': everyone(403),
  'GET /v1/message-settings/{id}': staffOnly(200),
  'PATCH /v1/message-settings/{id}': staffOnly(200),
  'DELETE /v1/message-settings/{id}': everyone(403),
  'GET /v1/mails': staffOnly(200),
  'GET /v1/mails/{id}': staffOnly(200),
  'GET /v1/activities': staffOnly(200),
  'GET /v1/activities/{id}': staffOnly(200),
  // The translation files (the content panel's).
  'GET /v1/admin/content/translations/all/': staffOnly(200),
  // E-mail notifications: each user makes its own; its user and administrators read and change it, others find none.
  'GET /v1/email-notifications': staffOnly(200),
  'POST /v1/email-notifications': signedIn(201),
  ...Object.fromEntries(
    [
      'GET /v1/email-notifications/{id}',
      'PATCH /v1/email-notifications/{id}',
      'DELETE /v1/email-notifications/{id}',
      'GET /v1/email-notifications/{id}/relationships/event',
      'PATCH /v1/email-notifications/{id}/relationships/event',
      'GET /v1/email-notifications/{id}/event',
      'GET /v1/email-notifications/{id}/relationships/user',
      'GET /v1/email-notifications/{id}/user',
    ].map((route) => [route, row(401, 404, 200, 404, 200, 200)]),
  ),
  // Notifications: written by the server only; read by their user and administrators, changed by their user.
  'GET /v1/notifications': signedIn(200),
  'POST /v1/notifications': everyone(403),
  'GET /v1/notifications/{id}': ownerOrStaff(200),
  'PATCH /v1/notifications/{id}': ownerOrStaff(200),
  'DELETE /v1/notifications/{id}': ownerOrStaff(200),
  'GET /v1/notifications/{id}/relationships/user': ownerOrStaff(200),
  'GET /v1/notifications/{id}/user': ownerOrStaff(200),

  // Feedback, favourites and speaker invites: the owner wrote them (author, schedule, inviter); the event's
  // organizers read them all; strangers are told of none (404).
  ...socialRecord('feedbacks', ['session', 'event', 'user']),
  'POST /v1/feedbacks': row(401, 403, 201, 201, 201, 201),
  'PATCH /v1/feedbacks/{id}': authorOnly(200),
  'DELETE /v1/feedbacks/{id}': row(401, 404, 200, 403, 200, 200),
  ...Object.fromEntries(
    ['session', 'event', 'user'].map((n) => [`PATCH /v1/feedbacks/{id}/relationships/${n}`, authorOnly(200)]),
  ),
  ...socialRecord('user-favourite-sessions', ['session', 'user']),
  'GET /v1/user-favourite-sessions': everyone(200),
  'POST /v1/user-favourite-sessions': signedIn(201),
  'PATCH /v1/user-favourite-sessions/{id}': authorOnly(403),
  'DELETE /v1/user-favourite-sessions/{id}': socialReader(200),
  'PATCH /v1/user-favourite-sessions/{id}/relationships/session': authorOnly(403),
  ...socialRecord('speaker-invites', ['event', 'session']),
  'POST /v1/speaker-invites': row(401, 403, 201, 201, 201, 201),
  'PATCH /v1/speaker-invites/{id}': authorOnly(403),
  'DELETE /v1/speaker-invites/{id}': socialReader(200),
  'PATCH /v1/speaker-invites/{id}/relationships/event': authorOnly(403),
  'PATCH /v1/speaker-invites/{id}/relationships/session': authorOnly(403),
  // Only the invitee answers (the flow test covers the invitee): the inviter and staff who see it get 403.
  'GET /v1/speaker-invites/{id}/accept-invite': authorOnly(403, 403),
  'GET /v1/speaker-invites/{id}/reject-invite': authorOnly(403, 403),
  // The linkage is scoped like the list (empty, or null, without a login); the lists need a login.
  ...publicRelationship('/v1/sessions/{id}', 'favourite'),
  // Favourites are listed for anyone (the public session page): empty without a login.
  ...publicRelationship('/v1/sessions/{id}', 'favourites'),
  ...publicRelationship(EVENT, 'session-favourites'),
  // The reference's names of those lists (related lists only).
  'GET /v1/sessions/{id}/user-favourite-sessions': everyone(200),
  [`GET ${EVENT}/user-favourite-sessions`]: everyone(200),
  ...Object.fromEntries(
    [
      ...['feedbacks', 'speaker-invites'].map((n) => `/v1/sessions/{id}/${n}`),
      `${EVENT}/speaker-invites`,
      `${EVENT}/feedbacks`,
    ].flatMap((related) => [
      [`GET ${related.replace(/\/([^/]+)$/, '/relationships/$1')}`, everyone(200)],
      [`GET ${related}`, signedIn(200)],
    ]),
  ),

  // Files: uploads need a login; stored files are public by their unguessable URL.
  'POST /v1/upload/file': signedIn(200),
  'POST /v1/upload/files': signedIn(200),
  'POST /v1/upload/image': signedIn(200),
  'GET /static/media/{*}': everyone(200),
  // An export archive is stored beside the uploads: it is served only by its organizers-only route above.
  'GET /static/media/{*} [an export archive]': everyone(404),

  // The assistant: the same token as the `access_token` parameter; roles user < ... < admin < superadmin.
  'GET /aaa/login.json': everyone(200),
  'POST /aaa/login.json': everyone(200),
  // Without a token the store answers the reference's 400 "ensure you are logged in".
  'GET /aaa/storePersonalInfo.json': signedIn(200),
  'POST /aaa/storePersonalInfo.json': signedIn(200),
  'GET /aaa/changeRoles.json': assistantAdmin(200),
  'POST /aaa/changeRoles.json': assistantAdmin(200),
  // The reference let an admin grant superadmin: only a superadmin grants admin or superadmin here.
  'GET /aaa/changeRoles.json [role=superadmin]': row(401, 401, 401, 401, 403, 200),
  'GET /aaa/changeRoles.json [user=an admin]': row(401, 401, 401, 401, 403, 200),
  'GET /aaa/listSettings.json': assistantAdmin(200),
  // The account endpoints of the clients: anyone signs up, recovers a password, checks an address, reads
  // the public API keys and whether to show the admin link; settings and devices are the caller's; the
  // user list is for operators (none among these callers: admins), deleting and device edits for admins.
  ...Object.fromEntries(
    ['getApiKeys', 'showAdminService', 'signup', 'recoverpassword', 'checkRegistration'].flatMap((name) => [
      [`GET /aaa/${name}.json`, everyone(200)],
      [`POST /aaa/${name}.json`, everyone(200)],
    ]),
  ),
  ...Object.fromEntries(
    ['listUserSettings', 'changeUserSettings', 'listUserDevices', 'addNewDevice'].flatMap((name) => [
      [`GET /aaa/${name}.json`, signedIn(200)],
      [`POST /aaa/${name}.json`, signedIn(200)],
    ]),
  ),
  ...Object.fromEntries(
    ['getUsers.json', 'deleteUserAccount.json', 'deleteUserAccount', 'modifyUserDevices.json'].flatMap((name) => [
      [`GET /aaa/${name}`, assistantAdmin(200)],
      [`POST /aaa/${name}`, assistantAdmin(200)],
    ]),
  ),
  // A wrong current password (the callers keep theirs and their tokens): a user reaches the check, anonymous does not.
  'GET /aaa/changepassword.json': signedIn(422),
  'POST /aaa/changepassword.json': signedIn(422),
  // Only a superadmin deletes an administrator's account.
  'GET /aaa/deleteUserAccount.json [email=an admin]': row(401, 401, 401, 401, 403, 200),
  'GET /data/settings': assistantAdmin(200),
  'POST /cms/createSkill.json': signedIn(200),
  'GET /cms/modifySkill.json': signedIn(200),
  'POST /cms/modifySkill.json': signedIn(200),
  'GET /cms/getModel.json': everyone(200),
  'GET /cms/getGroups.json': everyone(200),
  'GET /cms/getAllLanguages.json': everyone(200),
  'GET /cms/getLanguage.json': everyone(200),
  'GET /cms/getSkill.json': everyone(200),
  'GET /cms/fiveStarRateSkill.json': signedIn(200),
  'POST /cms/fiveStarRateSkill.json': signedIn(200),
  'GET /cms/feedbackSkill.json': signedIn(200),
  'POST /cms/feedbackSkill.json': signedIn(200),
  'GET /cms/changeSkillStatus.json': assistantAdmin(200),
  'POST /cms/changeSkillStatus.json': assistantAdmin(200),
  'GET /cms/getSkillMetricsData.json': everyone(200),
  'GET /cms/getRatingByUser.json': signedIn(200),
  'GET /cms/getRatingsOverTime.json': everyone(200),
  'GET /cms/getProfileDetails.json': signedIn(200),
  // Anonymous votes as in the reference (one per address).
  'GET /cms/rateSkill.json': everyone(200),
  'POST /cms/rateSkill.json': everyone(200),
  'GET /cms/getSkillFeedback.json': everyone(200),
  // The caller's own feedback only: nothing to name another's by.
  'GET /cms/removeFeedback.json': signedIn(200),
  'POST /cms/removeFeedback.json': signedIn(200),
  'GET /cms/reportSkill.json': signedIn(200),
  'POST /cms/reportSkill.json': signedIn(200),
  // Operators and up; the matrix has no operator, so administrators.
  'GET /cms/getReportSkill.json': assistantAdmin(200),
  'GET /cms/getSkillUsage.json': everyone(200),
  'GET /cms/getCountryWiseSkillUsage.json': everyone(200),
  'GET /cms/getDeviceWiseSkillUsage.json': everyone(200),
  // Reads: images (the default image when the caller's private tree has none), metadata, lists, the chat.
  'GET /cms/getImage.png': everyone(200),
  'GET /cms/getSkillMetadata.json': everyone(200),
  'GET /cms/getSkillList.json': everyone(200),
  'GET /cms/getSkillsByAuthor.json': everyone(200),
  'GET /susi/chat.json': everyone(200),
  'POST /susi/chat.json': everyone(200),
  'POST /cms/uploadImage.json': signedIn(200),
  'GET /cms/getSkillHistory.json': everyone(200),
  'GET /cms/getFileAtCommitID.json': everyone(200),
  // Public skills: their author and administrators (the reference compares author_email; undo is ANONYMOUS there).
  'GET /cms/deleteSkill.json': ownerOrStaff(200),
  'GET /cms/undoDeleteSkill.json': ownerOrStaff(200),
  'GET /cms/skillsToBeDeleted.json': assistantAdmin(200),
  'GET /cms/storeDraft.json': signedIn(200),
  'POST /cms/storeDraft.json': signedIn(200),
  'GET /cms/readDraft.json': signedIn(200),
  'GET /cms/deleteDraft.json': signedIn(200),

  // The app generator: public by design (rate limited per address and mailbox); only POST builds.
  'POST /api/api.php': everyone(202),
  'GET /api/api.php': everyone(405),
  'PUT /api/api.php': everyone(405),
  'PATCH /api/api.php': everyone(405),
  'DELETE /api/api.php': everyone(405),
  // The reference's v2 entry points: the same public build, and its status by task id.
  'POST /api/v2/generate': everyone(200),
  'POST /': everyone(200),
  'GET /api/v2/app/{task_id}/status': everyone(200),
};
