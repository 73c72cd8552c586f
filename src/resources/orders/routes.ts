import { Type } from '@sinclair/typebox';
import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { events, orders, ORDER_STATUSES } from '../../../db/schema/index.js';
import { loggedIn, requireLogin } from '../../auth/caller.js';
import { API_PREFIX, errorResponses, hasNul, notFound } from '../../jsonapi/index.js';
import { choice } from '../attributes.js';
import { handlesOrder } from './policy.js';

const VerifyResponse = Type.Object(
  {
    payment_status: choice(ORDER_STATUSES, 'the status of the order'),
  },
  { $id: 'OrderVerifyResponse', additionalProperties: false },
);

/**
 * `POST /v1/orders/{identifier}/verify`: the reference asks its payment provider whether the order's payment
 * went through and completes the order if so (app/api/custom/orders.py); the front end posts it before showing
 * an order (app/routes/orders/view.js, pending.js). No payment provider is configured here, so no payment can
 * have completed behind the service's back: the answer is the order's status as stored.
 */
export default async function orderRoutes(app: FastifyInstance) {
  app.addSchema(VerifyResponse);
  app.post(
    `${API_PREFIX}/orders/:identifier/verify`,
    {
      onRequest: requireLogin(app),
      schema: {
        tags: ['Orders'],
        operationId: 'verifyOrderPayment',
        summary: "An order's payment status",
        description:
          'Answers the status of the order after checking its payment with the provider; no online payment provider is ' +
          'configured, so it is the stored status. Only the buyer, the organizers and coorganizers of the event and ' +
          'administrators may ask (the reference answered anyone); others get 404, as if the order did not exist.',
        params: Type.Object({ identifier: Type.String({ maxLength: 64, description: 'the order identifier' }) }),
        response: {
          200: Type.Ref(VerifyResponse, { description: 'The status of the order' }),
          // 415: a body of a type the service does not read (it takes none).
          ...errorResponses([400, 401, 404, 415], { 404: 'No order the caller may see has this identifier' }),
        },
      },
    },
    async (request) => {
      const caller = loggedIn(request);
      const { identifier } = request.params as { identifier: string };
      if (hasNul(identifier)) throw notFound('Order not found');
      const [order] = await app.db
        .select({ status: orders.status, userId: orders.userId, eventId: orders.eventId })
        .from(orders)
        .innerJoin(events, eq(events.id, orders.eventId))
        .where(and(eq(orders.identifier, identifier), isNull(orders.deletedAt), isNull(events.deletedAt)))
        .limit(1);
      if (!order || !(await handlesOrder({ caller, db: app.db, request }, order))) throw notFound('Order not found');
      return { payment_status: order.status };
    },
  );
}
