/**
 * The invoice of an order, as the reference's pdf/order_invoice.html: the seller (the event's tax record), the buyer
 * and their billing details, one line per ticket and price (quantity, unit price, discount, tax, fee) and the totals.
 * The total is the amount stored on the order; where it differs from the lines (an amount the organizers set), an
 * adjustment line says by how much.
 */
import { roundToCents, orderAmounts, type OrderAmounts } from '../invoice-amounts.js';
import type { OrderDocument } from './load.js';
import { dayInZone, GREY, MARGIN, money, newDocument, type Pdf } from './pdf.js';

const PAYMENT_MODES: Record<string, string> = {
  free: 'None (free)',
  stripe: 'Stripe',
  paypal: 'PayPal',
  bank: 'Bank transfer',
  cheque: 'Cheque',
  onsite: 'On site',
  omise: 'Omise',
  alipay: 'Alipay',
  paytm: 'Paytm',
  invoice: 'Purchase on invoice',
};

/** The reference's invoice number: `O`, the order's creation in Unix seconds, `-`, its id. */
export const invoiceNumber = (order: { createdAt: Date; id: number }) =>
  `O${Math.floor(order.createdAt.getTime() / 1000)}-${order.id}`;

const present = (rows: [string, string | null | undefined][]) =>
  rows.filter((r): r is [string, string] => typeof r[1] === 'string' && r[1].trim() !== '');

/**
 * The first page of an invoice: the seller's name, "Invoice" and the invoice's facts (`lines`) on the right; answers
 * the width between the margins.
 */
export function invoiceHeading(doc: Pdf, seller: string, lines: string[]): number {
  doc.addPage();
  const width = doc.page.width - 2 * MARGIN;
  doc
    .font('bold')
    .fontSize(14)
    .fillColor(GREY)
    .text(seller, MARGIN, MARGIN, { width: width / 2 });
  doc
    .font('bold')
    .fontSize(24)
    .fillColor('#000000')
    .text('Invoice', MARGIN + width / 2, MARGIN, { width: width / 2, align: 'right' });
  doc.font('regular').fontSize(9).fillColor(GREY);
  for (const text of lines) doc.text(text, MARGIN + width / 4, doc.y + 2, { width: (3 * width) / 4, align: 'right' });
  return width;
}

/** A party of an invoice (seller, buyer): its title and labelled rows; answers where it ends. */
export function party(doc: Pdf, title: string, rows: [string, string][], x: number, y: number, width: number): number {
  doc.font('bold').fontSize(10).fillColor(GREY).text(title.toUpperCase(), x, y, { width });
  for (const [label, value] of rows) {
    const at = doc.y + 3;
    doc
      .font('regular')
      .fontSize(8)
      .fillColor(GREY)
      .text(label, x, at + 1, { width: 70 });
    doc
      .font('regular')
      .fontSize(9)
      .fillColor('#000000')
      .text(value, x + 75, at, { width: width - 75 });
  }
  return doc.y;
}

function seller(data: OrderDocument): [string, string][] {
  const s = data.seller;
  const rows = present([
    ['Organisation', s?.registeredCompany],
    ['Contact', s?.contactName],
    ['Address', s?.address],
    ['City', s?.city],
    ['State', s?.state],
    ['ZIP', s?.zip],
    ['Country', s?.country],
    ['Phone', s?.phone],
    ['Email', s?.email],
    ['Tax ID', s?.taxId],
  ]);
  return rows.length > 0 ? rows : [['Event', data.event.name]];
}

function buyer(data: OrderDocument): [string, string][] {
  const o = data.order;
  return present([
    ['Name', data.buyer.name],
    ['Email', data.buyer.email],
    ['Organisation', o.company],
    ['Address', o.address],
    ['City', o.city],
    ['State', o.state],
    ['ZIP', o.zipcode],
    ['Country', o.country],
    ['Tax ID', o.taxBusinessInfo],
  ]);
}

const COLUMNS = [
  { title: 'Description', width: 175, align: 'left' as const },
  { title: 'Unit price', width: 70, align: 'right' as const },
  { title: 'Qty', width: 30, align: 'right' as const },
  { title: 'Discount', width: 75, align: 'right' as const },
  { title: 'Fee', width: 60, align: 'right' as const },
  { title: 'Sub-total', width: 85, align: 'right' as const },
];

/** `y`, or the top of a new page where less than `needed` points are left on this one. */
function room(doc: Pdf, y: number, needed: number): number {
  if (y + needed <= doc.page.height - MARGIN) return y;
  doc.addPage();
  return MARGIN;
}

