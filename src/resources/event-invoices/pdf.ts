/**
 * The PDF of an event invoice, as the reference's pdf/event_invoice.html: the platform (the admin settings' billing
 * details) bills the event's owner (their billing details) the service fee of the month's ticket sales: the sales
 * period, what they earned, the fee's percent, and the total, with the issue and due dates.
 */
import { invoiceHeading, party } from '../orders/documents/invoice-pdf.js';
import { createDocument, dayInZone, GREY, MARGIN, money, type Pdf } from '../orders/documents/pdf.js';

export interface InvoiceDocument {
  identifier: string;
  amount: number;
  month: string;
  issuedAt: Date;
  dueAt: Date;
  currency: string;
  timezone: string;
  event: { name: string; identifier: string };
  /** The completed orders of the month: their amounts summed, their ticket holders, the first and last sale. */
  gross: number;
  tickets: number;
  firstSale: Date | null;
  lastSale: Date | null;
  /** The fee's percent (null: no fee applies any more). */
  serviceFee: number | null;
  seller: { name: string; rows: [string, string | null][] };
  client: [string, string | null][];
}

const filled = (rows: [string, string | null][]) => rows.filter((r): r is [string, string] => r[1] !== null);

const COLUMNS = [
  { title: 'Product', width: 150, align: 'left' as const },
  { title: 'Description', width: 230, align: 'left' as const },
  { title: 'Fees', width: 115, align: 'right' as const },
];

function row(doc: Pdf, cells: string[], y: number, font: 'regular' | 'bold' = 'regular'): number {
  doc.font(font).fontSize(9).fillColor('#000000');
  let x = MARGIN;
  let bottom = y;
  cells.forEach((text, i) => {
    const { width, align } = COLUMNS[i]!;
    doc.text(text, x, y, { width, align });
    bottom = Math.max(bottom, doc.y);
    x += width;
  });
  return bottom + 8;
}

/** The invoice as a PDF of one page, with fonts of its own (names with accents read back right). */
export function invoicePdf(data: InvoiceDocument): Promise<Buffer> {
  const doc = createDocument(`Invoice ${data.identifier}: ${data.event.name}`, data.seller.name, { ownFonts: true });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const bytes = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const c = data.currency;
  const zone = data.timezone;
  const width = invoiceHeading(doc, data.seller.name, [
    `Invoice ${data.identifier}`,
    `Date ${dayInZone(data.issuedAt, zone)}`,
    `Due date ${dayInZone(data.dueAt, zone)}`,
  ]);
  const top = doc.y + 20;
  const half = width / 2 - 10;
  const bottom = Math.max(
    party(doc, 'From', filled(data.seller.rows), MARGIN, top, half),
    party(doc, 'Client', filled(data.client), MARGIN + width / 2 + 10, top, half),
  );
  const fee = data.serviceFee === null ? 'Fees' : `Fees (${data.serviceFee}%)`;
  let y = row(doc, ['Product', 'Description', fee], bottom + 30, 'bold');
  const period =
    data.firstSale && data.lastSale
      ? `${dayInZone(data.firstSale, zone)} - ${dayInZone(data.lastSale, zone)}`
      : `the month ${data.month}`;
  y = row(
    doc,
    [
      data.event.name,
      `Ticket sales period: ${period}\nTickets sold: ${data.tickets}\nAmount earned: ${money(data.gross, c)}`,
      money(data.amount, c),
    ],
    y,
  );
  const labelX = MARGIN + 200;
  doc
    .moveTo(labelX, y)
    .lineTo(doc.page.width - MARGIN, y)
    .strokeColor('#c1ced9')
    .stroke();
  y += 6;
  const totals: [string, string][] = [
    ['Sub-total', money(data.amount, c)],
    ['Tax (n/a)', money(0, c)],
    ['Grand total', money(data.amount, c)],
  ];
  for (const [i, [label, value]] of totals.entries()) {
    doc
      .font(i === totals.length - 1 ? 'bold' : 'regular')
      .fontSize(10)
      .fillColor('#000000')
      .text(label, labelX, y, { width: 190, align: 'right' });
    doc.text(value, labelX + 200, y, { width: width - 200 - (labelX - MARGIN), align: 'right' });
    y = doc.y + 4;
  }
  doc
    .font('regular')
    .fontSize(9)
    .fillColor(GREY)
    .text(
      'Reverse charge: the recipient of the service is liable for VAT. ' +
        `Please pay within 30 days of the invoice date; quote ${data.identifier} with your payment.`,
      MARGIN,
      y + 30,
      { width },
    );
  doc.end();
  return bytes;
}
