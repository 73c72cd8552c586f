import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import ipaddr from 'ipaddr.js';
import { isStaff, type Caller } from './auth/caller.js';
import { checkLogin, type LoginLimits } from './auth/login.js';
import { badRequest, forbidden, notFound, unauthorized } from './jsonapi/index.js';

const isLoopback = (address: string | undefined) =>
  !!address && ipaddr.isValid(address) && ipaddr.process(address).range() === 'loopback';

/**
 * Baseline routes for `make bench` (mounted only with BENCH_ROUTES=true): for each benchmarked read,
 * the best single SQL statement a person would write for the document the service answers (the same
 * members and values: attributes, the caller's visibility and private-attribute rules, linkage,
 * included records, links with pagination and `meta.count`), built as JSON text by PostgreSQL and
 * relayed as it is. The same authentication as the service route runs first (with a token, its account
 * lookup: 2 statements; without, 1). Nothing here uses the JSON:API engine: the SQL is written by hand,
 * and the bench checks that each baseline answers the service's document member by member.
 * `/bench/baseline/<path>` mirrors `GET /v1/<path>` for the reads of test/bench/paths.ts only; other
 * query parameters (filter, sort, fields) are refused with 400. Loopback callers only.
 */

const MEDIA_TYPE = 'application/vnd.api+json';
const JSONAPI = '"jsonapi":{"version":"1.0"}';

/** A timestamp as JavaScript's Date#toISOString writes it (the columns keep milliseconds), named `wire`. */
const ts = (column: string, wire: string) =>
  `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "${wire}"`;

/** Positional parameters of one statement; the same key reuses its number, so the text is stable per caller kind. */
class Params {
  readonly values: unknown[] = [];
  private readonly named = new Map<string, string>();
  add(key: string, value: unknown, type: string): string {
    let ref = this.named.get(key);
    if (!ref) {
      this.values.push(value);
      ref = `$${this.values.length}::${type}`;
      this.named.set(key, ref);
    }
    return ref;
  }
}

/** Linkage of a to-one relationship as JSON text: `{"type":…,"id":…}` for the id `idSql`, `null` without one. */
const linkOne = (type: string, idSql: string) => `coalesce('{"type":"${type}","id":"' || (${idSql}) || '"}', 'null')`;

/** A relationship of a resource object; `data` is SQL giving its linkage as JSON text (omitted: links only). */
interface Rel {
  name: string;
  data?: string;
}

/**
 * A resource object as JSON text in one `format()` call: type, id, attributes (SQL giving a JSON
 * object's text), every relationship's links with linkage where given, and the self link.
 */
function resource(type: string, path: string, id: string, attributes: string, rels: Rel[]): string {
  const args = [id, attributes];
  const members = rels.map(({ name, data }) => {
    let member = `"${name}":{"links":{"self":"/v1/${path}/%1$s/relationships/${name}","related":"/v1/${path}/%1$s/${name}"}`;
    if (data) {
      args.push(data);
      member += `,"data":%${args.length}$s`;
    }
    return `${member}}`;
  });
  return (
    `format('{"type":"${type}","id":"%1$s","attributes":%2$s,"relationships":{${members.join(',')}},` +
    `"links":{"self":"/v1/${path}/%1$s"}}', ${args.join(', ')})`
  );
}

/** The attributes object of a row: the select list `columns` (aliased to the wire names) as JSON text. */
const attributes = (columns: string) => `(select row_to_json(a)::text from (select ${columns}) a)`;

/** `[ … ]` of the resource objects `object` of the rows of `from`, in `order`; `[]` without rows. */
const array = (object: string, from: string, order: string) =>
  `coalesce((select string_agg(${object}, ',' order by ${order}) from ${from}), '')`;

/**
 * A list document's `links` (self, first, last, prev, next) and `meta.count`, as the service writes them:
 * `pre` is SQL of the path and query with `page[size]` last but one and `page[number]=` last; `count` is SQL.
 */
function listTail(p: Params, pre: string, size: number, number: number, count: string) {
  const num = p.add('number', number, 'int');
  const last = `greatest(1, (${count} + ${p.add('size', size, 'int')} - 1) / ${p.add('size', size, 'int')})`;
  return (
    `format('"links":{"self":"%1$s%2$s","first":"%1$s1","last":"%1$s%3$s","prev":%4$s,"next":%5$s},"meta":{"count":%6$s}', ` +
    `${pre}, ${num}, ${last}, case when ${num} > 1 then '"' || ${pre} || least(${num} - 1, ${last}) || '"' else 'null' end, ` +
    `case when ${num} < ${last} then '"' || ${pre} || (${num} + 1) || '"' else 'null' end, ${count})`
  );
}

// The visibility rules of src/resources/events/access.ts, as SQL for one caller.

/** Events (alias `e`) the caller sees besides their being live: published ones and its own; all for staff. */
function eventVisible(caller: Caller | null, p: Params, e: string): string {
  if (isStaff(caller)) return 'true';
  if (!caller) return `${e}.state = 'published'`;
  const me = p.add('caller', caller.id, 'int');
  return `(${e}.state = 'published' or ${e}.id in (select id from events where owner_id = ${me} union all select event_id from event_roles where user_id = ${me}))`;
}
/** Ids of the live events the caller sees. */
const visibleEvents = (caller: Caller | null, p: Params) =>
  `(select ve.id from events ve where ve.deleted_at is null and ${eventVisible(caller, p, 've')})`;
