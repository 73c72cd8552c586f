/**
 * The organizers' CSV exports of an event (sessions, speakers, orders, attendees) with the reference's columns
 * (open-event-server app/api/helpers/csv_jobs_util.py): UTF-8 with a byte order mark, so spreadsheet programs
 * read accents, lines ended CRLF (RFC 4180), and every text that a spreadsheet would take for a formula
 * (starting with `=`, `+`, `-`, `@`, a tab or a carriage return) neutralised by a leading apostrophe.
 */
import { stringify } from 'csv-stringify/sync';
import { and, asc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { DateTime } from 'luxon';
import {
  attendees,
  discountCodes,
  events,
  feedback,
  orders,
  sessions,
  sessionTypes,
  speakers,
  speakersSessions,
  tickets,
  tracks,
  users,
} from '../../db/schema/index.js';
import type { Db } from '../../plugins/db.js';
import { speakersBySession } from '../schedule/model.js';

export const CSV_KINDS = ['sessions', 'speakers', 'orders', 'attendees'] as const;
export type CsvKind = (typeof CSV_KINDS)[number];

type Cell = string | number | null | undefined;

/** A text a spreadsheet program would evaluate, made plain text (OWASP's CSV injection advice). */
const neutralised = (text: string) => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);

/** The CSV file of `rows` under `header`: BOM, CRLF, texts neutralised; numbers are ours and stay numbers. */
function csvFile(header: string[], rows: Cell[][]): string {
  const cells = rows.map((row) => row.map((cell) => (typeof cell === 'string' ? neutralised(cell) : (cell ?? ''))));
  return `\uFEFF${stringify([header, ...cells], { record_delimiter: 'windows' })}`;
}

