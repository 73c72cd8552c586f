import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, numeric, pgTable, serial, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { stamp } from './columns.js';
import { events } from './events.js';
import { users } from './users.js';

export const ORDER_STATUSES = ['initializing', 'pending', 'placed', 'completed', 'cancelled', 'expired'] as const;
export const PAYMENT_MODES = [
  'free', 'stripe', 'paypal', 'bank', 'cheque', 'onsite', 'omise', 'alipay', 'paytm', 'invoice',
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
    paymentMode: varchar('payment_mode', { length: 16 }).notNull().default('free'),
    attendees: jsonb('attendees').$type<Attendee[]>().notNull().default([]),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    completedAt: stamp('completed_at'),
    createdAt: stamp('created_at').notNull().defaultNow(),
    deletedAt: stamp('deleted_at'),
  },
  (t) => [
    uniqueIndex('orders_identifier_unique').on(t.identifier),
    index('orders_event_index').on(t.eventId, t.createdAt),
    index('orders_user_index').on(t.userId, t.createdAt),
    check('orders_status', sql`${t.status} in (${inList(ORDER_STATUSES)})`),
    check('orders_payment_mode', sql`${t.paymentMode} in (${inList(PAYMENT_MODES)})`),
    check('orders_amount', sql`${t.amount} >= 0`),
  ],
);
