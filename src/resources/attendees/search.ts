import { Type, type Static } from '@sinclair/typebox';
import { and, desc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { attendees, tickets } from '../../../db/schema/index.js';
import { requireLogin } from '../../auth/caller.js';
import { API_PREFIX, compatibilityParameters, errorResponses, hasNul, type Columns } from '../../jsonapi/index.js';
import { doorEventOf } from '../events/access.js';
import { holderPdfUrl } from '../orders/documents/urls.js';

const text = Type.Union([Type.String(), Type.Null()]);
const flag = Type.Boolean();

/** A found ticket holder: the members of the reference's answer (dasherized), its id and its ticket's identifier. */
const FoundAttendee = Type.Object(
  {
    id: Type.String(),
    identifier: Type.String({ description: "the ticket's identifier (its QR code)" }),
    'ticket-id': text,
    firstname: text,
    lastname: text,
    email: text,
    address: text,
    city: text,
    state: text,
    country: text,
    'job-title': text,
    phone: text,
    company: text,
    gender: text,
    'birth-date': text,
    'tax-business-info': text,
    'billing-address': text,
    'home-address': text,
    'shipping-address': text,
    'work-address': text,
    'work-phone': text,
    website: text,
    blog: text,
    twitter: text,
    facebook: text,
    github: text,
    'is-checked-in': flag,
    'checkin-times': text,
    'is-checked-out': flag,
    'checkout-times': text,
    'device-name-checkin': text,
    'is-registered': flag,
    'register-times': text,
    'is-badge-printed': flag,
    'attendee-notes': text,
    'pdf-url': text,
    'deleted-at': text,
  },
  { $id: 'FoundAttendee', additionalProperties: false },
);

const AttendeeSearch = Type.Object(
  { attendees: Type.Array(Type.Ref(FoundAttendee), { description: 'the newest first' }) },
  { $id: 'AttendeeSearch', additionalProperties: false },
);

const Query = Type.Object(
  {
    name: Type.Optional(
      Type.String({ maxLength: 255, description: 'a part of the first name, the last name or both' }),
    ),
    email: Type.Optional(Type.String({ maxLength: 255, description: 'a part of the e-mail address' })),
    identifier: Type.Optional(
      Type.String({ maxLength: 255, description: "the ticket's identifier, whole (what its QR code holds)" }),
    ),
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 1000, default: 100, description: 'the most ticket holders answered' }),
    ),
    ...compatibilityParameters,
  },
  { additionalProperties: false },
);
type Search = Static<typeof Query>;

/** `value` anywhere in the text (ILIKE), its own `%`, `_` and `\` taken literally. */
const contains = (column: SQL, value: string) => sql`${column} ilike ${`%${value.replace(/[\\%_]/g, '\\$&')}%`}`;

/** The holder's full name as the trigram index of migration 0033 reads it. */
const fullName = sql`(coalesce(${attendees.firstname}, '') || ' ' || coalesce(${attendees.lastname}, ''))`;

const dashed = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
const COLUMNS = [
  'firstname',
  'lastname',
  'email',
  'address',
  'city',
  'state',
  'country',
  'jobTitle',
  'phone',
  'company',
  'gender',
  'birthDate',
  'taxBusinessInfo',
  'billingAddress',
  'homeAddress',
  'shippingAddress',
  'workAddress',
  'workPhone',
  'website',
  'blog',
  'twitter',
  'facebook',
  'github',
  'isCheckedIn',
  'checkinTimes',
  'isCheckedOut',
  'checkoutTimes',
  'deviceNameCheckin',
  'isRegistered',
  'registerTimes',
  'isBadgePrinted',
  'attendeeNotes',
  'deletedAt',
] as const;

/** The found holders' JSON, built in the statement. */
const found = sql`json_build_object(
  'id', ${attendees.id}::text, 'identifier', ${attendees.identifier}, 'ticket-id', ${attendees.ticketId}::text,
  'pdf-url', ${holderPdfUrl(attendees as unknown as Columns)},
  ${sql.join(
    COLUMNS.map((c) => sql`${dashed(c)}::text, ${attendees[c]}`),
    sql`, `,
  )})`;

async function search(app: FastifyInstance, eventId: number, query: Search) {
  const conditions = [eq(attendees.eventId, eventId), isNull(attendees.deletedAt)];
  if (query.name) conditions.push(contains(fullName, query.name.trim()));
  if (query.email) conditions.push(contains(sql`${attendees.email}`, query.email.trim()));
  if (query.identifier !== undefined) conditions.push(eq(attendees.identifier, query.identifier.trim().toLowerCase()));
  // Joined (not a single-table select), so that Drizzle qualifies the columns of the pdf-url's subquery.
  const rows = await app.db
    .select({ attendee: sql<Static<typeof FoundAttendee>>`${found}` })
    .from(attendees)
    .leftJoin(tickets, eq(tickets.id, attendees.ticketId))
    .where(and(...conditions))
    .orderBy(desc(attendees.id))
    .limit(query.limit ?? 100);
  return { attendees: rows.map((r) => r.attendee) };
}

/**
 * `GET /v1/events/{event_id}/attendees/search`: the door's search box (the reference's app/api/custom/events.py,
 * search_attendees), by name, e-mail or the ticket's identifier. The reference let any logged-in user search any
 * event's ticket holders; here only those who run the event's door may.
 */
export default async function attendeeSearchRoute(app: FastifyInstance) {
  app.addSchema(FoundAttendee);
  app.addSchema(AttendeeSearch);
  app.get(
    `${API_PREFIX}/events/:event_id/attendees/search`,
    {
      onRequest: requireLogin(app),
      schema: {
        tags: ['Attendees'],
        operationId: 'searchAttendees',
        summary: "Search an event's ticket holders",
        description:
          "The event's live ticket holders whose name (first, last or both) contains `name` and whose e-mail contains " +
          '`email` (case-insensitively), or whose ticket has the identifier `identifier`, the newest first, at most ' +
          "`limit` (100). For the event's owner, organizers, coorganizers and registrars and administrators; anyone " +
          'else gets 404 (401 without a login).',
        params: Type.Object({ event_id: Type.String({ maxLength: 64, description: "the event's id or identifier" }) }),
        querystring: Query,
        response: {
          200: Type.Ref(AttendeeSearch, { description: 'The ticket holders found' }),
          ...errorResponses([400, 401, 404], { 404: 'No event whose door the caller runs has this id' }),
        },
      },
    },
    async (request) => {
      const { eventId } = await doorEventOf(app.db, request);
      const query = request.query as Search;
      if ([query.name, query.email, query.identifier].some(hasNul)) return { attendees: [] };
      return search(app, eventId, query);
    },
  );
}
