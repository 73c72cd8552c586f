/**
 * The checkout of the Open Event front end (app/components/public/ticket-list.js, app/controllers/public/index.js,
 * app/controllers/events/view/tickets/add-order.js): `POST /v1/orders/calculate-amount` prices ticket quantities and
 * a code, `POST /v1/orders/create-order` reserves them as an order of blank ticket holders that the buyer then fills
 * in (app/controllers/orders/new.js). Both compute every amount from the records (amounts.ts); create-order does it
 * in the transaction that locks the tickets, so that concurrent checkouts never sell more than a ticket's quantity.
 */
import { randomUUID } from 'node:crypto';
import { Type, type Static } from '@sinclair/typebox';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { attendees, events, orders, taxes, tickets, ticketFees } from '../../../db/schema/index.js';
import type { Db } from '../../../plugins/db.js';
import { loggedIn, requireLogin } from '../../auth/caller.js';
import {
  API_PREFIX,
  conflict,
  errorResponses,
  integerId,
  MEDIA_TYPE,
  unprocessable,
  type Ctx,
} from '../../jsonapi/index.js';
import { holdsRole, roleIn } from '../events/access.js';
import { taken } from '../tickets/availability.js';
import { type LineInput, type OrderAmount, type PricedTicket, type Pricing, priceOrder } from './amounts.js';
import { accessCodeFor, discountCodeFor } from './codes.js';
import { scheduleExpiry } from './expiry.js';

const IdLike = Type.Union([Type.Integer({ minimum: 1 }), Type.String({ pattern: '^[0-9]{1,10}$' })], {
  description: 'an id, as a number or a string of digits',
});
const CodeLike = Type.Union([Type.Null(), Type.Integer({ minimum: 1 }), Type.String({ maxLength: 100 })], {
  description: 'the id of the code, or the code itself',
});

