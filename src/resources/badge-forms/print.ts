/**
 * Printing badges (the reference's create_print_badge_pdf and validate_badge_print, app/api/helpers/tasks.py): the
 * design of a ticket holder's badge is the event's badge form whose `badge-id` is the one of the holder's ticket,
 * with its live fields. A print is an export task (src/transfer/jobs.ts) that reads the holders a page at a time,
 * streams the PDF to a file, and marks the holders printed (`is-badge-printed`, `badge-printed-at`) when it succeeds.
 */
import type { FastifyInstance } from 'fastify';
import { and, asc, eq, gt, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import sharp from 'sharp';
import {
  attendees,
  badgeFieldForms,
  badgeForms,
  customForms,
  events,
  orders,
  tickets,
} from '../../../db/schema/index.js';
import type { Db } from '../../../plugins/db.js';
import { safeFetch, type FetchLimits } from '../../net/safe-fetch.js';
import { ISSUED } from '../orders/documents/load.js';
import { breathe, createDocument, documentToFile } from '../orders/documents/pdf.js';
import { badgeSheets, badgeSizeOf, type BadgeDesign, type PageSize } from './badge-pdf.js';

/** Which ticket holders a print of an event's badges takes: those checked in (the default), those not, or all. */
export const CHECKED_IN = ['true', 'false', 'all'] as const;
export type CheckedIn = (typeof CHECKED_IN)[number];

/** What a badge print task prints (its options' `badges`). */
export interface BadgePrint {
  /** One holder's badge; else the event's holders that `checkedIn` names. */
  attendee?: number;
  checkedIn?: CheckedIn;
  pageSize: PageSize;
  /** The identifiers of the fields to print (the reference's list_field_show); others print blank. All when absent. */
  fields?: string[];
}

/** A print that cannot be made; its message is for the requester. */
export class BadgeError extends Error {}

/** Holders read from the database at a time. */
const HOLDERS_PER_READ = 200;

/** The reference's list_field_show: field identifiers separated by commas (quotes and spaces aside); none: all. */
export function fieldList(text: string | undefined): string[] | undefined {
  const names = (text ?? '')
    .split(',')
    .map((name) =>
      name
        .trim()
        .replace(/^['"]+|['"]+$/g, '')
        .trim(),
    )
    .filter(Boolean);
  return names.length ? names.slice(0, 64) : undefined;
}

/** The event's live badge form named `badgeId` (the oldest, should there be several) and its live fields in order. */
export async function designOf(db: Db, eventId: number, badgeId: string | null | undefined) {
  if (!badgeId) return undefined;
  const [form] = await db
    .select()
    .from(badgeForms)
    .where(and(eq(badgeForms.eventId, eventId), eq(badgeForms.badgeId, badgeId), isNull(badgeForms.deletedAt)))
    .orderBy(asc(badgeForms.id))
    .limit(1);
  if (!form) return undefined;
  const fields = await db
    .select()
    .from(badgeFieldForms)
    .where(
      and(
        eq(badgeFieldForms.badgeFormId, form.id),
        isNull(badgeFieldForms.deletedAt),
        or(isNull(badgeFieldForms.isDeleted), eq(badgeFieldForms.isDeleted, false)),
      ),
    )
    .orderBy(asc(badgeFieldForms.id))
    .limit(200);
  return { form, fields };
}

/** The holder's ticket has a live badge form of the event. */
const hasBadgeForm = sql`exists (select 1 from ${badgeForms} where ${badgeForms.eventId} = ${attendees.eventId}
  and ${badgeForms.badgeId} = ${tickets.badgeId} and ${badgeForms.deletedAt} is null)`;

/**
 * The event's holders a print of its badges takes (over attendees joined to their ticket and order): live, of an
 * order placed or completed (or of none: added by the organizers), holding a ticket with a badge form, and checked
 * in or not as asked.
 */
function printedHolders(eventId: number, checkedIn: CheckedIn): SQL {
  return and(
    eq(attendees.eventId, eventId),
    isNull(attendees.deletedAt),
    or(isNull(attendees.orderId), inArray(orders.status, ISSUED)),
    hasBadgeForm,
    checkedIn === 'all' ? undefined : eq(attendees.isCheckedIn, checkedIn === 'true'),
  )!;
}

/** Whether a print of the event's badges would print any. */
export async function anyBadgeToPrint(db: Db, eventId: number, checkedIn: CheckedIn): Promise<boolean> {
  const [row] = await db
    .select({ id: attendees.id })
    .from(attendees)
    .innerJoin(tickets, eq(tickets.id, attendees.ticketId))
    .leftJoin(orders, eq(orders.id, attendees.orderId))
    .where(printedHolders(eventId, checkedIn))
    .limit(1);
  return !!row;
}

/** The live holder `id` with its event and its ticket's badge id; undefined when there is none. */
export async function holderOf(db: Db, id: number) {
  const [row] = await db
    .select({ id: attendees.id, eventId: attendees.eventId, badgeId: tickets.badgeId })
    .from(attendees)
    .leftJoin(tickets, eq(tickets.id, attendees.ticketId))
    .where(and(eq(attendees.id, id), isNull(attendees.deletedAt)));
  return row;
}

export interface PrintLimits {
  fetch: FetchLimits;
  maxPixels: number;
}

/**
 * The background image of a badge form as a JPEG for the PDF (at most 1200 pixels a side, transparency on white):
 * read from our storage when it is ours, else fetched through the SSRF-safe fetch. None when it cannot be had (the
 * badges print without it).
 */
async function backgroundOf(app: FastifyInstance, url: string | null, limits: PrintLimits) {
  if (!url) return undefined;
  try {
    const located = await app.storage.locate(url);
    const bytes = located
      ? await located.backend.read(located.key, limits.fetch.maxBytes)
      : (await safeFetch(url, limits.fetch)).body;
    return await sharp(bytes, { limitInputPixels: limits.maxPixels })
      .rotate()
      .resize(1200, 1200, { fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 85 })
      .toBuffer();
  } catch (err) {
    app.log.warn({ err, url }, 'the background image of a badge could not be read');
    return undefined;
  }
}

/**
 * Prints the badges `print` asks for into the file `path`: resolves with its size and the ids of the holders printed.
 * A BadgeError when there is none to print (a holder or badge form gone since the task was asked for).
 */
export async function printBadges(
  app: FastifyInstance,
  eventId: number,
  print: BadgePrint,
  out: { path: string; author: string; limits: PrintLimits; progress: (printed: number) => Promise<void> },
): Promise<{ size: number; printed: number[] }> {
  const db = app.db;
  const [event] = await db.select({ name: events.name }).from(events).where(eq(events.id, eventId));
  const labels = new Map(
    (
      await db
        .select({ identifier: customForms.fieldIdentifier, name: customForms.name })
        .from(customForms)
        .where(and(eq(customForms.eventId, eventId), eq(customForms.form, 'attendee')))
    ).map((f) => [f.identifier, f.name ?? f.identifier]),
  );
  const shown = print.fields && new Set(print.fields.map((f) => f.replace(/[_\s-]/g, '').toLowerCase()));
  const designs = new Map<string, BadgeDesign | null>();
  const design = async (badgeId: string | null) => {
    if (!badgeId) return null;
    if (!designs.has(badgeId)) {
      const found = await designOf(db, eventId, badgeId);
      designs.set(
        badgeId,
        found
          ? {
              ...found,
              size: badgeSizeOf(found.form),
              background: await backgroundOf(app, found.form.badgeImageUrl, out.limits),
            }
          : null,
      );
    }
    return designs.get(badgeId)!;
  };

  const title = `${event?.name ?? `#${eventId}`}: ${print.attendee ? 'badge' : 'badges'}`;
  const doc = createDocument(title, out.author, { size: 'A4', margin: 0, ownFonts: true });
  const written = documentToFile(doc, out.path);
  const sheets = badgeSheets(doc, print.pageSize);
  const printed: number[] = [];
  try {
    let after = 0;
    for (;;) {
      const rows = await db
        .select({ attendee: attendees, badgeId: tickets.badgeId })
        .from(attendees)
        .innerJoin(tickets, eq(tickets.id, attendees.ticketId))
        .leftJoin(orders, eq(orders.id, attendees.orderId))
        .where(
          print.attendee
            ? and(eq(attendees.id, print.attendee), eq(attendees.eventId, eventId), isNull(attendees.deletedAt))
            : and(printedHolders(eventId, print.checkedIn ?? 'true'), gt(attendees.id, after)),
        )
        .orderBy(asc(attendees.id))
        .limit(HOLDERS_PER_READ);
      for (const { attendee, badgeId } of rows) {
        const found = await design(badgeId);
        if (!found) continue;
        sheets.add(found, { row: attendee, shown, labels });
        printed.push(attendee.id);
        if (printed.length % 20 === 0) await breathe();
      }
      if (print.attendee || rows.length < HOLDERS_PER_READ) break;
      after = rows[rows.length - 1]!.attendee.id;
      await out.progress(printed.length);
    }
  } finally {
    doc.end();
  }
  const size = await written;
  if (printed.length === 0)
    throw new BadgeError(
      print.attendee
        ? 'The attendee or the badge form of their ticket is gone'
        : 'No attendee holds a ticket with a badge form any longer',
    );
  return { size, printed };
}

/** Marks the holders printed now (within the transaction that ends the print's task). */
export async function markPrinted(db: Db, ids: number[]) {
  const now = new Date();
  for (let i = 0; i < ids.length; i += 5000)
    await db
      .update(attendees)
      .set({ isBadgePrinted: true, badgePrintedAt: now })
      .where(inArray(attendees.id, ids.slice(i, i + 5000)));
}
