/**
 * The tickets and the invoice of an order as PDF, at the reference's paths (app/api/custom/orders.py,
 * app/api/custom/invoices.py) that the Open Event front end downloads with its token (app/controllers/orders/view.js,
 * app/components/forms/orders/attendee-list.js): rendered on each request from the records, so they always show
 * the order as it is.
 */
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { loggedIn, requireLogin } from '../../../auth/caller.js';
import { API_PREFIX, conflict, errorResponses, hasNul, integerId, notFound } from '../../../jsonapi/index.js';
import { handlesOrder } from '../policy.js';
import { invoicePdf } from './invoice-pdf.js';
import { ISSUED, loadOrderDocument, type OrderDocument } from './load.js';
import { ticketsPdf } from './ticket-pdf.js';

const TAG = 'Orders';
const UUID = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

const OrderParams = Type.Object({
  identifier: Type.String({ minLength: 1, maxLength: 64, description: 'the order identifier' }),
});
const FrontEndParams = Type.Object({
  order_identifier: Type.String({ pattern: UUID, maxLength: 36, description: 'the order identifier (a UUID)' }),
});
const AttendeeParams = Type.Object({
  attendee_id: Type.String({ pattern: '^[0-9]{1,10}$', description: 'id of the attendee (ticket holder)' }),
});

const pdf = (description: string) => ({
  200: { description, content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } } },
});
const WHO =
  'Only the buyer, the organizers and coorganizers of the event and administrators may download it (the reference ' +
  'also answered anyone holding a ticket of the order); others get 404, as if the order did not exist.';
const ISSUED_ONLY = 'Only placed and completed orders have tickets and an invoice (409 for any other).';
const errors = (what: string) =>
  errorResponses([400, 401, 404, 409], {
    404: `No ${what} the caller may see`,
    409: 'The order is not placed or completed, or has no ticket holders',
  });

function send(reply: FastifyReply, body: Buffer, file: string) {
  return (
    reply
      .type('application/pdf')
      // Names, addresses and the codes that let their holders in: kept by no cache.
      .header('cache-control', 'private, no-store')
      .header('content-disposition', `attachment; filename="${file}"`)
      .send(body)
  );
}

/** The order a path names, when the caller may see it (404 otherwise) and it is placed or completed (409 otherwise). */
async function issued(
  app: FastifyInstance,
  request: FastifyRequest,
  data: OrderDocument | undefined,
  what: string,
  mayAlso: (data: OrderDocument, callerId: number) => boolean = () => false,
): Promise<OrderDocument> {
  const caller = loggedIn(request);
  const ctx = { caller, db: app.db, request };
  if (!data || !(mayAlso(data, caller.id) || (await handlesOrder(ctx, data.order))))
    throw notFound(`${what} not found`);
  if (!ISSUED.includes(data.order.status))
    throw conflict(`The order is ${data.order.status}: only placed and completed orders have tickets and an invoice`);
  return data;
}

const byIdentifier = (app: FastifyInstance, identifier: string) =>
  hasNul(identifier) ? Promise.resolve(undefined) : loadOrderDocument(app.db, { identifier });

export default async function orderDocumentRoutes(app: FastifyInstance) {
  async function orderTickets(request: FastifyRequest, reply: FastifyReply, identifier: string) {
    const data = await issued(app, request, await byIdentifier(app, identifier), 'Order');
    if (data.holders.length === 0) throw conflict('The order has no ticket holders');
    return send(reply, await ticketsPdf(data, data.holders), `tickets-${data.order.identifier}.pdf`);
  }

  app.get(
    `${API_PREFIX}/orders/:identifier/tickets-pdf`,
    {
      onRequest: requireLogin(app),
      schema: {
        tags: [TAG],
        operationId: 'downloadOrderTickets',
        summary: 'The tickets of an order as PDF',
        description: `Every ticket of the order, one page per ticket holder, each with a QR code of the holder's identifier. ${WHO} ${ISSUED_ONLY}`,
        params: OrderParams,
        response: { ...pdf('The tickets (application/pdf)'), ...errors('order') },
      },
    },
    (request, reply) => orderTickets(request, reply, (request.params as { identifier: string }).identifier),
  );

  app.get(
    `${API_PREFIX}/tickets/:order_identifier(${UUID})`,
    {
      onRequest: requireLogin(app),
      schema: {
        tags: [TAG],
        operationId: 'downloadTicketsOfOrder',
        summary: 'The tickets of an order as PDF (the front end’s path)',
        description:
          'The same as `GET /v1/orders/{identifier}/tickets-pdf`, at the path the Open Event front end downloads ' +
          'them from: a UUID here names an order, where a number names a ticket (`GET /v1/tickets/{id}`). ' +
          `${WHO} ${ISSUED_ONLY}`,
        params: FrontEndParams,
        response: { ...pdf('The tickets (application/pdf)'), ...errors('order') },
      },
    },
    (request, reply) => orderTickets(request, reply, (request.params as { order_identifier: string }).order_identifier),
  );

  app.get(
    `${API_PREFIX}/orders/attendees/:attendee_id.pdf`,
    {
      onRequest: requireLogin(app),
      schema: {
        tags: [TAG],
        operationId: 'downloadAttendeeTicket',
        summary: 'One ticket as PDF',
        description:
          "The ticket of one ticket holder, with a QR code of the holder's identifier. The holder (the user the " +
          `ticket holder names) may download it too. ${WHO} ${ISSUED_ONLY}`,
        params: AttendeeParams,
        response: { ...pdf('The ticket (application/pdf)'), ...errors('ticket holder') },
      },
    },
    async (request, reply) => {
      const attendeeId = integerId((request.params as { attendee_id: string }).attendee_id);
      const found = attendeeId === undefined ? undefined : await loadOrderDocument(app.db, { attendeeId });
      const holderOf = (data: OrderDocument) => data.holders.find((h) => h.id === attendeeId);
      const data = await issued(app, request, found, 'Ticket holder', (d, id) => holderOf(d)?.userId === id);
      const holder = holderOf(data)!;
      return send(reply, await ticketsPdf(data, [holder]), `ticket-${holder.id}.pdf`);
    },
  );

  app.get(
    `${API_PREFIX}/orders/invoices/:identifier`,
    {
      onRequest: requireLogin(app),
      schema: {
        tags: [TAG],
        operationId: 'downloadOrderInvoice',
        summary: 'The invoice of an order as PDF',
        description:
          "The invoice: the seller (the event's tax details), the buyer's billing details, one line per ticket and " +
          'price with its quantity, unit price, discount, tax and fee, and the totals; the total is the amount of the ' +
          `order. ${WHO} ${ISSUED_ONLY}`,
        params: OrderParams,
        response: { ...pdf('The invoice (application/pdf)'), ...errors('order') },
      },
    },
    async (request, reply) => {
      const { identifier } = request.params as { identifier: string };
      const data = await issued(app, request, await byIdentifier(app, identifier), 'Order');
      return send(reply, await invoicePdf(data), `invoice-${data.order.identifier}.pdf`);
    },
  );
}
