/**
 * The event invoices' routes beyond their CRUD: an administrator's run of a month (the reference only had its cron,
 * src/jobs/event-invoices.ts), and the reference's PayPal routes of an invoice (app/api/event_invoices.py), which
 * answer that online payment is not available here: an administrator marks the invoice paid when the money arrives.
 */
import { Type } from '@sinclair/typebox';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { loggedIn, requireStaff } from '../../auth/caller.js';
import { seesPanel } from '../../auth/panels.js';
import { API_PREFIX, conflict, hasNul, integerId, notFound, operation, unprocessable } from '../../jsonapi/index.js';
import { isMonth, issueMonth, monthRange } from './issue.js';

const RunInput = Type.Object(
  {
    data: Type.Object(
      {
        type: Type.Literal('event-invoice-run'),
        attributes: Type.Object(
          {
            month: Type.String({
              pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$',
              maxLength: 7,
              description: 'the month to bill, `YYYY-MM` (UTC); it must have ended',
            }),
          },
          { additionalProperties: false },
        ),
      },
      { additionalProperties: false },
    ),
  },
  { $id: 'EventInvoiceRunInput', additionalProperties: false },
);

const RunResult = Type.Object(
  {
    meta: Type.Object(
      {
        month: Type.String({ description: 'the month billed' }),
        issued: Type.Array(Type.String(), { description: 'identifiers of the invoices this run made' }),
        existing: Type.Integer({ minimum: 0, description: 'invoices of the month made before' }),
      },
      { additionalProperties: false },
    ),
    jsonapi: Type.Object({ version: Type.String() }),
  },
  { $id: 'EventInvoiceRunResult', additionalProperties: false },
);

const PaymentInput = Type.Object(
  {
    data: Type.Object(
      {
        type: Type.Union([Type.Literal('charge'), Type.Literal('paypal-payment')]),
        attributes: Type.Optional(
          Type.Record(Type.String({ maxLength: 64 }), Type.Union([Type.String({ maxLength: 2048 }), Type.Null()])),
        ),
      },
      { additionalProperties: false },
    ),
  },
  { $id: 'EventInvoicePaymentInput', additionalProperties: false },
);

const params = Type.Object({
  identifier: Type.String({ minLength: 1, maxLength: 64, description: 'the invoice identifier, or its id' }),
});

const NOT_HERE =
  'Online payment of event invoices is not available on this server (PayPal and Stripe cannot be reached): pay by ' +
  'bank transfer or cheque, quoting the invoice number, and an administrator marks the invoice paid when it arrives';

/** The invoice the path names, for a caller who may see it (404 otherwise), if it is still due (409 otherwise). */
async function dueInvoice(app: FastifyInstance, request: FastifyRequest) {
  const caller = loggedIn(request);
  const { identifier } = request.params as { identifier: string };
  if (hasNul(identifier)) throw notFound('Event invoice not found');
  const id = /^[0-9]+$/.test(identifier) ? integerId(identifier) : undefined;
  const named = id === undefined ? sql`i.identifier = ${identifier}` : sql`i.id = ${id}`;
  const seen = seesPanel(caller, 'sales')
    ? sql`true`
    : sql`(i.user_id = ${caller.id} or i.event_id in (select r.event_id from event_roles r
        where r.user_id = ${caller.id} and r.role in ('owner', 'organizer')))`;
  const [invoice] = await app.db.execute<{ status: string }>(
    sql`select i.status from event_invoices i where ${named} and i.deleted_at is null and ${seen} limit 1`,
  );
  if (!invoice) throw notFound('Event invoice not found');
  if (invoice.status !== 'due') throw conflict(`The invoice is ${invoice.status}: nothing is charged for it`);
}

const payment = {
  tag: 'Event invoices',
  params,
  body: Type.Ref(PaymentInput),
  errors: [400, 401, 404, 406, 409, 422],
  errorDescriptions: {
    404: 'No invoice the caller may see has this identifier',
    409: 'The invoice is not due (paid, refunded, ...), or the body is not a charge or paypal-payment',
    422: 'Online payment is not available on this server',
  },
  success: {},
};

export default async function eventInvoiceRoutes(app: FastifyInstance) {
  app.addSchema(RunInput);
  app.addSchema(RunResult);
  app.addSchema(PaymentInput);
  app.post(
    `${API_PREFIX}/event-invoices/monthly-run`,
    operation({
      tag: 'Event invoices',
      operationId: 'runEventInvoices',
      summary: "Issue a month's event invoices",
      description:
        'Administrators only (401 without a login, 403 for anyone else). Issues the invoices of a month that has ' +
        'ended, as the monthly job does on the 1st for the month just ended: one per live event with completed sales ' +
        'in it whose fee reaches the minimum, with its PDF. Safe to repeat: invoices made before are kept as they ' +
        'are, and only what is missing is made.',
      body: Type.Ref(RunInput),
      errors: [400, 401, 403, 406, 409, 422],
      errorDescriptions: {
        409: 'The body is not of type event-invoice-run',
        422: 'The month has not ended yet, or is no month',
      },
      success: { 200: { content: { 'application/vnd.api+json': { schema: Type.Ref(RunResult) } } } },
    }),
    async (request, reply) => {
      requireStaff(request);
      const { month } = (request.body as { data: { attributes: { month: string } } }).data.attributes;
      if (!isMonth(month) || monthRange(month).end > new Date())
        throw unprocessable(
          `The month ${month} has not ended yet: only ended months are billed`,
          '/data/attributes/month',
        );
      const run = await issueMonth(app, month);
      return reply.type('application/vnd.api+json').send({ meta: run, jsonapi: { version: '1.0' } });
    },
  );
  app.post(
    `${API_PREFIX}/event-invoices/:identifier/charge`,
    operation({
      ...payment,
      operationId: 'chargeEventInvoice',
      summary: 'Charge an event invoice through PayPal',
      description:
        "The reference charged an approved PayPal payment of the invoice here. For a due invoice the caller sees (the event's " +
        'owner and organizers, administrators), the answer is a 422 saying online payment is not available: an ' +
        'administrator marks the invoice paid (PATCH status) when the payment arrives.',
    }),
    async (request) => {
      await dueInvoice(app, request);
      throw unprocessable(NOT_HERE, '/data');
    },
  );
  app.post(
    `${API_PREFIX}/event-invoices/:identifier/create-paypal-payment`,
    operation({
      ...payment,
      operationId: 'createEventInvoicePaypalPayment',
      summary: 'Open a PayPal payment of an event invoice',
      description:
        "The reference opened a PayPal payment of the invoice here. For a due invoice the caller sees (the event's " +
        'owner and organizers, administrators), the answer is a 422 saying online payment is not available.',
    }),
    async (request) => {
      await dueInvoice(app, request);
      throw unprocessable(NOT_HERE, '/data');
    },
  );
}
