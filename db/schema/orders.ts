import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  serial,
  text,
  uniqueIndex,
  varchar,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { stamp } from './columns.js';
import { eventInvoices } from './console.js';
import { events } from './events.js';
import { accessCodes, discountCodes } from './ticketing.js';
import { users } from './users.js';

export const ORDER_STATUSES = ['initializing', 'pending', 'placed', 'completed', 'cancelled', 'expired'] as const;
export const PAYMENT_MODES = [
  'free',
  'stripe',
  'paypal',
  'bank',
  'cheque',
  'onsite',
  'omise',
  'alipay',
  'paytm',
  'invoice',
] as const;

export interface Attendee {
  name: string;
  email: string;
}

const inList = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(', '));

export const orders = pgTable(
  'orders',
  {
    id: serial('id').primaryKey(),
    identifier: varchar('identifier', { length: 36 }).notNull(),
    amount: numeric('amount', { precision: 12, scale: 2, mode: 'number' }).notNull().default(0),
    status: varchar('status', { length: 16 }).notNull().default('initializing'),
    /** The organizers' message to the buyer when they cancel the order. */
    cancelNote: text('cancel_note'),
    // Null while the buyer of a paid order has not chosen how to pay.
    paymentMode: varchar('payment_mode', { length: 16 }).default('free'),
    attendees: jsonb('attendees').$type<Attendee[]>().notNull().default([]),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    company: varchar('company', { length: 255 }),
    taxBusinessInfo: varchar('tax_business_info', { length: 255 }),
    address: varchar('address', { length: 1024 }),
    city: varchar('city', { length: 255 }),
    state: varchar('state', { length: 255 }),
    country: varchar('country', { length: 255 }),
    zipcode: varchar('zipcode', { length: 32 }),
    isBillingEnabled: boolean('is_billing_enabled').notNull().default(false),
    // Card and payment details only a payment provider's answer fills in; this service takes no payments.
    expMonth: varchar('exp_month', { length: 2 }),
    expYear: varchar('exp_year', { length: 4 }),
    brand: varchar('brand', { length: 32 }),
    last4: varchar('last4', { length: 4 }),
    paidVia: varchar('paid_via', { length: 32 }),
    ticketsPdfUrl: text('tickets_pdf_url'),
    /** The organizers' notes on the order, comma-separated as the reference keeps them. */
    orderNotes: text('order_notes'),
    /** The payment provider's reference of the payment. */
    transactionId: varchar('transaction_id', { length: 255 }),
    marketerId: integer('marketer_id').references(() => users.id),
    discountCodeId: integer('discount_code_id').references((): AnyPgColumn => discountCodes.id),
    accessCodeId: integer('access_code_id').references((): AnyPgColumn => accessCodes.id),
    completedAt: stamp('completed_at'),
    /** The monthly invoice of the event's ticket fees that billed this order (set when the invoice is issued). */
    eventInvoiceId: integer('event_invoice_id').references((): AnyPgColumn => eventInvoices.id, {
      onDelete: 'set null',
    }),
    createdAt: stamp('created_at').notNull().defaultNow(),
    deletedAt: stamp('deleted_at'),
  },
  (t) => [
    uniqueIndex('orders_identifier_unique').on(t.identifier),
    index('orders_event_index').on(t.eventId, t.createdAt),
    index('orders_user_index').on(t.userId, t.createdAt),
    index('orders_discount_code_index').on(t.discountCodeId),
    index('orders_access_code_index').on(t.accessCodeId),
    check('orders_status', sql`${t.status} in (${inList(ORDER_STATUSES)})`),
    check('orders_payment_mode', sql`${t.paymentMode} in (${inList(PAYMENT_MODES)})`),
    check('orders_amount', sql`${t.amount} >= 0`),
  ],
);
