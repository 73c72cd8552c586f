/**
 * Ticket PDFs, one page per ticket holder, as the reference's pdf/ticket_attendee.html: the event, the ticket, where
 * and when (in the event's time zone), the holder, the order, the price and a QR code of the holder's identifier
 * that the check-in scans.
 */
import { orderAmounts } from '../invoice-amounts.js';
import type { Holder, OrderDocument } from './load.js';
import { breathe, drawQr, GREY, inZone, MARGIN, money, newDocument, type Pdf } from './pdf.js';

const QR_SIZE = 170;

/** Where the event takes place, in the reference's words. */
function whereText(event: OrderDocument['event']): string {
  const place = event.locationName?.trim();
  if (event.online && place) return `Event taking place online and at ${place}.`;
  if (event.online) return 'Event taking place online.';
  if (place) return `Event taking place at ${place}.`;
  return 'Location or online event details to be announced.';
}

/** What the holder's ticket costs after the order's discount, and the code that lowered it. */
function priceText(data: OrderDocument, holder: Holder): string {
  const line = orderAmounts([holder], { discount: data.discount, tax: null, fee: null }).lines[0]!;
  if (line.price === 0) return 'Free';
  const paid = money(line.price - (line.discount?.amount ?? 0), data.event.currency);
  return line.discount ? `${paid} (discount code ${line.discount.code})` : paid;
}

function field(doc: Pdf, label: string, value: string, x: number, y: number, width: number): number {
  doc.font('regular').fontSize(8).fillColor(GREY).text(label.toUpperCase(), x, y, { width });
  doc
    .font('bold')
    .fontSize(11)
    .fillColor('#000000')
    .text(value, x, doc.y + 2, { width });
  return doc.y;
}

function ticketPage(doc: Pdf, data: OrderDocument, holder: Holder) {
  const { event } = data;
  doc.addPage();
  const right = doc.page.width - MARGIN;
  const width = right - MARGIN;
  doc
    .font('bold')
    .fontSize(12)
    .fillColor(GREY)
    .text(data.appName, MARGIN, MARGIN, { width: width / 2 });
  doc
    .font('regular')
    .fontSize(9)
    .text(`Order ${data.order.identifier}`, MARGIN + width / 2, MARGIN + 2, {
      width: width / 2,
      align: 'right',
    });
  doc
    .moveTo(MARGIN, MARGIN + 22)
    .lineTo(right, MARGIN + 22)
    .strokeColor('#c1ced9')
    .stroke();

  const top = MARGIN + 40;
  const textWidth = width - QR_SIZE - 20;
  doc.font('bold').fontSize(22).fillColor('#000000').text(event.name, MARGIN, top, { width: textWidth });
  doc
    .font('bold')
    .fontSize(14)
    .fillColor(GREY)
    .text(holder.ticketName, MARGIN, doc.y + 6, { width: textWidth });
  doc
    .font('regular')
    .fontSize(10)
    .fillColor('#000000')
    .text(whereText(event), MARGIN, doc.y + 10, { width: textWidth });
  doc.text(`From: ${inZone(event.startsAt, event.timezone)}`, MARGIN, doc.y + 6, { width: textWidth });
  doc.text(`To: ${inZone(event.endsAt, event.timezone)}`, { width: textWidth });

  const qrX = right - QR_SIZE;
  drawQr(doc, holder.identifier, qrX, top, QR_SIZE);
  doc
    .font('regular')
    .fontSize(7)
    .fillColor(GREY)
    .text(holder.identifier, qrX, top + QR_SIZE + 4, {
      width: QR_SIZE,
      align: 'center',
    });

  let y = Math.max(doc.y, top + QR_SIZE + 20) + 20;
  const half = width / 2 - 10;
  const rowEnd = (a: number, b: number) => Math.max(a, b) + 14;
  y = rowEnd(
    field(doc, 'Ticket holder', holder.name, MARGIN, y, half),
    field(doc, 'Email', holder.email ?? '', MARGIN + width / 2, y, half),
  );
  y = rowEnd(
    field(doc, 'Order', data.order.identifier, MARGIN, y, half),
    field(doc, 'Price', priceText(data, holder), MARGIN + width / 2, y, half),
  );
  field(doc, 'Ticket', holder.identifier, MARGIN, y, width);
  const message = event.afterOrderMessage?.trim();
  if (message)
    doc
      .font('regular')
      .fontSize(10)
      .fillColor('#000000')
      .text(message, MARGIN, doc.y + 30, { width });
}

/** The tickets of `holders` (of the order `data`), one page each, as one PDF. */
export async function ticketsPdf(data: OrderDocument, holders: Holder[]): Promise<Buffer> {
  const { doc, bytes } = newDocument(`${data.event.name}: tickets of order ${data.order.identifier}`, data.appName);
  for (const [i, holder] of holders.entries()) {
    if (i > 0) await breathe();
    ticketPage(doc, data, holder);
  }
  doc.end();
  return bytes;
}
