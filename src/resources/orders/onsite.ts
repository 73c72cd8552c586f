/**
 * Orders sold at the door (`POST /v1/orders?onsite=true`, the reference's create_onsite_attendees_for_order in
 * app/api/helpers/order.py): the organizers name ticket quantities as `on-site-tickets`, and the order is made with
 * one ticket holder per ticket, reserved and priced as create-order reserves and prices them (checkout.ts), in the
 * order's transaction. Only the event's organizers and coorganizers sell at the door; the amount is the server's. The
 * reference made one holder fewer than each quantity and let anyone make such orders.
 */
import { Type } from '@sinclair/typebox';
import { attendees } from '../../../db/schema/index.js';
import { forbidden, unprocessable, type Ctx, type Row, type WriteInput } from '../../jsonapi/index.js';
import { holdsRole } from '../events/access.js';
import { sendOrderConfirmation } from './documents/confirmation.js';
import { type Reservation, reserveLines } from './reserve.js';
import { scheduleExpiry } from './expiry.js';
import { checkPaymentMode, isOffline } from './payments.js';

const MEMBER = '/data/attributes/on-site-tickets';
const STATUS = '/data/attributes/status';

/** `?onsite=true` of the create route. */
export const onsiteParameters = {
  onsite: Type.Optional(
    Type.Union([Type.Literal('true'), Type.Literal('false')], {
      description:
        "true: the event's organizers sell tickets at the door; the order's on-site-tickets name the tickets and " +
        'quantities, and the order holds one ticket holder per ticket (the amount computed by the server)',
    }),
  ),
};

const OnSiteTicket = Type.Object(
  {
    data: Type.Object(
      {
        type: Type.Literal('on-site-ticket'),
        attributes: Type.Object(
          {
            id: Type.Union([Type.Integer({ minimum: 1 }), Type.String({ pattern: '^[0-9]{1,10}$' })], {
              description: 'the ticket',
            }),
            quantity: Type.Union(
              [Type.Integer({ minimum: 1, maximum: 1000 }), Type.String({ pattern: '^[0-9]{1,4}$' })],
              {
                description: 'how many of it',
              },
            ),
          },
          { additionalProperties: false },
        ),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

/** The write-only `on-site-tickets` member of an order. */
export const onSiteTicketsAttribute = {
  schema: Type.Array(OnSiteTicket, {
    minItems: 1,
    maxItems: 100,
    description: 'with ?onsite=true only: the tickets sold at the door and their quantities (write-only)',
  }),
  writeOnly: true,
  write: () => ({}),
};

type OnSiteTicket = { data: { attributes: { id: number | string; quantity: number | string } } };

export const isOnsite = (ctx: Ctx) => (ctx.request.query as { onsite?: string } | undefined)?.onsite === 'true';

/** The statuses an order sold at the door may start in (a free or paid-at-the-door order is completed at once). */
const STARTS = ['initializing', 'pending', 'placed', 'completed'];

/** The policy's part: on-site tickets only with ?onsite=true, which only the event's organizers may use. */
export async function checkOnsiteCreate(ctx: Ctx, eventId: number, input: WriteInput): Promise<boolean> {
  const sent = input.attributes['on-site-tickets'];
  if (!isOnsite(ctx)) {
    if (sent !== undefined && sent !== null)
      throw unprocessable('Tickets sold at the door are ordered with ?onsite=true', MEMBER);
    return false;
  }
  if (!(await holdsRole(ctx, eventId, 'coorganizer')))
    throw forbidden('Only the organizers of the event sell tickets at the door', MEMBER);
  if (!Array.isArray(sent) || sent.length === 0) throw unprocessable('Name the tickets sold at the door', MEMBER);
  const status = input.attributes.status;
  if (status !== undefined && !STARTS.includes(status as string))
    throw unprocessable(`An order sold at the door starts ${STARTS.join(', ')}`, STATUS);
  return true;
}

const reserved = new WeakMap<WriteInput, Reservation>();

/**
 * Before the insert: the tickets reserved and priced in the order's transaction, the order's amount, codes and
 * payment method set from them (a free order is paid `free`; a paid one placed or completed names an offline method
 * the event accepts).
 */
export async function reserveOnsite(ctx: Ctx, values: Record<string, unknown>, input: WriteInput) {
  const sent = input.attributes['on-site-tickets'] as OnSiteTicket[];
  const tickets = sent.map(({ data: { attributes: a } }) => ({ id: a.id, quantity: Number(a.quantity) }));
  const reservation = await reserveLines(ctx, { tickets }).catch((err) => {
    // The checkout's pointers (/tickets/0/id) name the on-site tickets here.
    if (err?.source?.pointer?.startsWith('/tickets')) err.source.pointer = `${MEMBER}${err.source.pointer.slice(8)}`;
    throw err;
  });
  if (reservation.eventId !== values.eventId)
    throw unprocessable("The tickets sold at the door must be the order's event's", MEMBER);
  const amount = reservation.amount.total;
  const mode = (values.paymentMode as string | null | undefined) ?? (amount === 0 ? 'free' : null);
  await checkPaymentMode(ctx.db, reservation.eventId, amount, mode);
  const status = (values.status as string | undefined) ?? 'initializing';
  if (status === 'placed' && amount === 0)
    throw unprocessable('An order of nothing to pay is completed, not placed', STATUS);
  if ((status === 'placed' || status === 'completed') && amount > 0 && !isOffline(mode))
    throw unprocessable('A paid order sold at the door names the offline method it is paid by', STATUS);
  Object.assign(values, {
    amount,
    paymentMode: mode,
    status,
    discountCodeId: reservation.discountCodeId,
    marketerId: reservation.marketerId,
    accessCodeId: reservation.accessCodeId,
    ...(status === 'completed' ? { completedAt: new Date() } : {}),
  });
  reserved.set(input, reservation);
}

/** After the insert: the ticket holders, and the order's expiry (still open) or its confirmation mail (paid). */
export async function holdOnsite(ctx: Ctx, row: Row, input: WriteInput) {
  const reservation = reserved.get(input);
  if (!reservation) return;
  await ctx.db.insert(attendees).values(reservation.holders(row.id as number));
  const app = ctx.request.server;
  if (row.status === 'initializing' || row.status === 'pending')
    await scheduleExpiry(app, ctx.db, row.id as number, new Date(row.createdAt as string | Date));
  else await sendOrderConfirmation(app, row.id as number, ctx.db);
}
