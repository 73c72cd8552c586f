/**
 * The monthly invoices of the platform's ticket fees (the reference's send_monthly_event_invoice and
 * EventInvoice.populate/generate_pdf): for a month that has ended, each live event with an owner and completed sales
 * not billed yet (completed before the month's end: a month under the minimum, or one no run billed, is carried into
 * the next invoice, as the reference bills from its last invoice) gets one invoice, its amount computed here from
 * those orders and the ticket fee of the event's currency and country; the orders name it. Safe to run twice or at
 * once: a transaction-scoped advisory lock serialises the billing (which orders, how much, the number), and the
 * unique (event, month) index keeps one invoice per event and month. The PDFs are made after the rows, for every invoice of
 * the month still without one, so a run that stopped half-way is completed by the next.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../../plugins/db.js';
import { GLOBAL } from '../ticket-fees/index.js';
import { invoicePdf, type InvoiceDocument } from './pdf.js';

/** Days after it is issued that an invoice is due (the reference's DUE_DATE_DAYS). */
export const DUE_DATE_DAYS = 30;
/** No invoice below this amount (the reference's MIN_AMOUNT): the orders wait for an invoice that reaches it. */
export const MIN_AMOUNT = 2;
/** The lock every run of the numbering takes (pg_advisory_xact_lock's key). */
const NUMBERING_LOCK = 4_301_001;

const MONTH = /^([0-9]{4})-(0[1-9]|1[0-2])$/;

/** The first instant (UTC) of `month` (`YYYY-MM`) and of the month after it. */
export function monthRange(month: string): { start: Date; end: Date } {
  const m = MONTH.exec(month);
  if (!m) throw new Error(`not a month: ${month}`);
  const year = Number(m[1]);
  const index = Number(m[2]) - 1;
  return { start: new Date(Date.UTC(year, index, 1)), end: new Date(Date.UTC(year, index + 1, 1)) };
}

export const isMonth = (value: string) => MONTH.test(value);

/** `YYYY-MM` of the month before the one `now` is in (UTC): the month a run on the 1st bills. */
export function previousMonth(now = new Date()): string {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  return d.toISOString().slice(0, 7);
}

/** The fee of an event's sales: the percent of its gross, at most the maximum, rounded to cents (half up). */
export function feeOf(gross: number, fee: { serviceFee: number; maximumFee: number }): number {
  const grossCents = Math.round(gross * 100);
  const cents = Math.min(Math.round((grossCents * fee.serviceFee) / 100), Math.round(fee.maximumFee * 100));
  return cents / 100;
}

interface Candidate extends Record<string, unknown> {
  event_id: number;
  owner_id: number;
  service_fee: string | null;
  maximum_fee: string | null;
}

/** Completed live orders (of the event `eventId`, or of any) that no invoice billed, completed before `end`. */
const unbilled = (end: Date, eventId?: number) =>
  sql`orders.status = 'completed' and orders.deleted_at is null and orders.event_invoice_id is null
    and orders.completed_at < ${end.toISOString()}::timestamptz
    ${eventId === undefined ? sql`` : sql`and orders.event_id = ${eventId}`}`;

/**
 * Live events with an owner and completed live orders not billed before the month's end, with the ticket fee that
 * applies: the event's currency and country, else the global fee (of the currency, or of none).
 */
const candidates = (db: Db, end: Date) =>
  db.execute<Candidate>(sql`
    select e.id as event_id, e.owner_id, f.service_fee, f.maximum_fee
    from (select orders.event_id from orders
          where ${unbilled(end)}
          group by orders.event_id) s
    join events e on e.id = s.event_id and e.deleted_at is null and e.owner_id is not null
    left join lateral (
      select tf.service_fee, tf.maximum_fee from ticket_fees tf
      where (tf.currency = coalesce(e.payment_currency, '') and tf.country = e.payment_country)
         or (tf.country = ${GLOBAL} and tf.currency in (coalesce(e.payment_currency, ''), ''))
      order by (tf.country = ${GLOBAL}), (tf.currency = ''), tf.id desc limit 1) f on true
    order by e.id`);

