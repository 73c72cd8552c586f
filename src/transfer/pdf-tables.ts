/**
 * The organizers' PDF exports of an event (orders, attendees, sessions, speakers), beside the CSV ones: a table on
 * landscape A4 pages with the columns of the reference's templates (open-event-server app/templates/pdf/orders.html,
 * attendees_pdf.html, sessions_pdf.html, speakers_pdf.html), its header row repeated on every page. The rows are read
 * a page at a time and the document is streamed to a file, so a large event takes no more memory than a small one.
 */
import { and, asc, eq } from 'drizzle-orm';
import { customForms, events } from '../../db/schema/index.js';
import type { Db } from '../../plugins/db.js';
import { answerOf, fullName } from '../resources/attendees/answers.js';
import {
  breathe,
  createDocument,
  documentToFile,
  GREY,
  inZone,
  money,
  type Pdf,
} from '../resources/orders/documents/pdf.js';
import { speakersBySession } from '../schedule/model.js';
import {
  attendeeRows,
  dated,
  orderRows,
  plain,
  sessionRows,
  speakerRows,
  talksOf,
  CSV_KINDS,
  type CsvKind,
  type Page,
} from './csv.js';

export const PDF_KINDS = CSV_KINDS;
export type PdfKind = CsvKind;

/** Rows read from the database at a time. */
export const ROWS_PER_READ = 500;

const MARGIN = 36;
const FONT_SIZE = 8;
const PAD = 3;
/** The tallest a row gets (a long biography is cut with an ellipsis). */
const MAX_ROW_HEIGHT = 160;
const LINE = '#c1ced9';
const STRIPE = '#f4f6f8';
const HEADING = '#e3e9ee';

interface Column {
  header: string;
  /** Its share of the page's width. */
  weight: number;
}

/** A table: its title, its columns, and its rows, read a page at a time. */
interface Table {
  title: string;
  columns: Column[];
  /** Said on a page of no rows. */
  none: string;
  rows(page: Page): Promise<{ cells: string[][]; last: number | undefined }>;
}

interface EventFacts {
  name: string;
  zone: string;
  currency: string | null;
}

const capitalized = (text: string | null | undefined) => (text ? text[0]!.toUpperCase() + text.slice(1) : '');
const orDash = (text: string | null | undefined) => (text?.trim() ? text : '-');
const amount = (value: number | null | undefined, currency: string | null) =>
  currency ? money(Number(value ?? 0), currency) : Number(value ?? 0).toFixed(2);

/** An order's status as the reference's template words it. */
const statusText = (status: string) =>
  status === 'pending' || status === 'initializing' ? 'Pending' : capitalized(status);

/** When an order was completed, or else placed: the reference's one line of either. */
const orderDate = (order: { status: string; completedAt: Date | null; createdAt: Date }, zone: string) =>
  order.status === 'completed'
    ? `Completed ${dated(order.completedAt ?? order.createdAt, zone)}`
    : `Placed ${dated(order.createdAt, zone)}`;

/** The id after which the next page starts: the last row's (undefined when the page was not full). */
const lastOf = (ids: number[]) => (ids.length === ROWS_PER_READ ? ids[ids.length - 1] : undefined);

function ordersTable(db: Db, eventId: number, event: EventFacts): Table {
  return {
    title: `${event.name} - Order List`,
    none: 'No orders.',
    columns: [
      { header: 'Order Number', weight: 1.7 },
      { header: 'Order By', weight: 1.4 },
      { header: 'Order Status', weight: 0.8 },
      { header: 'Quantity', weight: 0.75 },
      { header: 'Total Amount', weight: 0.9 },
      { header: 'Payment Mode', weight: 0.9 },
      { header: 'Discount Code', weight: 0.9 },
      { header: 'Order Date', weight: 1.3 },
      { header: 'First Name', weight: 0.9 },
      { header: 'Last Name', weight: 0.9 },
      { header: 'Email', weight: 1.5 },
    ],
    async rows(page) {
      const rows = await orderRows(db, eventId, page);
      const cells = rows.map(({ order: o, ...buyer }) => [
        o.identifier,
        [buyer.firstName, buyer.lastName].filter(Boolean).join(' ').trim() || buyer.email || 'Information unavailable',
        statusText(o.status),
        String(buyer.quantity),
        amount(o.amount, event.currency),
        o.status === 'completed' ? orDash(capitalized(o.paidVia ?? o.paymentMode)) : 'Payment pending',
        buyer.discountCode ?? 'NA',
        orderDate(o, event.zone),
        buyer.firstName ?? '',
        buyer.lastName ?? '',
        buyer.email ?? '',
      ]);
      return { cells, last: lastOf(rows.map((r) => r.order.id)) };
    },
  };
}

