/**
 * The payment provider's routes of an order (app/api/orders.py of the reference): `POST /v1/orders/{id}/charge`
 * (ChargeList: Stripe or PayPal charges the order's buyer) and `POST /v1/orders/{id}/create-paypal-payment` (PayPal
 * opens a payment for the front end to send the buyer to). No provider is configured here (payments.ts): after the
 * checks the reference makes of the order, both answer a 422 naming the provider, and nothing is charged or stored.
 */
import { Type } from '@sinclair/typebox';
import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { events, orders } from '../../../db/schema/index.js';
import { loggedIn } from '../../auth/caller.js';
import { API_PREFIX, conflict, hasNul, integerId, notFound, operation, unprocessable } from '../../jsonapi/index.js';
import { notConfigured, ONLINE_METHODS } from './payments.js';
import { handlesOrder } from './policy.js';

const Token = (description: string) =>
  Type.Optional(Type.Union([Type.String({ maxLength: 255 }), Type.Null()], { description }));
const Url = (description: string) => Type.Optional(Type.String({ maxLength: 2048, description }));

/** `data` of a request body: its type and attributes, nothing else. */
const document = (id: string, type: string, attributes: ReturnType<typeof Type.Object>) =>
  Type.Object(
    {
      data: Type.Object(
        { type: Type.Literal(type), attributes: Type.Optional(attributes) },
        { additionalProperties: false },
      ),
    },
    { $id: id, additionalProperties: false },
  );

const ChargeInput = document(
  'ChargeInput',
  'charge',
  Type.Object(
    {
      stripe: Token("the Stripe token of the buyer's card"),
      'paypal-payer-id': Token('the PayPal payer'),
      'paypal-payment-id': Token('the PayPal payment'),
      paypal_payer_id: Token('the PayPal payer, as the reference spelt it'),
      paypal_payment_id: Token('the PayPal payment, as the reference spelt it'),
    },
    { additionalProperties: false },
  ),
);

const PaypalPaymentInput = document(
  'PaypalPaymentInput',
  'paypal-payment',
  Type.Object(
    {
      'return-url': Url('where PayPal sends the buyer after paying'),
      'cancel-url': Url('where PayPal sends the buyer who gives up'),
      return_url: Url('return-url, as the reference spelt it'),
      cancel_url: Url('cancel-url, as the reference spelt it'),
    },
    { additionalProperties: false },
  ),
);

const params = Type.Object({
  identifier: Type.String({ maxLength: 64, description: 'the order identifier, or its id' }),
});

/**
 * The order the path names, for a caller who handles it (404 otherwise, as if it did not exist), if a provider could
 * still be paid for it: 409 for an order that is completed, cancelled or expired, or costs nothing.
 */
async function chargeableOrder(app: FastifyInstance, request: FastifyRequest) {
  const caller = loggedIn(request);
  const { identifier } = request.params as { identifier: string };
  if (hasNul(identifier)) throw notFound('Order not found');
  const id = /^[0-9]+$/.test(identifier) ? integerId(identifier) : undefined;
  const [order] = await app.db
    .select({
      status: orders.status,
      amount: orders.amount,
      mode: orders.paymentMode,
      userId: orders.userId,
      eventId: orders.eventId,
    })
    .from(orders)
    .innerJoin(events, eq(events.id, orders.eventId))
    .where(
      and(
        id === undefined ? eq(orders.identifier, identifier) : eq(orders.id, id),
        isNull(orders.deletedAt),
        isNull(events.deletedAt),
      ),
    )
    .limit(1);
  if (!order || !(await handlesOrder({ caller, db: app.db, request }, order))) throw notFound('Order not found');
  if (['completed', 'cancelled', 'expired'].includes(order.status))
    throw conflict(`The order is ${order.status}: no payment is charged for it`);
  if (Number(order.amount) === 0) throw conflict('The order costs nothing: no payment is charged for it');
  return order;
}

const described = {
  tag: 'Orders',
  params,
  errors: [400, 401, 404, 406, 409, 422],
  errorDescriptions: {
    404: 'No order the caller may see has this identifier',
    409: 'The order is completed, cancelled or expired, or costs nothing',
    422: 'The payment provider is not configured on this server (the detail names it)',
  },
  success: {},
};

export default async function chargeRoutes(app: FastifyInstance) {
  app.addSchema(ChargeInput);
  app.addSchema(PaypalPaymentInput);
  app.post(
    `${API_PREFIX}/orders/:identifier/charge`,
    operation({
      ...described,
      operationId: 'chargeOrder',
      summary: "Charge an order's buyer through a payment provider",
      description:
        "Charges the order's amount through Stripe (a card token) or PayPal (an approved payment), as the reference " +
        'did. No payment provider is configured here: for an order the caller handles (the buyer, the organizers, ' +
        'administrators) that is still open and costs something, the answer is a 422 naming the provider; pay by an ' +
        'offline method the event accepts instead.',
      body: Type.Ref(ChargeInput),
    }),
    async (request) => {
      const order = await chargeableOrder(app, request);
      const a = (request.body as { data: { attributes?: Record<string, string | null | undefined> } }).data.attributes;
      const paypal = a?.['paypal-payer-id'] ?? a?.paypal_payer_id ?? a?.['paypal-payment-id'] ?? a?.paypal_payment_id;
      const mode = a?.stripe ? 'stripe' : paypal ? 'paypal' : order.mode;
      if (mode && mode in ONLINE_METHODS) throw notConfigured(mode, '/data/attributes');
      throw unprocessable(
        order.mode
          ? `The order is paid by ${order.mode}, which no provider charges: the organizers mark it paid when the payment arrives`
          : 'Name the payment: a Stripe token or a PayPal payment',
        '/data/attributes',
      );
    },
  );
  app.post(
    `${API_PREFIX}/orders/:identifier/create-paypal-payment`,
    operation({
      ...described,
      operationId: 'createOrderPaypalPayment',
      summary: 'Open a PayPal payment for an order',
      description:
        'Opens a PayPal payment of the order for the buyer to approve, as the reference did. PayPal is not configured ' +
        'here: for an order the caller handles (the buyer, the organizers, administrators) that is still open and ' +
        'costs something, the answer is a 422 naming PayPal.',
      body: Type.Ref(PaypalPaymentInput),
    }),
    async (request) => {
      await chargeableOrder(app, request);
      throw notConfigured('paypal', '/data/attributes');
    },
  );
}