/** Records whose event (`eventId` SQL) the caller owns, organizes or coorganizes; every record for staff. */
function inManagedEvent(caller: Caller | null, p: Params, eventId: string): string {
  if (isStaff(caller)) return 'true';
  if (!caller) return 'false';
  const me = p.add('caller', caller.id, 'int');
  return `${eventId} in (select id from events where owner_id = ${me} union all select event_id from event_roles where user_id = ${me} and role in ('organizer', 'coorganizer'))`;
}

// Attributes and relationships of each resource type, by hand from src/resources/*/index.ts.

const EVENT_COLUMNS = (e: string) =>
  `${e}.identifier, ${e}.name, ${ts(`${e}.starts_at`, 'starts-at')}, ${ts(`${e}.ends_at`, 'ends-at')}, ${e}.timezone, ${e}.description, ` +
  `${e}.location_name as "location-name", ${e}.latitude, ${e}.longitude, ${e}.logo_url as "logo-url", ${e}.original_image_url as "original-image-url", ` +
  `${e}.large_image_url as "large-image-url", ${e}.thumbnail_image_url as "thumbnail-image-url", ${e}.icon_image_url as "icon-image-url", ` +
  `${e}.external_event_url as "external-event-url", ${e}.ticket_url as "ticket-url", ${e}.privacy, ${e}.state, ${e}.code_of_conduct as "code-of-conduct", ` +
  `${e}.after_order_message as "after-order-message", ${e}.searchable_location_name as "searchable-location-name", ` +
  `${e}.public_stream_link as "public-stream-link", ${e}.stream_loop as "stream-loop", ${e}.stream_autoplay as "stream-autoplay", ${e}.online, ` +
  `${e}.is_map_shown as "is-map-shown", ${e}.is_oneclick_signup_enabled as "is-oneclick-signup-enabled", ${e}.is_sponsors_enabled as "is-sponsors-enabled", ` +
  `${e}.is_ticket_form_enabled as "is-ticket-form-enabled", ${e}.is_badges_enabled as "is-badges-enabled", ${e}.is_cfs_enabled as "is-cfs-enabled", ` +
  `${e}.is_videoroom_enabled as "is-videoroom-enabled", ${e}.is_sessions_speakers_enabled as "is-sessions-speakers-enabled", ` +
  `${e}.is_featured as "is-featured", ${e}.is_promoted as "is-promoted", ${e}.is_demoted as "is-demoted", ${e}.is_chat_enabled as "is-chat-enabled", ` +
  `${e}.is_billing_info_mandatory as "is-billing-info-mandatory", ${e}.is_document_enabled as "is-document-enabled", ${e}.document_links as "document-links", ` +
  `${e}.is_announced as "is-announced", ${e}.is_tax_enabled as "is-tax-enabled", ${e}.can_pay_by_paypal as "can-pay-by-paypal", ` +
  `${e}.can_pay_by_paytm as "can-pay-by-paytm", ${e}.can_pay_by_stripe as "can-pay-by-stripe", ${e}.is_stripe_linked as "is-stripe-linked", ` +
  `${e}.can_pay_by_cheque as "can-pay-by-cheque", ${e}.can_pay_by_invoice as "can-pay-by-invoice", ${e}.can_pay_by_bank as "can-pay-by-bank", ` +
  `${e}.can_pay_by_omise as "can-pay-by-omise", ${e}.can_pay_by_alipay as "can-pay-by-alipay", ${e}.can_pay_onsite as "can-pay-onsite", ` +
  `${e}.payment_country as "payment-country", ${e}.payment_currency as "payment-currency", ${e}.paypal_email as "paypal-email", ` +
  `${e}.cheque_details as "cheque-details", ${e}.invoice_details as "invoice-details", ${e}.bank_details as "bank-details", ` +
  `${e}.onsite_details as "onsite-details", ${e}.refund_policy as "refund-policy", ${ts(`${e}.schedule_published_on`, 'schedule-published-on')}, ` +
  `${e}.has_owner_info as "has-owner-info", ${e}.owner_name as "owner-name", ${e}.owner_description as "owner-description", ` +
  `${e}.chat_room_name as "chat-room-name", ${ts(`${e}.created_at`, 'created-at')}, ${ts(`${e}.deleted_at`, 'deleted-at')}`;

/** An event's resource object; `data` adds linkage of loaded to-many and foreign-key to-one relationships. */
function eventObject(e: string, data: Record<string, string> = {}): string {
  const live = (table: string, column: string) =>
    `select x.id from ${table} x where x.id = ${e}.${column} and x.deleted_at is null`;
  const stored: Record<string, string> = {
    'event-topic': linkOne('event-topic', live('event_topics', 'event_topic_id')),
    'event-type': linkOne('event-type', live('event_types', 'event_type_id')),
    'event-sub-topic': linkOne('event-sub-topic', live('event_sub_topics', 'event_sub_topic_id')),
    group: linkOne('group', live('groups', 'group_id')),
    owner: linkOne('user', live('users', 'owner_id')),
  };
  const names = [
    'event-topic',
    'event-type',
    'event-sub-topic',
    'event-copyright',
    'video-stream',
    'group',
    'social-links',
    'microlocations',
    'sponsors',
    'tracks',
    'session-types',
    'sessions',
    'speakers',
    'custom-forms',
    'orders',
    'tickets',
    'tax',
    'speakers-call',
    'stripe-authorization',
    'attendees',
    'owner',
    'speaker-invites',
    'session-favourites',
    'organizers',
    'coorganizers',
    'track-organizers',
    'registrars',
    'moderators',
    'roles',
    'role-invites',
  ];
  return resource(
    'event',
    'events',
    `${e}.id`,
    attributes(EVENT_COLUMNS(e)),
    names.map((name) => ({ name, data: data[name] ?? stored[name] })),
  );
}