const CheckoutInput = Type.Object(
  {
    tickets: Type.Array(
      Type.Object(
        {
          id: IdLike,
          quantity: Type.Optional(
            Type.Integer({ minimum: 0, maximum: 1000, description: 'how many of this ticket (default 1)' }),
          ),
          price: Type.Optional(
            Type.Union([Type.Null(), Type.Number({ minimum: 0, maximum: 9_999_999_999 })], {
              description: "a donation ticket's amount; ignored for other tickets (their price is the ticket's)",
            }),
          ),
          quantity_discount: Type.Optional(
            Type.Union([Type.Null(), Type.Integer()], {
              description: 'ignored: the server counts the discounted units',
            }),
          ),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 100, description: 'the ticket lines, each ticket once' },
    ),
    'discount-code': Type.Optional(CodeLike),
    discount_code: Type.Optional(CodeLike),
    'access-code': Type.Optional(CodeLike),
    access_code: Type.Optional(CodeLike),
    amount: Type.Optional(
      Type.Union([Type.Null(), Type.Number()], {
        description:
          'refused unless null: the amount is computed by the server (organizers give reductions as discount codes)',
      }),
    ),
    'discount-verify': Type.Optional(Type.Boolean({ description: 'ignored: a used-up code never lowers a price' })),
    discount_verify: Type.Optional(Type.Boolean({ description: 'ignored' })),
  },
  { $id: 'CheckoutInput', additionalProperties: false },
);
export type CheckoutInput = Static<typeof CheckoutInput>;

const Money = (description: string) => Type.Number({ minimum: 0, description });
const OrderAmountSchema = Type.Object(
  {
    tax: Type.Union([
      Type.Null(),
      Type.Object({
        included: Type.Boolean({ description: 'the prices include the tax' }),
        amount: Money('the tax of the order'),
        percent: Type.Number({ description: 'the rate' }),
        name: Type.Union([Type.String(), Type.Null()]),
      }),
    ]),
    sub_total: Money('the lines, after discounts and with fees, before an added tax'),
    total: Money('what the order costs'),
    discount: Money('the sum of the discounts'),
    tickets: Type.Array(
      Type.Object({
        id: Type.Integer(),
        name: Type.String(),
        price: Money('the price of one'),
        quantity: Type.Integer({ minimum: 0 }),
        discount: Type.Union([
          Type.Null(),
          Type.Object({
            code: Type.String(),
            percent: Type.Number(),
            amount: Money('the reduction of one'),
            total: Money('the reduction of the line'),
            type: Type.String({ description: 'amount or percent' }),
            warning: Type.Optional(Type.String()),
          }),
        ]),
        ticket_fee: Money("the platform's service fee on the line"),
        sub_total: Money('the line, after its discount, with its fee'),
        ticket_tax: Money('the tax of one, before the discount'),
        discounted_tax: Money('the tax of one, after the discount'),
        discounted_quantity: Type.Integer({ minimum: 0, description: 'how many the discount lowers' }),
      }),
    ),
  },
  { $id: 'OrderAmount' },
);

type Line = LineInput & { index: number };

/** The lines of an input: each ticket once, with its quantity (default 1). */
function linesOf(input: CheckoutInput): Line[] {
  const seen = new Set<number>();
  return input.tickets.map((t, index) => {
    // The reference's example and older clients send numbers, the front end strings of digits.
    const id = integerId(String(t.id));
    if (id === undefined) throw unprocessable('Not a ticket id', `/tickets/${index}/id`);
    if (seen.has(id)) throw unprocessable(`Ticket ${id} is named twice`, `/tickets/${index}/id`);
    seen.add(id);
    return { id, quantity: t.quantity ?? 1, price: t.price ?? null, index };
  });
}

const codeOf = (a: string | number | null | undefined, b: string | number | null | undefined) => {
  const code = a ?? b;
  return code === null || code === undefined || code === '' ? undefined : String(code);
};

/**
 * The event's tax (when the event has tax enabled and its tax a rate) and the platform's service fee for the event's
 * currency and country (the reference's get_fee: both must match).
 */
export async function pricingOf(db: Db, eventId: number): Promise<Omit<Pricing, 'discount'>> {
  const [event] = await db
    .select({ currency: events.paymentCurrency, country: events.paymentCountry, taxEnabled: events.isTaxEnabled })
    .from(events)
    .where(eq(events.id, eventId));
  const [tax] = event?.taxEnabled
    ? await db
        .select({ name: taxes.name, rate: taxes.rate, included: taxes.isTaxIncludedInPrice })
        .from(taxes)
        .where(and(eq(taxes.eventId, eventId), isNull(taxes.deletedAt)))
    : [];
  const [fee] =
    event?.currency && event.country
      ? await db
          .select({ serviceFee: ticketFees.serviceFee, maximumFee: ticketFees.maximumFee })
          .from(ticketFees)
          .where(and(eq(ticketFees.currency, event.currency), eq(ticketFees.country, event.country)))
      : [];
  return {
    ...(tax && tax.rate !== null ? { tax: { name: tax.name, rate: tax.rate, included: tax.included } } : {}),
    ...(fee ? { fee } : {}),
  };
}

interface Loaded {
  eventId: number;
  organizer: boolean;
  rows: Map<number, PricedTicket & Record<string, unknown>>;
  pricing: Pricing;
  accessCode?: Awaited<ReturnType<typeof accessCodeFor>>;
}

/**
 * The tickets the lines name (locked for the transaction when `lock`), the event's tax and the platform's fee, and
 * the codes: 422 for a ticket that does not exist for the caller (deleted, of a draft the caller has no role in) or
 * of another event than the others.
 */
async function load(ctx: Ctx, db: Db, lines: Line[], input: CheckoutInput, lock: boolean): Promise<Loaded> {
  const query = db
    .select({
      id: tickets.id,
      eventId: tickets.eventId,
      name: tickets.name,
      type: tickets.type,
      price: tickets.price,
      minPrice: tickets.minPrice,
      maxPrice: tickets.maxPrice,
      quantity: tickets.quantity,
      minOrder: tickets.minOrder,
      maxOrder: tickets.maxOrder,
      isFeeAbsorbed: tickets.isFeeAbsorbed,
      salesStartsAt: tickets.salesStartsAt,
      salesEndsAt: tickets.salesEndsAt,
      onSale: sql<boolean>`${tickets.salesStartsAt} <= now() and now() <= ${tickets.salesEndsAt}`,
    })
    .from(tickets)
    .where(
      and(
        inArray(
          tickets.id,
          lines.map((l) => l.id),
        ),
        isNull(tickets.deletedAt),
      ),
    )
    .orderBy(asc(tickets.id));
  const found = await (lock ? query.for('update') : query);
  const rows = new Map(found.map((r) => [r.id, r]));
  const missing = (line: Line) => unprocessable(`Ticket ${line.id} not found`, `/tickets/${line.index}/id`);
  const first = rows.get(lines[0]!.id);
  if (!first) throw missing(lines[0]!);
  const eventId = first.eventId;
  for (const line of lines) {
    const row = rows.get(line.id);
    if (!row) throw missing(line);
    if (row.eventId !== eventId)
      throw unprocessable('All tickets of an order must be of the same event', `/tickets/${line.index}/id`);
  }
  // A draft's tickets exist only for its team; roleIn answers 404 for an event the caller may not see.
  await roleIn(ctx, eventId).catch(() => {
    throw missing(lines[0]!);
  });
  const organizer = await holdsRole(ctx, eventId, 'coorganizer');
  const { tax, fee } = await pricingOf(db, eventId);
  const discountNamed = codeOf(input['discount-code'], input.discount_code);
  const accessNamed = codeOf(input['access-code'], input.access_code);
  const discount = discountNamed
    ? await discountCodeFor(
        db,
        eventId,
        discountNamed,
        lines.map((l) => l.id),
        lock,
      )
    : undefined;
  const accessCode = accessNamed ? await accessCodeFor(db, eventId, accessNamed, lock) : undefined;
  return {
    eventId,
    organizer,
    rows,
    pricing: { ...(tax ? { tax } : {}), ...(fee ? { fee } : {}), ...(discount ? { discount } : {}) },
    ...(accessCode ? { accessCode } : {}),
  };
}

function refuseAmount(input: CheckoutInput) {
  if (input.amount !== undefined && input.amount !== null)
    throw unprocessable(
      'The amount of an order is computed by the server from its tickets, codes, tax and fees; give a reduction as a discount code',
      '/amount',
    );
}

/** What the lines cost, read without locks (calculate-amount). */
export async function calculateAmount(ctx: Ctx, input: CheckoutInput): Promise<OrderAmount> {
  refuseAmount(input);
  const lines = linesOf(input);
  const loaded = await load(ctx, ctx.db, lines, input, false);
  return priceOrder(lines, loaded.rows, loaded.pricing);
}

/** Lines reserved for an order: its event, what it costs, its codes, and its ticket holders once it exists. */
export interface Reservation {
  eventId: number;
  amount: OrderAmount;
  discountCodeId: number | null;
  marketerId: number | null;
  accessCodeId: number | null;
  holders(orderId: number): (typeof attendees.$inferInsert)[];
}

/**
 * Reserves the lines in the caller's transaction (`ctx.db`): the tickets and codes are locked, each line is checked
 * against the ticket's sale period (organizers excepted), order limits and what is left, and the amounts are
 * computed. Answers what the order is to hold.
 */
export async function reserveLines(ctx: Ctx, input: CheckoutInput): Promise<Reservation> {
  refuseAmount(input);
  const lines = linesOf(input);
  if (!lines.some((l) => l.quantity > 0)) throw unprocessable('The order has no tickets', '/tickets');
  const tx = ctx.db;
  const loaded = await load(ctx, tx, lines, input, true);
  const { rows, organizer, eventId } = loaded;
  const ordered = lines.filter((l) => l.quantity > 0);
  // Joined so that the statement names every column with its table (the count's subquery reads orders too).
  const left = await tx
    .select({ id: tickets.id, taken: taken(tickets.id) })
    .from(tickets)
    .innerJoin(events, eq(events.id, tickets.eventId))
    .where(
      inArray(
        tickets.id,
        ordered.map((l) => l.id),
      ),
    );
  const takenOf = new Map(left.map((r) => [r.id, r.taken]));
  for (const line of ordered) checkLine(rows.get(line.id)!, line, organizer, takenOf.get(line.id) ?? 0);
  const discount = loaded.pricing.discount;
  if (discount) {
    const units = ordered.filter((l) => discount.ticketIds.has(l.id)).reduce((n, l) => n + l.quantity, 0);
    if (units < discount.minQuantity || (discount.maxQuantity !== null && units > discount.maxQuantity))
      throw unprocessable(
        `The discount code ${discount.code} applies to orders of ${discount.minQuantity} to ${discount.maxQuantity ?? 'any number'} of its tickets`,
        '/discount-code',
      );
  }
  const amount = priceOrder(ordered, rows, loaded.pricing);
  const access = loaded.accessCode;
  let accessLeft = access ? (access.remaining ?? Number.MAX_SAFE_INTEGER) : 0;
  if (access) {
    const wanted = ordered.filter((l) => access.ticketIds.has(l.id)).reduce((n, l) => n + l.quantity, 0);
    if (wanted > accessLeft)
      throw unprocessable(
        `The access code ${access.code} opens ${accessLeft} more ticket${accessLeft === 1 ? '' : 's'}`,
        '/access-code',
      );
  }
  const discounted = discount && amount.discount > 0 ? discount : undefined;
  return {
    eventId,
    amount,
    discountCodeId: discounted?.id ?? null,
    marketerId: discounted?.marketerId ?? null,
    accessCodeId: access?.id ?? null,
    holders: (orderId) =>
      ordered.flatMap((line, i) => {
        const priced = amount.tickets[i]!;
        return Array.from({ length: line.quantity }, (_, unit) => {
          const opened = access?.ticketIds.has(line.id) && accessLeft > 0;
          if (opened) accessLeft--;
          return {
            eventId,
            orderId,
            ticketId: line.id,
            price: priced.price,
            isDiscountApplied: unit < priced.discounted_quantity,
            isAccessCodeApplied: Boolean(opened),
          };
        });
      }),
  };
}

/** Refuses a line the ticket does not allow: off sale (organizers excepted), beyond its order limits or what is left. */
function checkLine(t: PricedTicket & Record<string, unknown>, line: Line, organizer: boolean, sold: number) {
  const at = `/tickets/${line.index}`;
  if (!organizer && !t.onSale)
    throw unprocessable(
      `Ticket "${t.name}" is on sale from ${(t.salesStartsAt as Date).toISOString()} to ${(t.salesEndsAt as Date).toISOString()}`,
      `${at}/id`,
    );
  const min = (t.minOrder as number | null) ?? 1;
  const max = t.maxOrder as number | null;
  if (line.quantity < min || (max !== null && line.quantity > max))
    throw unprocessable(`Ticket "${t.name}" is sold ${min} to ${max ?? 'any number'} at a time`, `${at}/quantity`);
  const quantity = t.quantity as number | null;
  if (quantity === null) return;
  const available = Math.max(0, quantity - sold);
  if (line.quantity > available)
    throw conflict(
      available === 0
        ? `Ticket "${t.name}" is sold out`
        : `Only ${available} of ticket "${t.name}" ${available === 1 ? 'is' : 'are'} left`,
      `${at}/quantity`,
    );
}

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
          ...errorResponses([400, 413, 415, 422]),
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