async function attendeesTable(db: Db, eventId: number, event: EventFacts): Promise<Table> {
  // The attendee form's included fields, in its order (the reference's `custom_forms` column).
  const included = await db
    .select({ identifier: customForms.fieldIdentifier, name: customForms.name })
    .from(customForms)
    .where(and(eq(customForms.eventId, eventId), eq(customForms.form, 'attendee'), eq(customForms.isIncluded, true)))
    .orderBy(asc(customForms.position), asc(customForms.id))
    .limit(100);
  // The name first (the form's fixed fields), then the other answers.
  const NAME = new Set(['firstname', 'lastname']);
  const fields = included
    .filter((f) => !NAME.has(f.identifier.toLowerCase()))
    .map((f) => ({ identifier: f.identifier, label: f.name?.trim() || f.identifier }));
  return {
    title: `${event.name} - Attendee List`,
    none: 'No attendees.',
    columns: [
      { header: 'Order Number', weight: 1.6 },
      { header: 'Order By', weight: 1.3 },
      { header: 'Order Status', weight: 0.8 },
      { header: 'Payment Mode', weight: 0.8 },
      { header: 'Order Date', weight: 1.2 },
      { header: 'Attendee', weight: 2.4 },
      { header: 'Ticket Name', weight: 1 },
      { header: 'Amount', weight: 0.9 },
      { header: 'Ticket ID', weight: 1.5 },
      { header: 'Status', weight: 0.9 },
    ],
    async rows(page) {
      const rows = await attendeeRows(db, eventId, page);
      const cells = rows.map(({ attendee: a, order: o, ticket: t, buyerEmail }) => {
        const answers = fields.flatMap((f) => {
          const answer = answerOf(a, f.identifier);
          return answer ? [`${f.label}: ${answer}`] : [];
        });
        const name = fullName(a);
        const price = Number(a.price ?? t?.price ?? 0);
        return [
          o?.identifier ?? '-',
          orDash(buyerEmail),
          o ? statusText(o.status) : '-',
          o?.status === 'completed' ? orDash(capitalized(o.paidVia ?? o.paymentMode)) : '-',
          o ? orderDate(o, event.zone) : '-',
          [name || '-', ...answers].join('\n'),
          orDash(t?.name),
          price > 0 ? amount(price, event.currency) : 'Free Ticket',
          a.identifier,
          a.isCheckedIn ? 'Checked In' : 'Not Checked In',
        ];
      });
      return { cells, last: lastOf(rows.map((r) => r.attendee.id)) };
    },
  };
}

function sessionsTable(db: Db, eventId: number, event: EventFacts, status?: string): Table {
  return {
    title: `${event.name} - Sessions List`,
    none: 'No sessions.',
    columns: [
      { header: 'Title', weight: 2.6 },
      { header: 'State', weight: 0.8 },
      { header: 'Speakers', weight: 1.6 },
      { header: 'Track', weight: 1.2 },
      { header: 'Created At', weight: 1.3 },
      { header: 'Email Sent', weight: 0.7 },
    ],
    async rows(page) {
      const rows = await sessionRows(db, eventId, status, page);
      const people = await speakersBySession(
        db,
        rows.map((r) => r.id),
      );
      const cells = rows.map((s) => [
        orDash(s.title),
        orDash(s.state),
        (people.get(s.id) ?? []).map((p) => p.name).join('\n') || '-',
        orDash(s.track),
        s.createdAt ? dated(s.createdAt, event.zone) : '-',
        s.isMailSent ? 'Yes' : 'No',
      ]);
      return { cells, last: lastOf(rows.map((r) => r.id)) };
    },
  };
}