const SPEAKER_COLUMNS = (sp: string, seesPrivate: boolean) =>
  `${sp}.name, ${seesPrivate ? `${sp}.email, ${sp}.mobile, ` : ''}${sp}.photo_url as "photo-url", ${sp}.thumbnail_image_url as "thumbnail-image-url", ` +
  `${sp}.small_image_url as "small-image-url", ${sp}.icon_image_url as "icon-image-url", ${sp}.short_biography as "short-biography", ` +
  `${sp}.long_biography as "long-biography", ${sp}.speaking_experience as "speaking-experience", ${sp}.website, ${sp}.twitter, ${sp}.facebook, ` +
  `${sp}.github, ${sp}.linkedin, ${sp}.instagram, ${sp}.mastodon, ${sp}.organisation, ${sp}.is_featured as "is-featured", ${sp}.position, ` +
  `${sp}.country, ${sp}.city, ${sp}.gender, ${sp}.heard_from as "heard-from", ${sp}.sponsorship_required as "sponsorship-required", ` +
  `${sp}.location, ${sp}.order, ${sp}.is_email_overridden as "is-email-overridden", ${sp}.complex_field_values as "complex-field-values", ` +
  `${sp}.speaker_positions as "speaker-positions", ${ts(`${sp}.created_at`, 'created-at')}, ${ts(`${sp}.deleted_at`, 'deleted-at')}`;

/**
 * A speaker's resource object (`sp` is visible to the caller, so its event is: the event's linkage is its
 * column). Email and mobile only where the caller sees them (src/resources/speakers/policy.ts).
 */
function speakerObject(caller: Caller | null, p: Params, sp: string): string {
  const sees = !caller
    ? 'false'
    : isStaff(caller)
      ? 'true'
      : `(${sp}.user_id = ${p.add('caller', caller.id, 'int')} or ${inManagedEvent(caller, p, `${sp}.event_id`)})`;
  const attrs =
    sees === 'true' || sees === 'false'
      ? attributes(SPEAKER_COLUMNS(sp, sees === 'true'))
      : `case when ${sees} then ${attributes(SPEAKER_COLUMNS(sp, true))} else ${attributes(SPEAKER_COLUMNS(sp, false))} end`;
  return resource('speaker', 'speakers', `${sp}.id`, attrs, [
    { name: 'event', data: linkOne('event', `${sp}.event_id`) },
    {
      name: 'user',
      data: linkOne('user', `select u.id from users u where u.id = ${sp}.user_id and u.deleted_at is null`),
    },
    { name: 'sessions' },
  ]);
}

/** Sessions (alias `s`, of a visible event) the caller sees: src/resources/sessions/policy.ts. */
function sessionVisible(caller: Caller | null, p: Params, s: string): string {
  if (isStaff(caller)) return 'true';
  const publicState = `${s}.state in ('accepted', 'confirmed')`;
  if (!caller) return publicState;
  const me = p.add('caller', caller.id, 'int');
  // The caller's address counts once it is verified (a speaker or an invitation naming it), as in the policy.
  const email = caller.isVerified ? p.add('email', caller.email.trim().toLowerCase(), 'text') : undefined;
  const byAddress = email ? ` or lower(x.email) = ${email}` : '';
  const invited = email
    ? `or ${s}.id in (select i.session_id from speaker_invites i where i.status = 'pending' and lower(i.email) = ${email}) `
    : '';
  return (
    `(${publicState} or ${s}.creator_id = ${me} ` +
    `or ${s}.id in (select ss.session_id from speakers_sessions ss join speakers x on x.id = ss.speaker_id where (x.user_id = ${me}${byAddress}) and x.deleted_at is null) ` +
    invited +
    `or ${inManagedEvent(caller, p, `${s}.event_id`)})`
  );
}

/**
 * A page request: `page[size]` and `page[number]`, and the links' query string (the other parameters
 * first, `page[number]=` last); `prefix` is the SQL of a top-level list's links before the number.
 */
function pageOf(request: FastifyRequest, allowed: string[]) {
  const query = request.query as Record<string, string | undefined>;
  for (const key of Object.keys(query)) {
    if (!['page[size]', 'page[number]', ...allowed].includes(key))
      throw badRequest(`The baseline does not serve ${key}`, key);
  }
  const whole = (key: string, fallback: number, min: number) => {
    const raw = query[key];
    const n = raw === undefined ? fallback : Number(raw);
    if (!Number.isInteger(n) || n < min || n > 100_000) throw badRequest(`${key} must be an integer >= ${min}`, key);
    return n;
  };
  const size = whole('page[size]', 20, 1);
  const number = whole('page[number]', 1, 1);
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query))
    if (v !== undefined && k !== 'page[size]' && k !== 'page[number]') params.set(k, v);
  params.set('page[size]', String(size));
  params.set('page[number]', '');
  const path = `/v1${request.url.split('?')[0]!.slice('/bench/baseline'.length)}`;
  return {
    size,
    number,
    query: params.toString(),
    prefix: (p: Params) => p.add('prefix', `${path}?${params.toString()}`, 'text'),
  };
}

