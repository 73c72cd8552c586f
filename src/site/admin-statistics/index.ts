import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { and, count, countDistinct, eq, gte, isNull, sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import {
  eventRoles,
  events,
  groups,
  mails,
  orders,
  sessions,
  userFollowGroups,
  users,
} from '../../../db/schema/index.js';
import { requirePanel } from '../../auth/panels.js';
import {
  API_PREFIX,
  badRequest,
  compatibilityParameters,
  jsonapiMember as jsonapi,
  notFound,
  operation,
} from '../../jsonapi/index.js';

const TAG = 'Admin statistics';

/**
 * The client asks for the one record with `filter=[{"name":"id","op":"eq","val":1}]`, or, as the Open Event
 * front end does (`app/routes/admin/index.js`), with `filterOptions[name]=id&filterOptions[op]=eq&filterOptions[val]=1`;
 * a plain GET is the same.
 */
const StatisticsQuery = Type.Object(
  {
    ...compatibilityParameters,
    filter: Type.Optional(Type.String({ maxLength: 1000, description: 'optional: [{"name":"id","op":"eq","val":1}]' })),
    'filterOptions[name]': Type.Optional(
      Type.String({ maxLength: 64, description: 'optional, with op and val: `id`' }),
    ),
    'filterOptions[op]': Type.Optional(Type.String({ maxLength: 64, description: 'optional: `eq`' })),
    'filterOptions[val]': Type.Optional(Type.String({ maxLength: 64, description: 'optional: `1`' })),
  },
  { additionalProperties: false },
);
type StatisticsQuery = Static<typeof StatisticsQuery>;

/** The conditions a query names: those of `filter`, and the one `filterOptions[...]` spells out. */
function conditionsOf(query: StatisticsQuery): unknown[] {
  const options = [query['filterOptions[name]'], query['filterOptions[op]'], query['filterOptions[val]']];
  const spelled = options.some((o) => o !== undefined) ? [{ name: options[0], op: options[1], val: options[2] }] : [];
  if (query.filter === undefined) return spelled;
  let parsed: unknown;
  try {
    parsed = JSON.parse(query.filter);
  } catch {
    throw badRequest('Invalid filter: not JSON', 'filter');
  }
  return [...(Array.isArray(parsed) ? parsed : [parsed]), ...spelled];
}

/** 400 for anything but id conditions; 404 when they name another record than "1". */
function checkFilter(query: StatisticsQuery) {
  for (const entry of conditionsOf(query)) {
    const { name, op, val } = (entry ?? {}) as Record<string, unknown>;
    if (name !== 'id' || op !== 'eq' || (typeof val !== 'number' && typeof val !== 'string')) {
      throw badRequest(
        'Invalid filter: only [{"name":"id","op":"eq","val":1}] is supported here',
        query.filter === undefined ? 'filterOptions' : 'filter',
      );
    }
    if (String(val) !== '1') throw notFound();
  }
}

const counts = (names: string[], description: (name: string) => string) =>
  Type.Object(Object.fromEntries(names.map((n) => [n, Type.Integer({ minimum: 0, description: description(n) })])), {
    additionalProperties: false,
  });

interface Statistic {
  path: string;
  type: string;
  name: string;
  summary: string;
  attributes: TSchema;
  compute(app: FastifyInstance): Promise<Record<string, number>>;
}

const USER_COUNT_DESCRIPTIONS: Record<string, string> = {
  'super-admin': 'super administrators',
  admin: 'administrators who are not super administrators',
  verified: 'other users who verified their e-mail address',
  unverified: 'other users who have not verified their e-mail address',
  owner: 'users who created a live event',
  organizer: 'users who organize a live event',
  coorganizer: 'users who coorganize a live event',
  attendee: 'distinct attendee e-mail addresses of the orders of live events',
  'track-organizer': 'users who are track organizers of a live event',
};
const USER_COUNTS = Object.keys(USER_COUNT_DESCRIPTIONS);

const WINDOWS: Record<string, number> = { 'one-day': 1, 'three-days': 3, 'seven-days': 7, 'thirty-days': 30 };
const STATES = ['confirmed', 'accepted', 'submitted', 'draft', 'rejected', 'pending'];

/** Distinct users holding `role` in live events. */
const holders = async (app: FastifyInstance, role: 'organizer' | 'coorganizer' | 'track_organizer') => {
  const [row] = await app.db
    .select({ n: countDistinct(eventRoles.userId) })
    .from(eventRoles)
    .innerJoin(events, and(eq(events.id, eventRoles.eventId), isNull(events.deletedAt)))
    .where(eq(eventRoles.role, role));
  return row!.n;
};

const statistics: Statistic[] = [
  {
    path: 'events',
    type: 'admin-statistics-event',
    name: 'AdminStatisticsEvent',
    summary: 'Events by state',
    attributes: counts(['draft', 'published', 'past'], (n) =>
      n === 'past' ? 'events that have ended' : `events in state ${n} that have not ended`,
    ),
    async compute(app) {
      const ended = sql`${events.endsAt} <= now()`;
      const [row] = await app.db
        .select({
          draft: sql<number>`count(*) filter (where not ${ended} and ${events.state} = 'draft')::int`,
          published: sql<number>`count(*) filter (where not ${ended} and ${events.state} = 'published')::int`,
          past: sql<number>`count(*) filter (where ${ended})::int`,
        })
        .from(events)
        .where(isNull(events.deletedAt));
      return row!;
    },
  },
  {
    path: 'users',
    type: 'admin-statistics-user',
    name: 'AdminStatisticsUser',
    summary: 'Users by rights and role',
    attributes: counts(USER_COUNTS, (n) => USER_COUNT_DESCRIPTIONS[n]!),
    async compute(app) {
      const live = isNull(events.deletedAt);
      const [[flags], [owners], organizer, coorganizer, trackOrganizers, [attendees]] = await Promise.all([
        app.db
          .select({
            superAdmin: sql<number>`count(*) filter (where ${users.isSuperAdmin})::int`,
            admin: sql<number>`count(*) filter (where ${users.isAdmin} and not ${users.isSuperAdmin})::int`,
            verified: sql<number>`count(*) filter (where not ${users.isAdmin} and not ${users.isSuperAdmin} and ${users.isVerified})::int`,
            unverified: sql<number>`count(*) filter (where not ${users.isAdmin} and not ${users.isSuperAdmin} and not ${users.isVerified})::int`,
          })
          .from(users)
          .where(isNull(users.deletedAt)),
        app.db
          .select({ n: countDistinct(events.ownerId) })
          .from(events)
          .where(live),
        holders(app, 'organizer'),
        holders(app, 'coorganizer'),
        holders(app, 'track_organizer'),
        app.db
          .select({ n: sql<number>`count(distinct lower(attendee->>'email'))::int` })
          .from(orders)
          .innerJoin(events, and(eq(events.id, orders.eventId), live))
          .crossJoinLateral(sql`jsonb_array_elements(${orders.attendees}) as attendee`)
          .where(isNull(orders.deletedAt)),
      ]);
      return {
        'super-admin': flags!.superAdmin,
        admin: flags!.admin,
        verified: flags!.verified,
        unverified: flags!.unverified,
        owner: owners!.n,
        organizer,
        coorganizer,
        attendee: attendees!.n,
        'track-organizer': trackOrganizers,
      };
    },
  },
  {
    path: 'groups',
    type: 'admin-statistics-group',
    name: 'AdminStatisticsGroup',
    summary: 'Groups, their follows and their events',
    attributes: counts(
      ['groups', 'followers', 'group-events'],
      (n) =>
        ({ groups: 'live groups', followers: 'follows of live groups', 'group-events': 'live events in a live group' })[
          n
        ]!,
    ),
    async compute(app) {
      const live = sql`(select ${groups.id} from ${groups} where ${groups.deletedAt} is null)`;
      const [row] = await app.db.execute<{ groups: number; followers: number; group_events: number }>(sql`select
        (select count(*)::int from ${groups} where ${groups.deletedAt} is null) as groups,
        (select count(*)::int from ${userFollowGroups} where ${userFollowGroups.groupId} in ${live}) as followers,
        (select count(*)::int from ${events} where ${events.deletedAt} is null and ${events.groupId} in ${live}) as group_events`);
      return { groups: row!.groups, followers: row!.followers, 'group-events': row!.group_events };
    },
  },
  {
    path: 'mails',
    type: 'admin-statistics-mail',
    name: 'AdminStatisticsMail',
    summary: 'Mails sent in the last 1, 3, 7 and 30 days',
    attributes: counts(Object.keys(WINDOWS), (n) => `mails sent in the last ${WINDOWS[n]} day(s)`),
    async compute(app) {
      const since = (days: number): SQL<number> =>
        sql<number>`count(*) filter (where ${mails.sentAt} >= now() - make_interval(days => ${days}))::int`;
      const [row] = await app.db
        .select(Object.fromEntries(Object.entries(WINDOWS).map(([n, d]) => [n, since(d)])))
        .from(mails)
        .where(and(eq(mails.status, 'sent'), gte(mails.sentAt, sql`now() - interval '30 days'`)));
      return row as Record<string, number>;
    },
  },
  {
    path: 'sessions',
    type: 'admin-statistics-session',
    name: 'AdminStatisticsSession',
    summary: 'Sessions by state',
    attributes: counts(STATES, (n) => `sessions in state ${n}`),
    async compute(app) {
      const rows = await app.db
        .select({ state: sessions.state, n: count() })
        .from(sessions)
        .innerJoin(events, and(eq(events.id, sessions.eventId), isNull(events.deletedAt)))
        .where(isNull(sessions.deletedAt))
        .groupBy(sessions.state);
      return Object.fromEntries(STATES.map((s) => [s, rows.find((r) => r.state === s)?.n ?? 0]));
    },
  },
];

/** `GET /v1/admin/statistics/{events,users,groups,mails,sessions}`: one resource each, id "1", for administrators. */
export default async function adminStatisticsRoutes(app: FastifyInstance) {
  for (const stat of statistics) {
    const self = `${API_PREFIX}/admin/statistics/${stat.path}`;
    const resource = Type.Object(
      {
        type: Type.Literal(stat.type),
        id: Type.Literal('1'),
        attributes: stat.attributes,
        links: Type.Ref('ResourceLinks'),
      },
      { $id: stat.name },
    );
    const document = Type.Object(
      { data: Type.Ref(resource), links: Type.Ref('ResourceLinks'), jsonapi: Type.Ref('JsonApiVersion') },
      { $id: `${stat.name}Document` },
    );
    app.addSchema(resource);
    app.addSchema(document);
    const options = operation({
      tag: TAG,
      operationId: `get${stat.name}`,
      summary: stat.summary,
      description:
        'Administrators and those the admin panel is open to. Counted when asked; `filter` may name the one record (id 1).',
      querystring: StatisticsQuery,
      success: { 200: Type.Ref(document, { description: stat.summary }) },
      errors: [400, 401, 403, 404, 406],
    });
    // Counts over the last days change with the clock, not only with the data: never kept.
    app.get(self, { ...options, config: { ...options.config, cache: false } }, async (request) => {
      requirePanel('admin')(request);
      checkFilter(request.query as StatisticsQuery);
      const attributes = await stat.compute(app);
      return { data: { type: stat.type, id: '1', attributes, links: { self } }, links: { self }, jsonapi };
    });
  }
}
