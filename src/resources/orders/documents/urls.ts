/**
 * The absolute URLs of an order's documents (routes.ts) as its records carry them, computed in the statement that reads
 * them from the service's public URL (PUBLIC_URL, as the schedule's URLs are): set only while the document can be
 * downloaded, that is for a live placed or completed order (ISSUED).
 */
import { sql, type SQL } from 'drizzle-orm';
import { orders } from '../../../../db/schema/index.js';
import { API_PREFIX, constant, type Columns } from '../../../jsonapi/index.js';
import { PUBLIC_URL_SETTING } from '../../../schedule/urls.js';
import { ISSUED } from './load.js';

const publicUrl = sql`current_setting(${PUBLIC_URL_SETTING}, true)`;
const issued = sql.join(ISSUED.map(constant), sql`, `);

/** An order's `tickets-pdf-url`: GET /v1/orders/{identifier}/tickets-pdf, once it has tickets to print. */
export const ticketsPdfUrl = (t: Columns): SQL =>
  sql`case when ${t.status} in (${issued}) and ${t.deletedAt} is null then
    ${publicUrl} || ${`${API_PREFIX}/orders/`} || ${t.identifier} || '/tickets-pdf' end`;

/** A ticket holder's `pdf-url`: GET /v1/orders/attendees/{id}.pdf, while its live order is placed or completed. */
export const holderPdfUrl = (t: Columns): SQL =>
  sql`case when ${t.deletedAt} is null and exists (select 1 from ${orders} where ${orders.id} = ${t.orderId}
      and ${orders.status} in (${issued}) and ${orders.deletedAt} is null) then
    ${publicUrl} || ${`${API_PREFIX}/orders/attendees/`} || ${t.id} || '.pdf' end`;