/** `YYYYMMU-000001`: the month it is issued in, and the count of every invoice ever made, plus one. */
async function nextIdentifier(tx: Db, issuedAt: Date): Promise<string> {
  const prefix = `${issuedAt.toISOString().slice(0, 7).replace('-', '')}U-`;
  const [row] = await tx.execute<{ n: number }>(sql`select count(*)::int as n from event_invoices`);
  for (let n = (row?.n ?? 0) + 1; ; n++) {
    const identifier = `${prefix}${String(n).padStart(6, '0')}`;
    const [taken] = await tx.execute(sql`select 1 from event_invoices where identifier = ${identifier}`);
    if (!taken) return identifier;
  }
}

/** Creates the invoice of one event for the month unless it exists; answers its identifier when it made one. */
async function issueOne(db: Db, c: Candidate, month: string, issuedAt: Date): Promise<string | undefined> {
  const { end } = monthRange(month);
  if (c.service_fee === null || c.maximum_fee === null) return undefined;
  const fee = { serviceFee: Number(c.service_fee), maximumFee: Number(c.maximum_fee) };
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${NUMBERING_LOCK})`);
    const [exists] = await tx.execute(
      sql`select 1 from event_invoices where event_id = ${c.event_id} and month = ${month}`,
    );
    if (exists) return undefined;
    // Under the lock: what another run billed meanwhile is not billed again.
    const [sales] = await tx.execute<{ gross: string }>(
      sql`select coalesce(sum(orders.amount), 0) as gross from orders where ${unbilled(end, c.event_id)}`,
    );
    const amount = feeOf(Number(sales?.gross ?? 0), fee);
    if (amount < MIN_AMOUNT) return undefined;
    const identifier = await nextIdentifier(tx, issuedAt);
    const inserted = await tx.execute(sql`
      insert into event_invoices (identifier, amount, user_id, event_id, month, issued_at, status)
      values (${identifier}, ${amount}, ${c.owner_id}, ${c.event_id}, ${month}, ${issuedAt.toISOString()}::timestamptz, 'due')
      on conflict do nothing returning id`);
    const invoice = inserted[0]?.id;
    if (invoice === undefined) return undefined;
    // The orders it bills name it (the order's event-invoice): those its amount was computed from.
    await tx.execute(sql`update orders set event_invoice_id = ${invoice} where ${unbilled(end, c.event_id)}`);
    return identifier;
  });
}

export interface MonthRun {
  month: string;
  /** Identifiers of the invoices this run made. */
  issued: string[];
  /** Invoices of the month that existed before. */
  existing: number;
}

/** Issues the month's invoices (see the file's comment) and makes the PDFs still missing. */
export async function issueMonth(app: FastifyInstance, month: string): Promise<MonthRun> {
  const { end } = monthRange(month);
  const [before] = await app.db.execute<{ n: number }>(
    sql`select count(*)::int as n from event_invoices where month = ${month}`,
  );
  const issued: string[] = [];
  for (const c of await candidates(app.db, end)) {
    const identifier = await issueOne(app.db, c, month, end);
    if (identifier) issued.push(identifier);
  }
  await makeMissingPdfs(app, month);
  return { month, issued, existing: before?.n ?? 0 };
}

/** What an invoice's PDF shows, read from its records. */
async function documentOf(db: Db, id: number): Promise<InvoiceDocument | undefined> {
  const [row] = await db.execute<Record<string, unknown>>(sql`
    select i.identifier, i.amount, i.month, i.issued_at, e.name as event_name, e.identifier as event_identifier,
      coalesce(e.payment_currency, '') as currency, e.timezone, u.email, u.first_name, u.last_name, u.company,
      u.billing_contact_name, u.billing_address, u.billing_city, u.billing_state, u.billing_zip_code,
      u.billing_country, u.billing_tax_info,
      s.app_name, s.admin_company, s.admin_billing_contact_name, s.admin_billing_address, s.admin_billing_city,
      s.admin_billing_state, s.admin_billing_zip, s.admin_billing_country, s.admin_billing_phone,
      s.admin_billing_email, s.admin_billing_tax_info,
      f.gross, f.tickets, f.first_at, f.last_at, fee.service_fee
    from event_invoices i
    join events e on e.id = i.event_id
    left join users u on u.id = i.user_id
    left join settings s on s.id = 1
    left join lateral (
      select coalesce(sum(o.amount), 0) as gross, min(o.completed_at) as first_at, max(o.completed_at) as last_at,
        (select count(*)::int from attendees a join orders o2 on o2.id = a.order_id
          where o2.event_invoice_id = i.id and a.deleted_at is null) as tickets
      from orders o where o.event_invoice_id = i.id) f on true
    left join lateral (
      select tf.service_fee from ticket_fees tf
      where (tf.currency = coalesce(e.payment_currency, '') and tf.country = e.payment_country)
         or (tf.country = ${GLOBAL} and tf.currency in (coalesce(e.payment_currency, ''), ''))
      order by (tf.country = ${GLOBAL}), (tf.currency = ''), tf.id desc limit 1) fee on true
    where i.id = ${id}`);
  if (!row) return undefined;
  const text = (key: string) =>
    typeof row[key] === 'string' && (row[key] as string).trim() !== '' ? (row[key] as string) : null;
  const date = (key: string) => (row[key] ? new Date(row[key] as string) : null);
  const issuedAt = new Date(row.issued_at as string);
  return {
    identifier: row.identifier as string,
    amount: Number(row.amount),
    month: row.month as string,
    issuedAt,
    dueAt: new Date(issuedAt.getTime() + DUE_DATE_DAYS * 86_400_000),
    currency: (row.currency as string) || '',
    timezone: (row.timezone as string) || 'UTC',
    event: { name: row.event_name as string, identifier: row.event_identifier as string },
    gross: Number(row.gross),
    tickets: Number(row.tickets ?? 0),
    firstSale: date('first_at'),
    lastSale: date('last_at'),
    serviceFee: row.service_fee === null ? null : Number(row.service_fee),
    seller: {
      name: text('admin_company') ?? text('app_name') ?? 'Open Event',
      rows: [
        ['Contact', text('admin_billing_contact_name')],
        ['Address', text('admin_billing_address')],
        ['City', text('admin_billing_city')],
        ['State', text('admin_billing_state')],
        ['ZIP', text('admin_billing_zip')],
        ['Country', text('admin_billing_country')],
        ['Phone', text('admin_billing_phone')],
        ['Email', text('admin_billing_email')],
        ['Tax ID', text('admin_billing_tax_info')],
      ],
    },
    client: [
      ['Organisation', text('company')],
      [
        'Client',
        text('billing_contact_name') ?? ([text('first_name'), text('last_name')].filter(Boolean).join(' ') || null),
      ],
      ['Address', text('billing_address')],
      ['City', text('billing_city')],
      ['State', text('billing_state')],
      ['ZIP', text('billing_zip_code')],
      ['Country', text('billing_country')],
      ['Email', text('email')],
      ['Tax ID', text('billing_tax_info')],
    ],
  };
}

/** Makes and stores the PDF of each invoice of the month that has none yet, and records its URL. */
export async function makeMissingPdfs(app: FastifyInstance, month: string): Promise<void> {
  const missing = await app.db.execute<{ id: number }>(
    sql`select id from event_invoices where month = ${month} and invoice_pdf_url is null and deleted_at is null order by id`,
  );
  for (const { id } of missing) {
    const data = await documentOf(app.db, id);
    if (!data) continue;
    const body = await invoicePdf(data);
    const backend = await app.storage.select();
    // An unguessable folder: the front end links the file as it is (no token), as the reference's uploads did.
    const key = `invoices/events/${randomBytes(16).toString('hex')}/${data.identifier}.pdf`;
    const url = await backend.put(key, body, 'application/pdf');
    await app.db.execute(
      sql`update event_invoices set invoice_pdf_url = ${url} where id = ${id} and invoice_pdf_url is null`,
    );
  }
}
