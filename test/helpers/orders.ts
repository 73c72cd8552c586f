/**
 * Orders made as buyers and organizers make them: the server computes every amount, so a test that needs an order
 * of some amount and status reserves tickets through `POST /v1/orders/create-order` and moves the order on through
 * the status rules (a paid order is placed with an offline method and marked paid by the organizers).
 */
import type { FastifyInstance } from 'fastify';
import { call } from './app.js';

export type SaleStatus = 'initializing' | 'pending' | 'placed' | 'completed' | 'cancelled';
export type OfflineMode = 'bank' | 'cheque' | 'invoice' | 'onsite';

/** The event's flag that accepts each offline payment method. */
const FLAG: Record<OfflineMode, string> = {
  bank: 'can-pay-by-bank',
  cheque: 'can-pay-by-cheque',
  invoice: 'can-pay-by-invoice',
  onsite: 'can-pay-onsite',
};

/** Who moves an order on: the buyer, and the organizers for what is theirs (accepting a method, marking paid). */
export interface Movers {
  buyer: { token: string };
  organizerToken: string;
  /** How a paid order is paid (default bank); the event is set to accept it. */
  mode?: OfflineMode;
}

export interface SellOptions extends Movers {
  ticketId: string;
  quantity?: number;
  /** More lines of the same order: other tickets of the event, with their quantities. */
  more?: { id: string; quantity: number }[];
  /** What the order becomes (default completed). */
  status?: SaleStatus;
  /** The order's attendees member (where receipts go), written by the buyer while the order is open. */
  attendees?: { name: string; email: string }[];
  /** A donation's amount per ticket. */
  price?: number;
  discountCode?: string;
}

export interface Sale {
  id: string;
  identifier: string;
  amount: number;
  status: SaleStatus;
  event: string;
  /** The ids of the order's ticket holders (attendee records). */
  holders: string[];
}

const fail = (what: string, res: { status: number; body: unknown }): never => {
  throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
};

/** PATCHes the order's attributes as `token`, failing loudly unless 200. */
async function patchOrder(app: FastifyInstance, token: string, id: string, attributes: Record<string, unknown>) {
  const res = await call(app, {
    method: 'PATCH',
    url: `/v1/orders/${id}`,
    token,
    body: { data: { type: 'order', id, attributes } },
  });
  if (res.status !== 200) fail(`order ${id} ${JSON.stringify(attributes)}`, res);
  return res.body.data;
}

/** Sets the event to accept an offline payment method, as its organizers do. */
export async function acceptPayment(app: FastifyInstance, token: string, event: string, mode: OfflineMode = 'bank') {
  const res = await call(app, {
    method: 'PATCH',
    url: `/v1/events/${event}`,
    token,
    body: { data: { type: 'event', id: event, attributes: { [FLAG[mode]]: true } } },
  });
  if (res.status !== 200) fail(`event ${event} accepting ${mode}`, res);
}

/** POST /v1/orders/create-order as the front end posts it; the answer as is. */
export const createOrder = (app: FastifyInstance, token: string | undefined, body: unknown) =>
  call(app, {
    method: 'POST',
    url: '/v1/orders/create-order',
    token,
    body,
    headers: { 'content-type': 'application/json' },
  });

/**
 * Moves an open order (initializing) to `status`: pending or cancelled by the buyer, or paid: a free order completed
 * by the buyer, a paid one placed by the buyer with an offline method the event accepts, then completed (marked paid)
 * by the organizers.
 */
export async function moveOrder(app: FastifyInstance, sale: Sale, status: SaleStatus, movers: Movers): Promise<Sale> {
  const { buyer, organizerToken, mode = 'bank' } = movers;
  const { id, amount } = sale;
  if (status === 'pending' || status === 'cancelled') await patchOrder(app, buyer.token, id, { status });
  else if (status === 'completed' && amount === 0) await patchOrder(app, buyer.token, id, { status });
  else if (status === 'placed' || status === 'completed') {
    if (amount === 0) throw new Error(`order ${id} costs nothing: it is completed, never placed`);
    await acceptPayment(app, organizerToken, sale.event, mode);
    await patchOrder(app, buyer.token, id, { 'payment-mode': mode, status: 'placed' });
    if (status === 'completed') await patchOrder(app, organizerToken, id, { status: 'completed' });
  }
  return { ...sale, status };
}

/**
 * Sells `quantity` (default 1) of a ticket to the buyer through create-order (an initializing order with one blank
 * ticket holder per ticket), writes the order's attendees when given, and moves the order to `status` (moveOrder).
 */
export async function sellTickets(app: FastifyInstance, options: SellOptions): Promise<Sale> {
  const { buyer, ticketId, quantity = 1, status = 'completed' } = options;
  const line = { id: ticketId, quantity, ...(options.price === undefined ? {} : { price: options.price }) };
  const made = await createOrder(app, buyer.token, {
    tickets: [line, ...(options.more ?? [])],
    ...(options.discountCode ? { 'discount-code': options.discountCode } : {}),
  });
  if (made.status !== 200) fail(`create-order of ${quantity} of ticket ${ticketId}`, made);
  const id = made.body.data.id as string;
  if (options.attendees) await patchOrder(app, buyer.token, id, { attendees: options.attendees });
  const holders = await app.sql<{ id: number }[]>`
    select id from attendees where order_id = ${Number(id)} order by id`;
  const sale: Sale = {
    id,
    identifier: made.body.data.attributes.identifier as string,
    amount: made.body.data.attributes.amount as number,
    status: 'initializing',
    event: made.body.data.relationships.event.data.id as string,
    holders: holders.map((h) => String(h.id)),
  };
  return moveOrder(app, sale, status, options);
}
