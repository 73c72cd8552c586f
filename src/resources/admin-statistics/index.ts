import { Type, type TSchema } from '@sinclair/typebox';
import { and, count, eq, gte, isNull, sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { events, mails, sessions } from '../../../db/schema/index.js';
import { requireStaff } from '../../auth/caller.js';
import { badRequest, notFound } from '../../jsonapi/errors.js';
import { operation } from '../../jsonapi/routes.js';
import { jsonapiMember as jsonapi } from '../../jsonapi/schemas.js';
import { API_PREFIX } from '../../jsonapi/serialize.js';

const TAG = 'Admin statistics';

/** The client asks for the one record with `filter=[{"name":"id","op":"eq","val":1}]`; a plain GET is the same. */
const StatisticsQuery = Type.Object(
  { filter: Type.Optional(Type.String({ maxLength: 1000, description: 'optional: [{"name":"id","op":"eq","val":1}]' })) },
  { additionalProperties: false },
);

/** 400 for anything but id conditions; 404 when they name another record than "1". */
function checkFilter(raw: string | undefined) {
  if (raw === undefined) return;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw badRequest('Invalid filter: not JSON', 'filter');
  }
  const entries = Array.isArray(parsed) ? parsed : [parsed];
  for (const entry of entries) {
    const { name, op, val } = (entry ?? {}) as Record<string, unknown>;
    if (name !== 'id' || op !== 'eq' || (typeof val !== 'number' && typeof val !== 'string')) {
      throw badRequest('Invalid filter: only [{"name":"id","op":"eq","val":1}] is supported here', 'filter');
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

const WINDOWS: Record<string, number> = { 'one-day': 1, 'three-days': 3, 'seven-days': 7, 'thirty-days': 30 };
const STATES = ['confirmed', 'accepted', 'submitted', 'draft', 'rejected', 'pending'];

const statistics: Statistic[] = [
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

/** `GET /v1/admin/statistics/{mails,sessions}`: one resource, id "1", for administrators. */
export default async function adminStatisticsRoutes(app: FastifyInstance) {
  for (const stat of statistics) {
    const self = `${API_PREFIX}/admin/statistics/${stat.path}`;
    const resource = Type.Object(
      { type: Type.Literal(stat.type), id: Type.Literal('1'), attributes: stat.attributes, links: Type.Ref('ResourceLinks') },
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
      description: 'Administrators only. Counted when asked; `filter` may name the one record (id 1).',
      querystring: StatisticsQuery,
      success: { 200: Type.Ref(document, { description: stat.summary }) },
      errors: [400, 401, 403, 404, 406],
    });
    // Counts over the last days change with the clock, not only with the data: never kept.
    app.get(self, { ...options, config: { ...options.config, cache: false } }, async (request) => {
      requireStaff(request);
      checkFilter((request.query as { filter?: string }).filter);
      const attributes = await stat.compute(app);
      return { data: { type: stat.type, id: '1', attributes, links: { self } }, links: { self }, jsonapi };
    });
  }
}
