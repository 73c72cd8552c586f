/**
 * The checkout of the Open Event front end (app/components/public/ticket-list.js, app/controllers/public/index.js,
 * app/controllers/events/view/tickets/add-order.js): `POST /v1/orders/calculate-amount` prices ticket quantities and
 * a code, `POST /v1/orders/create-order` reserves them as an order of blank ticket holders that the buyer then fills
 * in (app/controllers/orders/new.js). Both compute every amount from the records (amounts.ts); create-order does it
 * in the transaction that locks the tickets, so that concurrent checkouts never sell more than a ticket's quantity.
 */
import { randomUUID } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { attendees, orders } from '../../../db/schema/index.js';
import { loggedIn, requireLogin } from '../../auth/caller.js';
import { API_PREFIX, errorResponses, MEDIA_TYPE } from '../../jsonapi/index.js';
import { CheckoutInput, OrderAmountSchema } from './checkout-input.js';
import { scheduleExpiry } from './expiry.js';
import { calculateAmount, reserveLines } from './reserve.js';

/**
 * Reserves the lines as a new initializing order of the caller, in one transaction (reserveLines): the order, its
 * blank ticket holders and the job that expires it are written. Answers the order's id.
 */
export async function createOrder(
  app: FastifyInstance,
  request: FastifyRequest,
  input: CheckoutInput,
): Promise<number> {
  const caller = loggedIn(request);
  return app.db.transaction(async (tx) => {
    const reserved = await reserveLines({ caller, db: tx, request }, input);
    const { amount, eventId } = reserved;
    const [order] = await tx
      .insert(orders)
      .values({
        identifier: randomUUID(),
        amount: amount.total,
        status: 'initializing',
        paymentMode: amount.total === 0 ? 'free' : null,
        eventId,
        userId: caller.id,
        discountCodeId: reserved.discountCodeId,
        marketerId: reserved.marketerId,
        accessCodeId: reserved.accessCodeId,
      })
      .returning({ id: orders.id, createdAt: orders.createdAt });
    await tx.insert(attendees).values(reserved.holders(order!.id));
    await scheduleExpiry(app, tx, order!.id, order!.createdAt);
    return order!.id;
  });
}

/** `POST /v1/orders/calculate-amount` and `POST /v1/orders/create-order`. */
export default async function checkoutRoutes(app: FastifyInstance) {
  app.addSchema(CheckoutInput);
  app.addSchema(OrderAmountSchema);
  app.post(
    `${API_PREFIX}/orders/calculate-amount`,
    {
      onRequest: (request) => app.authenticate(request),
      schema: {
        tags: ['Orders'],
        operationId: 'calculateOrderAmount',
        summary: 'What ticket quantities cost',
        description:
          "Prices ticket lines of one event as an order would: each ticket's price (a donation's amount within its " +
          "range), a discount code's reduction (its tickets, while it has uses left), the platform's service fee, the " +
          "event's tax. Nothing is stored. Anyone may ask for the tickets they may see (a draft's: its team only); an " +
          'unknown ticket or code is 422.',
        security: [],
        consumes: ['application/json'],
        body: Type.Ref(CheckoutInput),
        response: {
          200: Type.Ref(OrderAmountSchema, { description: 'The amounts' }),
          ...errorResponses([400, 401, 413, 415, 422], {
            401: 'The token sent is invalid or expired (none is needed)',
          }),
        },
      },
    },
    async (request) => calculateAmount({ caller: request.caller, db: app.db, request }, request.body as CheckoutInput),
  );
  app.post(
    `${API_PREFIX}/orders/create-order`,
    {
      onRequest: requireLogin(app),
      schema: {
        tags: ['Orders'],
        operationId: 'createOrderFromTickets',
        summary: 'Reserve tickets as a new order',
        description:
          'Reserves ticket lines as an initializing order of the caller, with one blank ticket holder per ticket for the ' +
          'buyer to fill in, priced as calculate-amount prices them. Every ticket must be on sale (organizers excepted), ' +
          "each quantity within the ticket's order limits and what is left (409 otherwise: checkouts at the same time " +
          'never sell more than the quantity). The order expires after the order expiry time of the settings unless it ' +
          'is completed or placed, and its tickets are free again.',
        consumes: ['application/json'],
        body: Type.Ref(CheckoutInput),
        response: {
          200: { description: 'The new order', content: { [MEDIA_TYPE]: { schema: Type.Ref('OrderDocument') } } },
          ...errorResponses([400, 401, 409, 413, 415, 422]),
        },
      },
    },
    async (request, reply) => {
      const id = await createOrder(app, request, request.body as CheckoutInput);
      const answer = await app.inject({
        method: 'GET',
        url: `${API_PREFIX}/orders/${id}`,
        headers: { authorization: request.headers.authorization!, accept: 'application/vnd.api+json' },
      });
      return reply.code(200).type('application/vnd.api+json').send(answer.body);
    },
  );
}
