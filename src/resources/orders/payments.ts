/**
 * The payment-provider boundary. The reference takes payments through Stripe, PayPal, Paytm, Omise and AliPay
 * (app/api/helpers/payment.py); none of them can be reached from this service, and none is configured: an order
 * that would need one is refused with a 422 naming the method. Offline methods (bank transfer, cheque, invoice, on
 * site) need no provider: the buyer places the order, and the organizers mark it paid when the money arrives.
 */
import { eq } from 'drizzle-orm';
import { events } from '../../../db/schema/index.js';
import type { Db } from '../../../plugins/db.js';
import { unprocessable } from '../../jsonapi/index.js';

/** Methods that need a payment provider, with their names and the event's flag that offers them. */
export const ONLINE_METHODS: Record<string, string> = {
  stripe: 'Stripe',
  paypal: 'PayPal',
  paytm: 'Paytm',
  omise: 'Omise',
  alipay: 'AliPay',
};

/** Methods the organizers settle themselves, with the event's flag that offers each. */
export const OFFLINE_METHODS = {
  bank: { name: 'bank transfer', flag: events.canPayByBank },
  cheque: { name: 'cheque', flag: events.canPayByCheque },
  invoice: { name: 'invoice', flag: events.canPayByInvoice },
  onsite: { name: 'payment on site', flag: events.canPayOnsite },
} as const;

export const isOffline = (mode: string | null | undefined): mode is keyof typeof OFFLINE_METHODS =>
  !!mode && mode in OFFLINE_METHODS;

const POINTER = '/data/attributes/payment-mode';

/** The 422 of a method whose provider is not configured here (at `pointer`, the order's payment-mode by default). */
export const notConfigured = (mode: string, pointer = POINTER) =>
  unprocessable(
    `Payments with ${ONLINE_METHODS[mode] ?? mode} are not configured on this server: pay by an offline method the event ` +
      'accepts (bank transfer, cheque, invoice, on site)',
    pointer,
  );

/**
 * Refuses a payment method that cannot settle an order of `amount` for the event: a free order is paid `free`, a
 * paid one by an offline method the event accepts; an online method answers that no provider is configured.
 */
export async function checkPaymentMode(db: Db, eventId: number, amount: number, mode: string | null) {
  if (mode === null) return;
  if (amount === 0) {
    if (mode !== 'free') throw unprocessable('An order of nothing to pay is paid `free`', POINTER);
    return;
  }
  if (mode === 'free') throw unprocessable(`The order costs ${amount.toFixed(2)}: it cannot be paid \`free\``, POINTER);
  if (mode in ONLINE_METHODS) throw notConfigured(mode);
  if (!isOffline(mode)) throw unprocessable(`Unknown payment method ${mode}`, POINTER);
  const method = OFFLINE_METHODS[mode];
  const [event] = await db.select({ accepts: method.flag }).from(events).where(eq(events.id, eventId));
  if (!event?.accepts) throw unprocessable(`The event does not accept ${method.name}`, POINTER);
}