/** The links' prefix of an event's related list: the service names the event by its id, however the path named it. */
const relatedPrefix = (p: Params, name: string, query: string) =>
  `'/v1/events/' || ev.id || '/${name}?' || ${p.add('query', query, 'text')}`;

/** The relationships `include` names, each one of `allowed`, in the order given. */
function includeOf(request: FastifyRequest, allowed: string[]): string[] {
  const raw = (request.query as { include?: string }).include;
  const names = raw === undefined || raw === '' ? [] : [...new Set(raw.split(','))];
  for (const name of names)
    if (!allowed.includes(name)) throw badRequest(`The baseline does not include ${name}`, 'include');
  return names;
}

/** The path's event: by id, or by identifier for anything that is not a number. */
function eventKey(p: Params, raw: string, e: string): string {
  if (raw.includes('\0')) throw notFound();
  return /^\d+$/.test(raw) && raw.length < 10
    ? `${e}.id = ${p.add('event', Number(raw), 'int')}`
    : `${e}.identifier = ${p.add('event', raw, 'text')}`;
}

export default async function benchRoutes(
  app: FastifyInstance,
  { loginLimits }: { loginLimits: LoginLimits; listAllMax: number },
) {
  // Both the peer and, behind TRUST_PROXY, the client it speaks for; to others as if there were no route.
  app.addHook('onRequest', async (request) => {
    if (!isLoopback(request.socket.remoteAddress) || !isLoopback(request.ip)) {
      throw notFound(`No route for ${request.method} ${request.url.split('?')[0]}`);
    }
  });

  /** The service's authentication: the token's account (1 statement with a token, none without). */
  const callerOf = async (request: FastifyRequest) => {
    await app.authenticate(request);
    return request.caller;
  };
  /** Runs the one statement and relays the document it built; no row is a 404. */
  const answer = async (reply: FastifyReply, statement: string, p: Params) => {
    const [row] = await app.sql.unsafe<{ doc: string }[]>(statement, p.values as never[], { prepare: true });
    if (!row) throw notFound();
    return reply.type(MEDIA_TYPE).send(row.doc);
  };

  // GET /v1/users?sort=-created-at: administrators only; every live account, with the role flags of src/resources/users/index.ts.
  app.get('/bench/baseline/users', { schema: { hide: true } }, async (request, reply) => {
    const caller = await callerOf(request);
    if (!caller) throw unauthorized();
    if (!isStaff(caller)) throw forbidden('Admin access is required');
    const sort = (request.query as { sort?: string }).sort;
    if (sort !== undefined && sort !== '-created-at')
      throw badRequest('The baseline sorts by -created-at only', 'sort');
    const { size, number, prefix } = pageOf(request, ['sort']);
    const p = new Params();
    const order = sort ? 'u.created_at desc, u.id desc' : 'u.id';
    const flag = (role: string, wire: string) => `coalesce('${role}' = any(u.roles), false) as "${wire}"`;
    const columns =
      'u.email, u.name, u.first_name as "first-name", u.last_name as "last-name", u.details, u.contact, u.avatar_url as "avatar-url", ' +
      'u.facebook_url as "facebook-url", u.twitter_url as "twitter-url", u.instagram_url as "instagram-url", u.google_plus_url as "google-plus-url", ' +
      'u.original_image_url as "original-image-url", u.thumbnail_image_url as "thumbnail-image-url", u.small_image_url as "small-image-url", ' +
      'u.icon_image_url as "icon-image-url", u.is_admin as "is-admin", u.is_super_admin as "is-super-admin", u.is_verified as "is-verified", ' +
      'u.public_name as "public-name", u.was_registered_with_order as "was-registered-with-order", u.language_prefrence as "language-prefrence", ' +
      'u.company, u.billing_contact_name as "billing-contact-name", u.billing_phone as "billing-phone", u.billing_country as "billing-country", ' +
      'u.billing_state as "billing-state", u.billing_city as "billing-city", u.billing_address as "billing-address", ' +
      'u.billing_zip_code as "billing-zip-code", u.billing_tax_info as "billing-tax-info", u.billing_additional_info as "billing-additional-info", ' +
      'u.is_profile_public as "is-profile-public", u.is_blocked as "is-blocked", u.is_sales_admin as "is-sales-admin", u.is_marketer as "is-marketer", ' +
      `${ts('u.last_login_at', 'last-accessed-at')}, ${flag('owner', 'is-user-owner')}, ${flag('organizer', 'is-user-organizer')}, ` +
      `${flag('coorganizer', 'is-user-coorganizer')}, ${flag('track_organizer', 'is-user-track-organizer')}, ${flag('moderator', 'is-user-moderator')}, ` +
      `${flag('registrar', 'is-user-registrar')}, ${ts('u.created_at', 'created-at')}, ${ts('u.deleted_at', 'deleted-at')}`;
    const rels = [
      'speakers',
      'sessions',
      'orders',
      'notifications',
      'events',
      'owner-events',
      'feedbacks',
      'favourites',
      'groups',
      'followed-groups',
      'organizer-events',
      'coorganizer-events',
      'track-organizer-events',
      'registrar-events',
      'moderator-events',
      'marketer-events',
      'sales-admin-events',
    ].map((name) => ({ name }));
    const statement =
      `with page as (select u.*, (select array_agg(r.role) from event_roles r join events e on e.id = r.event_id and e.deleted_at is null ` +
      `where r.user_id = u.id) as roles from users u where u.deleted_at is null order by ${order} ` +
      `limit ${p.add('size', size, 'int')} offset ${p.add('offset', (number - 1) * size, 'int')}), ` +
      `n as (select count(*)::int as count from users where deleted_at is null) ` +
      `select format('{"data":[%s],%s,${JSONAPI}}', ${array(resource('user', 'users', 'u.id', attributes(columns), rels), 'page u', order)}, ` +
      `${listTail(p, prefix(p), size, number, 'n.count')}) as doc from n`;
    return answer(reply, statement, p);
  });

  // GET /v1/events: the live events the caller sees.
  app.get('/bench/baseline/events', { schema: { hide: true } }, async (request, reply) => {
    const caller = await callerOf(request);
    const { size, number, prefix } = pageOf(request, []);
    const p = new Params();
    const where = `e.deleted_at is null and ${eventVisible(caller, p, 'e')}`;
    const statement =
      `with page as (select e.* from events e where ${where} order by e.id ` +
      `limit ${p.add('size', size, 'int')} offset ${p.add('offset', (number - 1) * size, 'int')}), ` +
      `n as (select count(*)::int as count from events e where ${where}) ` +
      `select format('{"data":[%s],%s,${JSONAPI}}', ${array(eventObject('e'), 'page e', 'e.id')}, ` +
      `${listTail(p, prefix(p), size, number, 'n.count')}) as doc from n`;
    return answer(reply, statement, p);
  });

  // GET /v1/events/{id}?include=social-links,event-copyright: the event if the caller sees it; its live links and copyright.
  app.get('/bench/baseline/events/:id', { schema: { hide: true } }, async (request, reply) => {
    const caller = await callerOf(request);
    const include = includeOf(request, ['social-links', 'event-copyright']);
    for (const key of Object.keys(request.query as object))
      if (key !== 'include') throw badRequest(`The baseline does not serve ${key}`, key);
    const p = new Params();
    // The event is live and visible, so its records' event linkage is their column, and their scope (inVisibleEvent) holds.
    const copyright = (c: string) =>
      resource(
        'event-copyright',
        'event-copyrights',
        `${c}.id`,
        attributes(
          `${c}.holder, ${c}.holder_url as "holder-url", ${c}.licence, ${c}.licence_url as "licence-url", ${c}.year, ${c}.logo_url as "logo-url", ${ts(`${c}.deleted_at`, 'deleted-at')}`,
        ),
        [{ name: 'event', data: linkOne('event', `${c}.event_id`) }],
      );
    const link = (l: string) =>
      resource(
        'social-link',
        'social-links',
        `${l}.id`,
        attributes(`${l}.name, ${l}.link, ${l}.identifier, ${ts(`${l}.deleted_at`, 'deleted-at')}`),
        [{ name: 'event', data: linkOne('event', `${l}.event_id`) }],
      );
    const links = 'social_links l where l.event_id = e.id and l.deleted_at is null';
    const copyrights = 'event_copyrights c where c.event_id = e.id and c.deleted_at is null';
    const data: Record<string, string> = {};
    const included: string[] = [];
    if (include.includes('social-links')) {
      data['social-links'] =
        `coalesce((select '[' || string_agg('{"type":"social-link","id":"' || l.id || '"}', ',' order by l.id) || ']' from ${links}), '[]')`;
    }
    if (include.includes('event-copyright')) {
      data['event-copyright'] = linkOne('event-copyright', `select c.id from ${copyrights} order by c.id limit 1`);
    }
    for (const name of include) {
      included.push(
        name === 'social-links'
          ? `(select string_agg(${link('l')}, ',' order by l.id) from ${links})`
          : `(select string_agg(${copyright('c')}, ',' order by c.id) from ${copyrights})`,
      );
    }
    // Texts go in as format() arguments, never into its template (a % in a value would be read as a placeholder).
    const statement =
      `select format('{"data":%s${include.length ? ',"included":[%s]' : ''},"links":{"self":"/v1/events/%s"},${JSONAPI}}', ${eventObject('e', data)}, ` +
      `${include.length ? `concat_ws(',', ${included.join(', ')}), ` : ''}e.id) as doc ` +
      `from events e where ${eventKey(p, (request.params as { id: string }).id, 'e')} and e.deleted_at is null and ${eventVisible(caller, p, 'e')}`;
    return answer(reply, statement, p);
  });

  // GET /v1/events/{id}/sessions?include=speakers,track,microlocation: the sessions of the event the caller sees.
  app.get('/bench/baseline/events/:id/sessions', { schema: { hide: true } }, async (request, reply) => {
    const caller = await callerOf(request);
    const include = includeOf(request, ['speakers', 'track', 'microlocation']);
    const { size, number, query } = pageOf(request, ['include']);
    const p = new Params();
    const ve = visibleEvents(caller, p);
    // Linkage of the to-one relationships: the target when it is live and its event visible (selectionFor).
    const linked = (table: string, column: string) =>
      `(select x.id from ${table} x where x.id = s.${column} and x.deleted_at is null and x.event_id in ${ve})`;
    const where = `s.event_id = (select id from ev) and s.deleted_at is null and ${sessionVisible(caller, p, 's')}`;
    const session = resource(
      'session',
      'sessions',
      's.id',
      attributes(
        `s.title, s.subtitle, s.level, s.short_abstract as "short-abstract", s.long_abstract as "long-abstract", s.comments, ` +
          `${ts('s.starts_at', 'starts-at')}, ${ts('s.ends_at', 'ends-at')}, s.language, s.slides_url as "slides-url", s.video_url as "video-url", ` +
          `s.audio_url as "audio-url", s.signup_url as "signup-url", s.slides, s.website, s.twitter, s.facebook, s.github, s.gitlab, s.linkedin, ` +
          `s.instagram, s.mastodon, s.complex_field_values as "complex-field-values", s.send_email as "send-email", s.is_locked as "is-locked", ` +
          `s.is_mail_sent as "is-mail-sent", s.state, ${ts('s.submitted_at', 'submitted-at')}, ${ts('s.created_at', 'created-at')}, ` +
          `${ts('s.last_modified_at', 'last-modified-at')}, ${ts('s.deleted_at', 'deleted-at')}, s.average_rating as "average-rating", ` +
          's.favourite_count as "favourite-count"',
      ),
      [
        { name: 'event', data: linkOne('event', 's.event_id') },
        { name: 'track', data: linkOne('track', 's.track_link') },
        { name: 'microlocation', data: linkOne('microlocation', 's.room_link') },
        { name: 'session-type', data: linkOne('session-type', 's.type_link') },
        {
          name: 'speakers',
          ...(include.includes('speakers')
            ? {
                data: `coalesce((select '[' || string_agg('{"type":"speaker","id":"' || k.id || '"}', ',' order by k.id) || ']' from spk k where k.session_id = s.id), '[]')`,
              }
            : {}),
        },
        { name: 'creator', data: linkOne('user', 's.creator_link') },
        { name: 'feedbacks' },
        { name: 'favourite' },
        { name: 'favourites' },
        { name: 'speaker-invites' },
      ],
    );
    const track = resource(
      'track',
      'tracks',
      't.id',
      attributes(
        `t.name, t.color, t.font_color as "font-color", t.description, t.position, ${ts('t.deleted_at', 'deleted-at')}`,
      ),
      [{ name: 'event', data: linkOne('event', 't.event_id') }, { name: 'sessions' }],
    );
    const room = resource(
      'microlocation',
      'microlocations',
      'm.id',
      attributes(
        'm.name, m.latitude, m.longitude, m.floor, m.room, m.position, m.hidden_in_scheduler as "hidden-in-scheduler", ' +
          `m.is_chat_enabled as "is-chat-enabled", m.is_global_event_room as "is-global-event-room", ${ts('m.deleted_at', 'deleted-at')}`,
      ),
      [
        { name: 'event', data: linkOne('event', 'm.event_id') },
        { name: 'sessions' },
        {
          name: 'video-stream',
          data: linkOne(
            'video-stream',
            `select v.id from video_streams v where v.id = m.video_stream_id and v.owner_event_id in ${ve}`,
          ),
        },
      ],
    );
    const parts: Record<string, string> = {
      speakers: `(select string_agg(${speakerObject(caller, p, 'sp')}, ',' order by sp.id) from speakers sp where sp.id in (select id from spk))`,
      track: `(select string_agg(${track}, ',' order by t.id) from tracks t where t.id in (select track_link from page))`,
      microlocation: `(select string_agg(${room}, ',' order by m.id) from microlocations m where m.id in (select room_link from page))`,
    };
    const included = include.length ? `concat_ws(',', ${include.map((name) => parts[name]).join(', ')}), ` : '';
    const statement =
      `with ev as (select e.id from events e where ${eventKey(p, (request.params as { id: string }).id, 'e')} and e.deleted_at is null and ${eventVisible(caller, p, 'e')}), ` +
      `page as (select s.*, ${linked('tracks', 'track_id')} as track_link, ${linked('microlocations', 'microlocation_id')} as room_link, ` +
      `${linked('session_types', 'session_type_id')} as type_link, ` +
      '(select u.id from users u where u.id = s.creator_id and u.deleted_at is null) as creator_link ' +
      `from sessions s where ${where} order by s.id limit ${p.add('size', size, 'int')} offset ${p.add('offset', (number - 1) * size, 'int')}), ` +
      (include.includes('speakers')
        ? `spk as (select ss.session_id, x.id from speakers_sessions ss join speakers x on x.id = ss.speaker_id ` +
          `where ss.session_id in (select id from page) and x.deleted_at is null and x.event_id in ${ve}), `
        : '') +
      `n as (select count(*)::int as count from sessions s where ${where}) ` +
      `select format('{"data":[%s]${included ? ',"included":[%s]' : ''},%s,${JSONAPI}}', ${array(session, 'page s', 's.id')}, ${included}${listTail(p, relatedPrefix(p, 'sessions', query), size, number, 'n.count')}) as doc ` +
      'from ev, n';
    return answer(reply, statement, p);
  });

  // GET /v1/events/{id}/speakers: the live speakers of the event the caller sees.
  app.get('/bench/baseline/events/:id/speakers', { schema: { hide: true } }, async (request, reply) => {
    const caller = await callerOf(request);
    const { size, number, query } = pageOf(request, []);
    const p = new Params();
    const where = 'sp.event_id = (select id from ev) and sp.deleted_at is null';
    const statement =
      `with ev as (select e.id from events e where ${eventKey(p, (request.params as { id: string }).id, 'e')} and e.deleted_at is null and ${eventVisible(caller, p, 'e')}), ` +
      `page as (select sp.* from speakers sp where ${where} order by sp.id limit ${p.add('size', size, 'int')} offset ${p.add('offset', (number - 1) * size, 'int')}), ` +
      `n as (select count(*)::int as count from speakers sp where ${where}) ` +
      `select format('{"data":[%s],%s,${JSONAPI}}', ${array(speakerObject(caller, p, 'sp'), 'page sp', 'sp.id')}, ${listTail(p, relatedPrefix(p, 'speakers', query), size, number, 'n.count')}) as doc ` +
      'from ev, n';
    return answer(reply, statement, p);
  });

  // GET /v1/events/{id}/custom-forms: signed-in callers only; the forms of the event they see.
  app.get('/bench/baseline/events/:id/custom-forms', { schema: { hide: true } }, async (request, reply) => {
    const caller = await callerOf(request);
    const { size, number, query } = pageOf(request, []);
    const p = new Params();
    const event = `${eventKey(p, (request.params as { id: string }).id, 'e')} and e.deleted_at is null and ${eventVisible(caller, p, 'e')}`;
    if (!caller) {
      // As the service: an event the caller cannot see is 404 before the forms ask for a login.
      const [found] = await app.sql.unsafe(`select 1 from events e where ${event}`, p.values as never[], {
        prepare: true,
      });
      throw found ? unauthorized() : notFound();
    }
    const where = 'f.event_id = (select id from ev)';
    const form = resource(
      'custom_form',
      'custom-forms',
      'f.id',
      attributes(
        'f.form, f.field_identifier as "field-identifier", f.type, f.name, f.description, f.is_required as "is-required", ' +
          'f.is_included as "is-included", f.is_fixed as "is-fixed", f.is_public as "is-public", f.position, f.is_complex as "is-complex", ' +
          'f.is_allow_edit as "is-allow-edit", f.form_id as "form-id", f.min, f.max, f.translations, f.main_language as "main-language"',
      ),
      [{ name: 'event', data: linkOne('event', 'f.event_id') }],
    );
    const statement =
      `with ev as (select e.id from events e where ${event}), ` +
      `page as (select f.* from custom_forms f where ${where} order by f.id limit ${p.add('size', size, 'int')} offset ${p.add('offset', (number - 1) * size, 'int')}), ` +
      `n as (select count(*)::int as count from custom_forms f where ${where}) ` +
      `select format('{"data":[%s],%s,${JSONAPI}}', ${array(form, 'page f', 'f.id')}, ${listTail(p, relatedPrefix(p, 'custom-forms', query), size, number, 'n.count')}) as doc from ev, n`;
    return answer(reply, statement, p);
  });

  // GET /v1/pages: every page, for everyone.
  app.get('/bench/baseline/pages', { schema: { hide: true } }, async (request, reply) => {
    await callerOf(request);
    const { size, number, prefix } = pageOf(request, []);
    const p = new Params();
    const page = resource(
      'page',
      'pages',
      'x.id',
      attributes('x.name, x.title, x.url, x.description, x.language, x.index, x.place'),
      [],
    );
    const statement =
      `with page as (select x.* from pages x order by x.id limit ${p.add('size', size, 'int')} offset ${p.add('offset', (number - 1) * size, 'int')}), ` +
      'n as (select count(*)::int as count from pages) ' +
      `select format('{"data":[%s],%s,${JSONAPI}}', ${array(page, 'page x', 'x.id')}, ${listTail(p, prefix(p), size, number, 'n.count')}) as doc from n`;
    return answer(reply, statement, p);
  });

  // GET /v1/settings/1: the limited variant for everyone, the full one (secrets and all) for administrators.
  app.get('/bench/baseline/settings/:id', { schema: { hide: true } }, async (request, reply) => {
    const caller = await callerOf(request);
    const p = new Params();
    const statement =
      `select format('{"data":{"type":"setting","id":"1","attributes":%s,"links":{"self":"/v1/settings/1"}},"links":{"self":"/v1/settings/1"},${JSONAPI}}', ` +
      `${attributes(isStaff(caller) ? `${SETTINGS_PUBLIC}, ${SETTINGS_ADMIN}` : SETTINGS_PUBLIC)}) as doc from settings x where x.id = 1`;
    return answer(reply, statement, p);
  });

  // Login without the token: the same limiter, select and password hash, so the ratio shows what else login costs.
  app.post('/bench/baseline/login', { schema: { hide: true } }, async (request) => {
    const { email, password } = request.body as { email: string; password: string };
    return { verified: (await checkLogin(app, loginLimits, { email, password, ip: request.ip })) !== null };
  });
}

