import { Type, type Static } from '@sinclair/typebox';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { attendees, events, orders, users, type Attendee } from '../../../db/schema/index.js';
import { loggedIn, requireLogin } from '../../auth/caller.js';
import type { Config } from '../../config.js';
import { API_PREFIX, conflict, errorResponses, forbidden, hasNul, notFound } from '../../jsonapi/index.js';
import { mailLimitsOf, takeMails } from '../../rate-limits/mail.js';
import { handlesOrder } from '../../resources/orders/policy.js';
import { receiptMails } from './receipt.js';

const SendReceiptRequest = Type.Object(
  { 'order-identifier': Type.String({ minLength: 1, maxLength: 64, description: 'identifier of a completed order' }) },
  { $id: 'SendReceiptRequest', additionalProperties: false },
);
const SendReceiptResponse = Type.Object(
  { message: Type.Literal('receipt sent to attendees') },
  { $id: 'SendReceiptResponse' },
);

/**
 * `POST /v1/attendees/send-receipt`: mails the receipt of a completed order to its buyer and every
 * attendee, on behalf of the buyer, an organizer of the event or an administrator.
 */
export default async function sendReceiptRoute(app: FastifyInstance, { config }: { config: Config }) {
  const limits = mailLimitsOf(config);
  app.addSchema(SendReceiptRequest);
  app.addSchema(SendReceiptResponse);
  app.post(
    `${API_PREFIX}/attendees/send-receipt`,
    {
      // Who calls is settled before anything they sent is read: an anonymous caller gets 401.
      onRequest: requireLogin(app),
      schema: {
        tags: ['Orders'],
        operationId: 'sendReceipt',
        summary: 'Mail the receipt of an order',
        description:
          'Sends the receipt (with an HTML receipt attached) to the buyer and to every attendee address. The ' +
          'caller must be the buyer, an organizer or coorganizer of the event, or an administrator; the order ' +
          'must be completed (409 otherwise). A delivery that fails is kept and retried; the answer does not wait for it. ' +
          `Each mailbox gets at most ${limits.perRecipient} such mails, and one client address has at most ` +
          `${limits.perClient} sent, per ${limits.windowSeconds} seconds: past either, 429 with \`Retry-After\` and nothing is sent.`,
        consumes: ['application/json', 'application/vnd.api+json'],
        body: Type.Ref(SendReceiptRequest),
        response: {
          200: Type.Ref(SendReceiptResponse, { description: 'The receipt mails are on their way' }),
          ...errorResponses([400, 401, 403, 404, 409, 413, 415, 422, 429], {
            404: 'No order has this identifier',
            409: 'Cannot send receipt for an incomplete order',
            429: 'Too many mails to one of these addresses or from this client address; `Retry-After` says when to ask again',
          }),
        },
      },
    },
    async (request) => {
      const caller = loggedIn(request);
      const identifier = (request.body as Static<typeof SendReceiptRequest>)['order-identifier'];
      // No identifier holds a NUL (PostgreSQL text cannot), and comparing one would be a database error.
      if (hasNul(identifier)) throw notFound('Order not found');
      const [order] = await app.db
        .select({
          identifier: orders.identifier,
          amount: orders.amount,
          status: orders.status,
          paymentMode: orders.paymentMode,
          completedAt: orders.completedAt,
          attendees: orders.attendees,
          // The order's ticket holders with an address (attendee records) receive it too.
          holders: sql<Attendee[]>`coalesce((select json_agg(json_build_object(
              'name', coalesce(nullif(trim(concat_ws(' ', ${attendees.firstname}, ${attendees.lastname})), ''), ${attendees.email}),
              'email', ${attendees.email}) order by ${attendees.id})
            from ${attendees} where ${attendees.orderId} = ${orders.id} and ${attendees.deletedAt} is null and ${attendees.email} is not null), '[]')`,
          eventId: orders.eventId,
          userId: orders.userId,
          eventName: events.name,
          eventStartsAt: events.startsAt,
          buyerEmail: users.email,
          buyerName: users.name,
        })
        .from(orders)
        .innerJoin(events, eq(events.id, orders.eventId))
        .innerJoin(users, eq(users.id, orders.userId))
        .where(and(eq(orders.identifier, identifier), isNull(orders.deletedAt), isNull(events.deletedAt)))
        .limit(1);
      if (!order) throw notFound('Order not found');
      if (!(await handlesOrder({ caller, db: app.db, request }, order))) {
        throw forbidden('Only the buyer, the organizers of the event or an administrator may send this receipt');
      }
      if (order.status !== 'completed') throw conflict('Cannot send receipt for an incomplete order');
      const mails = receiptMails({ ...order, attendees: [...order.attendees, ...order.holders] });
      await takeMails(
        app.db,
        limits,
        mails.map((m) => m.to.address),
        request.ip,
      );
      for (const mail of mails) await app.mailer.send(mail);
      return { message: 'receipt sent to attendees' as const };
    },
  );
}
