import { and, desc, eq } from 'drizzle-orm';
import { ticketFees } from '../../../db/schema/index.js';
import type { Db } from '../../../plugins/db.js';

export interface TicketFee {
  /** Percent of an order, 0 to 100. */
  serviceFee: number;
  /** The most the fee takes of an order. */
  maximumFee: number;
}

/**
 * The platform's fee on the sales of an event that sells in `currency` in `country` (the event's payment currency and
 * country), as the reference's get_fee finds it: the fee of exactly that currency and country, else none. Takes the
 * caller's transaction (or the pool), so an order computed in a transaction reads the fee it commits with.
 */
export async function ticketFeeFor(db: Db, currency: string, country: string): Promise<TicketFee | undefined> {
  const [fee] = await db
    .select({ serviceFee: ticketFees.serviceFee, maximumFee: ticketFees.maximumFee })
    .from(ticketFees)
    .where(and(eq(ticketFees.currency, currency), eq(ticketFees.country, country)))
    .orderBy(desc(ticketFees.id))
    .limit(1);
  return fee;
}