/** src/site/settings/fields.ts: PUBLIC_FIELDS, then ADMIN_FIELDS (the aws-* names are aliases of s3-* columns). */
const SETTINGS_PUBLIC =
  'x.app_name as "app-name", x.tagline, x.frontend_url as "frontend-url", x.support_url as "support-url", x.facebook_url as "facebook-url", ' +
  'x.twitter_url as "twitter-url", x.instagram_url as "instagram-url", x.github_url as "github-url", x.youtube_url as "youtube-url", ' +
  'x.order_expiry_time as "order-expiry-time", x.start_pg_enabled as "start-pg-enabled", ' +
  'x.start_pg_event_id as "start-pg-event-id", x.analytics_key as "analytics-key", x.fb_client_id as "fb-client-id", x.google_url as "google-url", ' +
  'x.weblate_url as "weblate-url", x.patreon_url as "patreon-url", x.gitter_url as "gitter-url", x.telegram_url as "telegram-url", ' +
  'x.android_app_url as "android-app-url", x.web_app_url as "web-app-url", x.rocket_chat_url as "rocket-chat-url", x.cookie_policy as "cookie-policy", ' +
  'x.cookie_policy_link as "cookie-policy-link", x.is_paypal_activated as "is-paypal-activated", x.is_stripe_activated as "is-stripe-activated", ' +
  'x.is_omise_activated as "is-omise-activated", x.is_paytm_activated as "is-paytm-activated", x.is_alipay_activated as "is-alipay-activated", ' +
  'x.is_billing_paypal_activated as "is-billing-paypal-activated", x.stripe_mode as "stripe-mode", x.stripe_client_id as "stripe-client-id", ' +
  'x.stripe_publishable_key as "stripe-publishable-key", x.stripe_test_client_id as "stripe-test-client-id", ' +
  'x.stripe_test_publishable_key as "stripe-test-publishable-key", x.paypal_mode as "paypal-mode", x.paypal_client as "paypal-client", ' +
  'x.paypal_sandbox_client as "paypal-sandbox-client", x.omise_mode as "omise-mode", x.omise_test_public as "omise-test-public", ' +
  'x.omise_live_public as "omise-live-public", x.alipay_publishable_key as "alipay-publishable-key", x.paytm_mode as "paytm-mode", ' +
  'x.paytm_live_merchant as "paytm-live-merchant", x.paytm_sandbox_merchant as "paytm-sandbox-merchant", ' +
  'x.admin_billing_contact_name as "admin-billing-contact-name", x.admin_billing_phone as "admin-billing-phone", ' +
  'x.admin_billing_email as "admin-billing-email", x.admin_billing_state as "admin-billing-state", x.admin_billing_country as "admin-billing-country", ' +
  'x.admin_billing_tax_info as "admin-billing-tax-info", x.admin_company as "admin-company", x.admin_billing_address as "admin-billing-address", ' +
  'x.admin_billing_city as "admin-billing-city", x.admin_billing_zip as "admin-billing-zip", ' +
  'x.admin_billing_additional_info as "admin-billing-additional-info", x.admin_billing_logo as "admin-billing-logo", x.logo_size as "logo-size", ' +
  'x.image_size as "image-size", x.slide_size as "slide-size"';