function row(doc: Pdf, cells: string[], at: number, font: 'regular' | 'bold' = 'regular'): number {
  const y = room(doc, at, 40);
  doc.font(font).fontSize(9).fillColor('#000000');
  let x = MARGIN;
  let bottom = y;
  cells.forEach((text, i) => {
    const { width, align } = COLUMNS[i]!;
    doc.text(text, x, y, { width, align });
    bottom = Math.max(bottom, doc.y);
    x += width;
  });
  return bottom + 6;
}

function lines(doc: Pdf, data: OrderDocument, amounts: OrderAmounts, y: number): number {
  const c = data.event.currency;
  y = row(
    doc,
    COLUMNS.map((col) => col.title),
    y,
    'bold',
  );
  for (const line of amounts.lines) {
    const discount = line.discount
      ? `${line.discount.code}: −${money(line.discount.total, c)} (${line.discountedQuantity}×)`
      : '';
    const taxNote = amounts.tax
      ? `\n${amounts.tax.included ? 'incl.' : '+'} ${money(line.discountedTax, c)} ${amounts.tax.name} per ticket`
      : '';
    y = row(
      doc,
      [
        `Ticket: ${line.name} for ${data.event.name}, ${dayInZone(data.event.startsAt, data.event.timezone)}${taxNote}`,
        money(line.price, c),
        String(line.quantity),
        discount,
        line.fee ? money(line.fee, c) : '',
        money(line.subTotal, c),
      ],
      y,
    );
  }
  return y;
}

function totals(doc: Pdf, data: OrderDocument, amounts: OrderAmounts, y: number): number {
  const c = data.event.currency;
  const rows: [string, string][] = [['Sub-total', money(amounts.subTotal, c)]];
  if (amounts.discount > 0) rows.push(['Discounts (in the sub-total)', `−${money(amounts.discount, c)}`]);
  if (amounts.tax)
    rows.push([
      `${amounts.tax.name} ${amounts.tax.rate}%${amounts.tax.included ? ' (included)' : ''}`,
      money(amounts.tax.amount, c),
    ]);
  const adjustment = roundToCents(data.order.amount - amounts.total);
  if (adjustment !== 0) rows.push(['Adjustment by the organizer', money(adjustment, c)]);
  rows.push(['Total', money(data.order.amount, c)]);
  const labelX = MARGIN + 200;
  y = room(doc, y, rows.length * 16 + 10);
  doc
    .moveTo(labelX, y)
    .lineTo(doc.page.width - MARGIN, y)
    .strokeColor('#c1ced9')
    .stroke();
  y += 6;
  for (const [i, [label, value]] of rows.entries()) {
    const font = i === rows.length - 1 ? 'bold' : 'regular';
    doc.font(font).fontSize(10).fillColor('#000000').text(label, labelX, y, { width: 190, align: 'right' });
    doc.text(value, labelX + 200, y, { width: doc.page.width - MARGIN - labelX - 200, align: 'right' });
    y = doc.y + 4;
  }
  return y;
}

/** The order's invoice as a one-document PDF. */
export async function invoicePdf(data: OrderDocument): Promise<Buffer> {
  const { order, event } = data;
  const number = invoiceNumber(order);
  const { doc, bytes } = newDocument(`Invoice ${number}: ${event.name}`, data.appName);
  const width = invoiceHeading(doc, data.appName, [
    `Invoice number ${number}`,
    `Order ${order.identifier}`,
    `Date ${dayInZone(order.createdAt, event.timezone)}`,
    `Payment ${PAYMENT_MODES[order.paymentMode ?? 'free'] ?? order.paymentMode}, ${order.status}`,
  ]);
  const top = doc.y + 20;
  const half = width / 2 - 10;
  const bottom = Math.max(
    party(doc, 'Seller', seller(data), MARGIN, top, half),
    party(doc, 'Buyer', buyer(data), MARGIN + width / 2 + 10, top, half),
  );
  const amounts = orderAmounts(data.holders, data);
  let y = lines(doc, data, amounts, bottom + 30);
  y = totals(doc, data, amounts, y + 4);
  const footer = data.seller?.invoiceFooter?.trim();
  if (footer)
    doc
      .font('regular')
      .fontSize(9)
      .fillColor(GREY)
      .text(footer, MARGIN, y + 30, { width });
  doc.end();
  return bytes;
}
