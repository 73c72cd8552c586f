import type { Attendee } from '../../../db/schema/index.js';
import { escapeHtml } from '../../html.js';
import type { OutgoingMail } from '../../../plugins/mailer.js';

export interface ReceiptOrder {
  identifier: string;
  amount: number;
  paymentMode: string | null;
  completedAt: Date | null;
  attendees: Attendee[];
  eventName: string;
  eventStartsAt: Date;
  buyerEmail: string;
  buyerName: string | null;
}

const money = (amount: number) => amount.toFixed(2);
const when = (date: Date | null) => (date ? `${date.toISOString().replace('T', ' ').slice(0, 16)} UTC` : '');

/** The receipt document attached to every receipt mail: a self-contained HTML page. */
export function receiptHtml(order: ReceiptOrder): string {
  const e = escapeHtml;
  const rows = order.attendees
    .map((a, i) => `<tr><td>${i + 1}</td><td>${e(a.name)}</td><td>${e(a.email)}</td></tr>`)
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Receipt ${e(order.identifier)}</title></head>
<body>
<h1>Receipt</h1>
<p>Event: <strong>${e(order.eventName)}</strong>, starting ${e(when(order.eventStartsAt))}</p>
<p>Order: ${e(order.identifier)}<br>Completed: ${e(when(order.completedAt))}<br>Payment: ${e(order.paymentMode ?? 'not chosen')}</p>
<table><thead><tr><th>#</th><th>Attendee</th><th>Email</th></tr></thead>
<tbody>
${rows}
</tbody></table>
<p>Total: <strong>${money(order.amount)}</strong></p>
</body></html>
`;
}

/** The receipt mails: the buyer's, and one per other attendee address (each address once). */
export function receiptMails(order: ReceiptOrder): OutgoingMail[] {
  const attachment = {
    filename: `receipt-${order.identifier}.html`,
    content: receiptHtml(order),
    contentType: 'text/html; charset=utf-8',
  };
  const tickets = order.attendees.map((a) => `  - ${a.name} <${a.email}>`).join('\n');
  const summary = `Order ${order.identifier} for ${order.eventName}\nTickets:\n${tickets}\nTotal: ${money(order.amount)}\n`;
  const buyer: OutgoingMail = {
    to: { name: order.buyerName ?? '', address: order.buyerEmail },
    subject: `Your receipt for ${order.eventName} (order ${order.identifier})`,
    action: 'receipt',
    text: `Thank you for your order.\n\n${summary}\nThe receipt is attached.\n`,
    attachments: [attachment],
  };
  const seen = new Set([order.buyerEmail.toLowerCase()]);
  const others: OutgoingMail[] = [];
  for (const attendee of order.attendees) {
    const key = attendee.email.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    others.push({
      to: { name: attendee.name, address: attendee.email },
      subject: `Your ticket for ${order.eventName} (order ${order.identifier})`,
      action: 'receipt-attendee',
      text: `Hello ${attendee.name},\n\nyou hold a ticket for ${order.eventName}.\n\n${summary}\nThe receipt is attached.\n`,
      attachments: [attachment],
    });
  }
  return [buyer, ...others];
}