const SETTINGS_ADMIN =
  'x.storage_place as "storage-place", x.s3_endpoint as "s3-endpoint", x.s3_bucket as "s3-bucket", x.s3_region as "s3-region", ' +
  'x.s3_access_key as "s3-access-key", x.s3_secret_key as "s3-secret-key", x.email_service as "email-service", x.email_from as "email-from", ' +
  'x.email_from_name as "email-from-name", x.smtp_host as "smtp-host", x.smtp_port as "smtp-port", x.smtp_username as "smtp-username", ' +
  'x.smtp_password as "smtp-password", x.smtp_encryption as "smtp-encryption", x.app_environment as "app-environment", ' +
  'x.static_domain as "static-domain", x.gs_bucket_name as "gs-bucket-name", x.gs_key as "gs-key", x.gs_secret as "gs-secret", ' +
  'x.google_client_id as "google-client-id", x.google_client_secret as "google-client-secret", x.fb_client_secret as "fb-client-secret", ' +
  'x.tw_consumer_key as "tw-consumer-key", x.tw_consumer_secret as "tw-consumer-secret", x.in_client_id as "in-client-id", ' +
  'x.in_client_secret as "in-client-secret", x.stripe_secret_key as "stripe-secret-key", x.stripe_test_secret_key as "stripe-test-secret-key", ' +
  'x.paypal_secret as "paypal-secret", x.paypal_sandbox_secret as "paypal-sandbox-secret", x.omise_test_secret as "omise-test-secret", ' +
  'x.omise_live_secret as "omise-live-secret", x.alipay_secret_key as "alipay-secret-key", x.paytm_live_secret as "paytm-live-secret", ' +
  'x.paytm_sandbox_secret as "paytm-sandbox-secret", x.sendgrid_key as "sendgrid-key", ' +
  'x.rocket_chat_registration_secret as "rocket-chat-registration-secret", x.is_google_recaptcha_enabled as "is-google-recaptcha-enabled", ' +
  'x.google_recaptcha_site as "google-recaptcha-site", x.google_recaptcha_secret as "google-recaptcha-secret", ' +
  'x.invoice_sending_day as "invoice-sending-day", x.invoice_sending_timezone as "invoice-sending-timezone", ' +
  'x.admin_billing_paypal_email as "admin-billing-paypal-email", x.s3_access_key as "aws-key", x.s3_secret_key as "aws-secret", ' +
  'x.s3_bucket as "aws-bucket-name", x.s3_region as "aws-region"';