/** Markup left out of rich text (abstracts are HTML from the front end's editor), entities of the common five read. */
export const plain = (html: string | null) =>
  (html ?? '')
    .replace(/<[^>]*>/g, '')
    .replace(/&(lt|gt|quot|#39|amp);/g, (_, e: string) => ({ lt: '<', gt: '>', quot: '"', '#39': "'", amp: '&' })[e]!);

/** The reference's dates: `October 26, 2030 10:00 +0200` in the event's time zone. */
export const dated = (d: Date | null, zone: string) =>
  d ? DateTime.fromJSDate(d, { zone }).toFormat('MMMM d, yyyy HH:mm ZZZ') : '';

export async function zoneOf(db: Db, eventId: number) {
  const [event] = await db.select({ timezone: events.timezone }).from(events).where(eq(events.id, eventId));
  return event?.timezone ?? 'UTC';
}

/**
 * A page of rows in the order of their ids: those after id `after`, at most `limit`. The PDF exports read their rows
 * so, in bounded memory however large the event; the CSV exports read them all at once.
 */
export interface Page {
  after: number;
  limit: number;
}

/** The condition of a page on the id column (none without a page). */
const after = (id: PgColumn, page?: Page) => (page ? gt(id, page.after) : undefined);
/** The row limit of a page (every row without one). */
const limitOf = (page?: Page) => page?.limit ?? Number.MAX_SAFE_INTEGER;

/** Sessions of the event, every state (`status`: only that one), with their track, type and number of ratings. */
export function sessionRows(db: Db, eventId: number, status?: string, page?: Page) {
  return db
    .select({
      id: sessions.id,
      title: sessions.title,
      state: sessions.state,
      startsAt: sessions.startsAt,
      endsAt: sessions.endsAt,
      track: tracks.name,
      shortAbstract: sessions.shortAbstract,
      longAbstract: sessions.longAbstract,
      comments: sessions.comments,
      createdAt: sessions.createdAt,
      isMailSent: sessions.isMailSent,
      level: sessions.level,
      type: sessionTypes.name,
      length: sessionTypes.length,
      language: sessions.language,
      slidesUrl: sessions.slidesUrl,
      audioUrl: sessions.audioUrl,
      videoUrl: sessions.videoUrl,
      averageRating: sessions.averageRating,
      ratings: sql<number>`(select count(*)::int from ${feedback} where ${feedback.sessionId} = ${sessions.id} and ${feedback.deletedAt} is null)`,
    })
    .from(sessions)
    .leftJoin(tracks, eq(tracks.id, sessions.trackId))
    .leftJoin(sessionTypes, eq(sessionTypes.id, sessions.sessionTypeId))
    .where(
      and(
        eq(sessions.eventId, eventId),
        isNull(sessions.deletedAt),
        ...(status === undefined ? [] : [eq(sessions.state, status)]),
        after(sessions.id, page),
      ),
    )
    .orderBy(asc(sessions.id))
    .limit(limitOf(page));
}

/** Sessions of the event, every state (`status`: only that one), as the reference lists them. */
async function sessionsCsv(db: Db, eventId: number, status?: string): Promise<string> {
  const zone = await zoneOf(db, eventId);
  const rows = await sessionRows(db, eventId, status);
  const people = await speakersBySession(
    db,
    rows.map((r) => r.id),
  );
  return csvFile(
    [
      'Session Title',
      'Session Starts At',
      'Session Ends At',
      'Session Speakers',
      'Speaker Emails',
      'Session Track',
      'Session Abstract Short',
      'Session Abstract Long',
      'Comment',
      'Created At',
      'Email Sent',
      'Level',
      'Status',
      'Session Type',
      'Talk Length',
      'Language',
      'Slides',
      'Audio',
      'Video',
      'Average Rating',
      'Number of Ratings',
    ],
    rows.map((s) => {
      const spoken = people.get(s.id) ?? [];
      return [
        `${s.title} (${s.state})`,
        dated(s.startsAt, zone),
        dated(s.endsAt, zone),
        spoken.map((p) => p.name).join('; '),
        spoken.flatMap((p) => (p.email ? [p.email] : [])).join('; '),
        s.track,
        plain(s.shortAbstract),
        plain(s.longAbstract),
        plain(s.comments),
        dated(s.createdAt, zone),
        s.isMailSent ? 'Yes' : 'No',
        s.level,
        s.state,
        s.type,
        s.length,
        s.language,
        s.slidesUrl,
        s.audioUrl,
        s.videoUrl,
        s.averageRating,
        s.ratings,
      ];
    }),
  );
}

/** Speakers of the event (`status`: those with a live session in that state, `without_session` those with none). */
export function speakerRows(db: Db, eventId: number, status?: string, page?: Page) {
  const spoken = (state?: string) =>
    sql`exists (select 1 from ${speakersSessions} join ${sessions} on ${sessions.id} = ${speakersSessions.sessionId}
      where ${speakersSessions.speakerId} = ${speakers.id} and ${sessions.deletedAt} is null
      ${state === undefined ? sql`` : sql`and ${sessions.state} = ${state}`})`;
  const filter =
    status === undefined ? undefined : status === 'without_session' ? sql`not ${spoken()}` : spoken(status);
  return db
    .select()
    .from(speakers)
    .where(and(eq(speakers.eventId, eventId), isNull(speakers.deletedAt), filter, after(speakers.id, page)))
    .orderBy(asc(speakers.id))
    .limit(limitOf(page));
}

/** The live sessions of the speakers `ids` (title and state), in the order of the sessions. */
export async function talksOf(db: Db, ids: number[]) {
  if (ids.length === 0) return [];
  return db
    .select({ speakerId: speakersSessions.speakerId, title: sessions.title, state: sessions.state })
    .from(speakersSessions)
    .innerJoin(sessions, eq(sessions.id, speakersSessions.sessionId))
    .where(and(inArray(speakersSessions.speakerId, ids), isNull(sessions.deletedAt)))
    .orderBy(asc(sessions.id));
}

/**
 * Speakers of the event (`status`: those with a live session in that state, `without_session` those with none),
 * as the reference lists them.
 */
async function speakersCsv(db: Db, eventId: number, status?: string): Promise<string> {
  const rows = await speakerRows(db, eventId, status);
  const talks = await talksOf(
    db,
    rows.map((r) => r.id),
  );
  return csvFile(
    [
      'Speaker Name',
      'Speaker Email',
      'Speaker Session(s)',
      'Speaker Mobile',
      'Speaker Bio',
      'Speaker Organisation',
      'Speaker Position',
      'Speaker Experience',
      'Speaker Sponsorship Required',
      'Speaker City',
      'Speaker Country',
      'Speaker Website',
      'Speaker Twitter',
      'Speaker Facebook',
      'Speaker Github',
      'Speaker LinkedIn',
    ],
    rows.map((s) => [
      s.name,
      s.email,
      talks
        .filter((t) => t.speakerId === s.id)
        .map((t) => `${t.title} (${t.state})`)
        .join('; '),
      s.mobile,
      plain(s.shortBiography),
      s.organisation,
      s.position,
      s.speakingExperience,
      s.sponsorshipRequired,
      s.city,
      s.country,
      s.website,
      s.twitter,
      s.facebook,
      s.github,
      s.linkedin,
    ]),
  );
}

const ORDER_COLUMNS = ['Order#', 'Order Date', 'Status', 'Payment Type', 'Payment Mode'];
const BILLING_COLUMNS = ['Tax ID', 'Address', 'Company', 'Country', 'State', 'City', 'Zipcode'];

/** Orders of the event with their buyer, number of ticket holders and discount code. */
export function orderRows(db: Db, eventId: number, page?: Page) {
  return db
    .select({
      order: orders,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      quantity: sql<number>`(select count(*)::int from ${attendees} where ${attendees.orderId} = ${orders.id})`,
      discountCode: discountCodes.code,
    })
    .from(orders)
    .leftJoin(users, eq(users.id, orders.userId))
    .leftJoin(discountCodes, eq(discountCodes.id, orders.discountCodeId))
    .where(and(eq(orders.eventId, eventId), isNull(orders.deletedAt), after(orders.id, page)))
    .orderBy(asc(orders.id))
    .limit(limitOf(page));
}

async function ordersCsv(db: Db, eventId: number): Promise<string> {
  const zone = await zoneOf(db, eventId);
  const rows = await orderRows(db, eventId);
  return csvFile(
    [
      ...ORDER_COLUMNS,
      'Total Amount',
      'Quantity',
      'Discount Code',
      'Access Code',
      'First Name',
      'Last Name',
      'Email',
      ...BILLING_COLUMNS,
    ],
    rows.map(({ order: o, ...buyer }) => [
      o.identifier,
      dated(o.createdAt, zone),
      o.status,
      o.paidVia,
      o.paymentMode,
      o.amount,
      buyer.quantity,
      buyer.discountCode,
      '',
      buyer.firstName,
      buyer.lastName,
      buyer.email,
      o.taxBusinessInfo,
      o.address,
      o.company,
      o.country,
      o.state,
      o.city,
      o.zipcode,
    ]),
  );
}

/** Live ticket holders of the event with their order, its buyer's address and their ticket. */
export function attendeeRows(db: Db, eventId: number, page?: Page) {
  return db
    .select({ attendee: attendees, order: orders, ticket: tickets, buyerEmail: users.email })
    .from(attendees)
    .leftJoin(orders, eq(orders.id, attendees.orderId))
    .leftJoin(users, eq(users.id, orders.userId))
    .leftJoin(tickets, eq(tickets.id, attendees.ticketId))
    .where(and(eq(attendees.eventId, eventId), isNull(attendees.deletedAt), after(attendees.id, page)))
    .orderBy(asc(attendees.id))
    .limit(limitOf(page));
}

async function attendeesCsv(db: Db, eventId: number): Promise<string> {
  const zone = await zoneOf(db, eventId);
  const rows = await attendeeRows(db, eventId);
  return csvFile(
    [
      ...ORDER_COLUMNS,
      'Ticket Name',
      'Ticket ID',
      'Ticket Price',
      'Ticket Type',
      ...BILLING_COLUMNS,
      'First Name',
      'Last Name',
      'Email',
      'Checked In',
    ],
    rows.map(({ attendee: a, order: o, ticket: t }) => [
      o?.identifier ?? '-',
      o ? dated(o.createdAt, zone) : '-',
      o?.status ?? '-',
      o?.paidVia,
      o?.paymentMode,
      t?.name,
      o?.identifier,
      t?.price ?? 0,
      t?.type,
      o?.taxBusinessInfo,
      o?.address,
      o?.company,
      o?.country,
      o?.state,
      o?.city,
      o?.zipcode,
      a.firstname,
      a.lastname,
      a.email,
      a.isCheckedIn ? 'Yes' : 'No',
    ]),
  );
}

/** The CSV export `kind` of the event (`status`: the sessions or speakers filter of its POST body). */
export function csvExport(db: Db, eventId: number, kind: CsvKind, status?: string): Promise<string> {
  if (kind === 'sessions') return sessionsCsv(db, eventId, status);
  if (kind === 'speakers') return speakersCsv(db, eventId, status);
  if (kind === 'orders') return ordersCsv(db, eventId);
  return attendeesCsv(db, eventId);
}