function speakersTable(db: Db, eventId: number, event: EventFacts, status?: string): Table {
  return {
    title: `${event.name} - Speakers List`,
    none: 'No speakers.',
    columns: [
      { header: 'Name', weight: 1.2 },
      { header: 'Email', weight: 1.5 },
      { header: 'Sessions', weight: 1.8 },
      { header: 'Mobile', weight: 0.9 },
      { header: 'Short Biography', weight: 2.6 },
      { header: 'Organisation', weight: 1.1 },
      { header: 'Position', weight: 1 },
    ],
    async rows(page) {
      const rows = await speakerRows(db, eventId, status, page);
      const talks = await talksOf(
        db,
        rows.map((r) => r.id),
      );
      const cells = rows.map((s) => [
        orDash(s.name),
        orDash(s.email),
        talks
          .filter((t) => t.speakerId === s.id)
          .map((t) => t.title)
          .join('\n') || '-',
        orDash(s.mobile),
        orDash(plain(s.shortBiography)),
        orDash(s.organisation),
        orDash(s.position),
      ]);
      return { cells, last: lastOf(rows.map((r) => r.id)) };
    },
  };
}

type Face = 'regular' | 'bold';

/**
 * Lines of text within a width, measured from each character's advance (kept per font), not by laying out every
 * cell twice as pdfkit's wrapping does (a thousand rows of identifiers and addresses took most of a minute so).
 * Lines break at spaces, after `-`, `/` and `@`, and inside a word too long for a line;
 * kerning only narrows text, so a line measured to fit does.
 */
function lineWrapper(doc: Pdf) {
  const advances = new Map<string, number>();
  const advance = (face: Face, char: string) => {
    const key = `${face}${char}`;
    let width = advances.get(key);
    if (width === undefined) {
      width = doc.font(face).fontSize(1000).widthOfString(char) / 1000;
      advances.set(key, width);
    }
    return width;
  };
  const widthOf = (face: Face, text: string) => {
    let width = 0;
    for (const char of text) width += advance(face, char);
    return width * FONT_SIZE;
  };
  return (face: Face, text: string, width: number): string[] => {
    const lines: string[] = [];
    for (const paragraph of text.split('\n')) {
      let line = '';
      let used = 0;
      for (const token of paragraph.match(/\s+|[^\s\-/@]*[-/@]|[^\s\-/@]+/g) ?? []) {
        if (/^\s+$/.test(token)) {
          if (line) {
            line += ' ';
            used += widthOf(face, ' ');
          }
          continue;
        }
        const tokenWidth = widthOf(face, token);
        if (used + tokenWidth <= width) {
          line += token;
          used += tokenWidth;
          continue;
        }
        if (line.trim()) lines.push(line.trimEnd());
        line = '';
        used = 0;
        if (tokenWidth <= width) {
          line = token;
          used = tokenWidth;
          continue;
        }
        // A word longer than the line: cut between characters.
        for (const char of token) {
          const charWidth = widthOf(face, char);
          if (used + charWidth > width && line) {
            lines.push(line);
            line = '';
            used = 0;
          }
          line += char;
          used += charWidth;
        }
      }
      lines.push(line.trimEnd());
    }
    return lines;
  };
}

