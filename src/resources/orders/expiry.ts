/**
 * Reservations end (app/api/helpers/order.py, set_expiry_for_order, of the reference): an order still initializing
 * after the settings' order expiry time, or still pending (a payment under way) 30 minutes after that, expires, and
 * its ticket holders go, so that their tickets are on sale again. create-order queues one delayed job per order;
 * the job expires the order when it is due, or looks again when it will be.
 */
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { attendees, orders } from '../../../db/schema/index.js';
import type { Db } from '../../../plugins/db.js';
import { defineJob } from '../../jobs/job.js';
import { expiresAt } from './policy.js';

export const ORDER_EXPIRY_QUEUE = 'order-expiry';

/** Minutes a pending order has beyond the expiry time (a payment under way), as the availability counts them. */
const PENDING_GRACE_MINUTES = 30;

/** The order's live ticket holders go: their tickets are on sale again. */
export async function releaseTickets(db: Db, orderId: number) {
  await db
    .update(attendees)
    .set({ deletedAt: sql`now()` })
    .where(and(eq(attendees.orderId, orderId), isNull(attendees.deletedAt)));
}

/** Queues the job that expires a new order when its time is up (in the order's transaction). */
export async function scheduleExpiry(app: FastifyInstance, db: Db, orderId: number, createdAt: Date) {
  const due = await expiresAt({ db }, createdAt);
  await app.sendJob(db, ORDER_EXPIRY_QUEUE, { orderId }, { startAfter: due });
}

/** Expires the order if it is still open past its time; answers when to look again, if it may still expire. */
export async function expireOrder(app: FastifyInstance, orderId: number): Promise<Date | undefined> {
  return app.db.transaction(async (tx) => {
    const [order] = await tx
      .select({ status: orders.status, createdAt: orders.createdAt })
      .from(orders)
      .where(and(eq(orders.id, orderId), isNull(orders.deletedAt)))
      .for('update');
    if (!order || (order.status !== 'initializing' && order.status !== 'pending')) return undefined;
    const due = await expiresAt({ db: tx }, order.createdAt);
    if (order.status === 'pending') due.setMinutes(due.getMinutes() + PENDING_GRACE_MINUTES);
    if (due > new Date()) return due;
    await tx.update(orders).set({ status: 'expired' }).where(eq(orders.id, orderId));
    await releaseTickets(tx, orderId);
    return undefined;
  });
}

/** The queue's worker: expires each order that is due, and looks again later at those that are not yet. */
export const orderExpiry = () =>
  defineJob<{ orderId: number }>({
    name: ORDER_EXPIRY_QUEUE,
    queue: { retryLimit: 10, retryDelay: 30, retryBackoff: true },
    handler: (app) => async (jobs) => {
      for (const job of jobs) {
        const later = await expireOrder(app, job.data.orderId);
        if (later) await app.boss.send(ORDER_EXPIRY_QUEUE, { orderId: job.data.orderId }, { startAfter: later });
      }
    },
  });