/** Draws the table onto new pages of `doc`: title on the first, the header row on each, a page number at the foot. */
async function drawTable(doc: Pdf, table: Table, subtitle: string, progress: (rows: number) => Promise<void>) {
  let pageNumber = 0;
  let y = 0;
  let widths: number[] = [];
  let bottom = 0;
  const wrap = lineWrapper(doc);
  const lineHeight = doc.font('regular').fontSize(FONT_SIZE).currentLineHeight(true);
  const maxLines = Math.floor((MAX_ROW_HEIGHT - 2 * PAD) / lineHeight);
  /** The lines of each cell (at most maxLines, the last cut with an ellipsis), and the row's height. */
  const layout = (face: Face, texts: string[]) => {
    const cells = texts.map((text, i) => {
      const lines = wrap(face, text, widths[i]! - 2 * PAD);
      if (lines.length <= maxLines) return lines;
      const kept = lines.slice(0, maxLines);
      kept[maxLines - 1] = `${kept[maxLines - 1]!.slice(0, -1)}…`;
      return kept;
    });
    return { cells, height: Math.max(...cells.map((c) => c.length), 1) * lineHeight + 2 * PAD };
  };
  /** One row at y: a background, each cell's lines, a line under it. */
  const drawRow = (face: Face, { cells, height }: ReturnType<typeof layout>, fill?: string) => {
    const width = widths.reduce((a, b) => a + b, 0);
    if (fill) doc.rect(MARGIN, y, width, height).fill(fill);
    doc.font(face).fontSize(FONT_SIZE).fillColor('#000000');
    let x = MARGIN;
    for (const [i, lines] of cells.entries()) {
      for (const [n, line] of lines.entries())
        if (line) doc.text(line, x + PAD, y + PAD + n * lineHeight, { lineBreak: false });
      x += widths[i]!;
    }
    doc
      .moveTo(MARGIN, y + height)
      .lineTo(MARGIN + width, y + height)
      .lineWidth(0.5)
      .strokeColor(LINE)
      .stroke();
    y += height;
  };
  const headers = table.columns.map((c) => c.header);
  const newPage = () => {
    doc.addPage();
    pageNumber++;
    const inner = doc.page.width - 2 * MARGIN;
    const total = table.columns.reduce((sum, c) => sum + c.weight, 0);
    widths = table.columns.map((c) => (inner * c.weight) / total);
    bottom = doc.page.height - MARGIN;
    y = MARGIN;
    if (pageNumber === 1) {
      doc
        .font('bold')
        .fontSize(14)
        .fillColor('#000000')
        .text(table.title, MARGIN, y, { width: inner, align: 'center' });
      doc
        .font('regular')
        .fontSize(9)
        .fillColor(GREY)
        .text(subtitle, MARGIN, doc.y + 2, { width: inner, align: 'center' });
      y = doc.y + 12;
    }
    doc
      .font('regular')
      .fontSize(7)
      .fillColor(GREY)
      .text(`${table.title} · page ${pageNumber}`, MARGIN, bottom + 10, { width: inner, align: 'right', height: 12 });
    drawRow('bold', layout('bold', headers), HEADING);
  };
  newPage();
  let after = 0;
  let written = 0;
  for (;;) {
    const { cells, last } = await table.rows({ after, limit: ROWS_PER_READ });
    for (const texts of cells) {
      const row = layout('regular', texts);
      if (y + row.height > bottom) newPage();
      drawRow('regular', row, written % 2 ? STRIPE : undefined);
      written++;
      if (written % 50 === 0) await breathe();
    }
    if (last === undefined) break;
    after = last;
    await progress(written);
  }
  if (written === 0)
    doc
      .font('regular')
      .fontSize(FONT_SIZE)
      .fillColor(GREY)
      .text(table.none, MARGIN + PAD, y + PAD, { width: doc.page.width - 2 * MARGIN - 2 * PAD, height: 20 });
}

/**
 * Writes the PDF export `kind` of the event to the file `path` (`status`: the sessions or speakers filter of its
 * POST body, as for the CSV export); resolves with the file's size. `progress` hears how many rows are written.
 */
export async function writePdfExport(
  db: Db,
  eventId: number,
  kind: PdfKind,
  options: { status?: string; path: string; author: string; progress: (rows: number) => Promise<void> },
): Promise<number> {
  const [row] = await db
    .select({ name: events.name, zone: events.timezone, currency: events.paymentCurrency })
    .from(events)
    .where(eq(events.id, eventId));
  const event: EventFacts = {
    name: row?.name ?? `#${eventId}`,
    zone: row?.zone ?? 'UTC',
    currency: row?.currency ?? null,
  };
  const table =
    kind === 'orders'
      ? ordersTable(db, eventId, event)
      : kind === 'attendees'
        ? await attendeesTable(db, eventId, event)
        : kind === 'sessions'
          ? sessionsTable(db, eventId, event, options.status)
          : speakersTable(db, eventId, event, options.status);
  const doc = createDocument(table.title, options.author, {
    size: 'A4',
    layout: 'landscape',
    margin: MARGIN,
    ownFonts: true,
  });
  const written = documentToFile(doc, options.path);
  try {
    await drawTable(doc, table, `Exported ${inZone(new Date(), event.zone)}`, options.progress);
  } finally {
    doc.end();
  }
  return written;
}
