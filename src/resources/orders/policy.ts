import { and, eq, or, sql } from 'drizzle-orm';
import { settings } from '../../../db/schema/index.js';
import { isStaff, loggedIn, requireStaff } from '../../auth/caller.js';
import { conflict, forbidden, gone, unprocessable, type Ctx, type Policy, type Row } from '../../jsonapi/index.js';
import { holdsRole, inLiveEvent, inManagedEvent, namedEvent, roleIn } from '../events/access.js';
import { DEFAULT_EXPIRY_MINUTES } from '../tickets/availability.js';
import { checkOnsiteCreate } from './onsite.js';
import { checkPaymentMode, isOffline, ONLINE_METHODS, notConfigured } from './payments.js';

/** Orders the buyer may still change; past these the order is the organizers' to change. */
const OPEN = ['initializing', 'pending'];
/** Orders whose tickets went back on sale: nothing changes them any more. */
const ENDED = ['cancelled', 'expired'];

const STATUS = '/data/attributes/status';
const noteByOrganizers = () =>
  forbidden('Only organizers of the event or administrators may write the cancel note', '/data/attributes/cancel-note');
const notesByOrganizers = () =>
  forbidden('Only organizers of the event or administrators may write order notes', '/data/attributes/order-notes');

/** The buyer, the event's owner, organizers and coorganizers, and administrators handle an order. */
export async function handlesOrder(ctx: Ctx, order: { userId: number; eventId: number }): Promise<boolean> {
  return order.userId === loggedIn(ctx).id || holdsRole(ctx, order.eventId, 'coorganizer');
}

/** When an initializing order of `createdAt` expires (the settings' order expiry time after it was created). */
export async function expiresAt(ctx: Pick<Ctx, 'db'>, createdAt: Date): Promise<Date> {
  const [site] = await ctx.db.select({ minutes: settings.orderExpiryTime }).from(settings).where(eq(settings.id, 1));
  return new Date(createdAt.getTime() + (site?.minutes ?? DEFAULT_EXPIRY_MINUTES) * 60_000);
}

/**
 * Whether `to` may follow the order's status for this caller. Buyers move their open order on: pending while they
 * choose how to pay, completed when it costs nothing, placed when they pay by an offline method the event accepts,
 * cancelled. Organizers mark a placed order paid (completed) and cancel; no one completes a paid order otherwise (a
 * provider would, and none is configured). Expired and initializing are the server's.
 */
async function checkMove(ctx: Ctx, row: Row, to: string, mode: string | null, organizer: boolean) {
  const from = row.status as string;
  const amount = Number(row.amount);
  if (ENDED.includes(from))
    throw conflict(`The order is ${from} and its tickets are on sale again: it cannot change any more`, STATUS);
  if (from === 'initializing' && !organizer && (await expiresAt(ctx, row.createdAt as Date)) <= new Date())
    throw gone('The order expired: its tickets are on sale again; order them anew');
  switch (to) {
    case 'cancelled':
      if (!organizer && !OPEN.includes(from))
        throw forbidden(`The order is ${from}: only the organizers may cancel it now`, STATUS);
      return;
    case 'pending':
      if (from !== 'initializing') throw unprocessable(`A ${from} order cannot become pending`, STATUS);
      return;
    case 'placed':
      if (!OPEN.includes(from)) throw unprocessable(`A ${from} order cannot be placed`, STATUS);
      if (amount === 0) throw unprocessable('An order of nothing to pay is completed, not placed', STATUS);
      if (!isOffline(mode))
        throw mode && mode in ONLINE_METHODS
          ? notConfigured(mode)
          : unprocessable('An order is placed with an offline payment method (bank, cheque, invoice, onsite)', STATUS);
      return;
    case 'completed':
      if (amount === 0) {
        if (!OPEN.includes(from)) throw unprocessable(`A ${from} order cannot be completed`, STATUS);
        return;
      }
      if (organizer && from === 'placed') return;
      if (mode && mode in ONLINE_METHODS) throw notConfigured(mode);
      throw forbidden(
        organizer
          ? 'A paid order is completed when its payment arrives: place it with an offline method first, then mark it paid'
          : `The order costs ${amount.toFixed(2)}: the organizers complete it when your payment arrives`,
        STATUS,
      );
    default:
      throw unprocessable(`Only the server sets an order ${to}`, STATUS);
  }
}

/**
 * Orders are private: the buyer sees their own, the event's organizers and coorganizers see the
 * event's, administrators see all. Amounts are the server's (read-only). The buyer moves an open order on (see
 * checkMove) and fills in its billing details; organizers mark offline orders paid, cancel, and write notes;
 * administrators delete.
 */
export const orderPolicy: Policy = {
  scope(ctx, t) {
    if (isStaff(ctx.caller)) return inLiveEvent(ctx, t.eventId!);
    if (!ctx.caller) return sql`false`;
    return and(inLiveEvent(ctx, t.eventId!), or(eq(t.userId!, ctx.caller.id), inManagedEvent(ctx.caller, t.eventId!)));
  },
  // The orders of a deleted event go with it.
  existsFor: (ctx, t) => inLiveEvent(ctx, t.eventId!),
  list: loggedIn,
  async read(ctx, row) {
    if (await handlesOrder(ctx, { userId: row.userId as number, eventId: row.eventId as number })) return;
    throw forbidden('Only the buyer, the organizers of the event or an administrator may see this order');
  },
  async create(ctx, input) {
    loggedIn(ctx);
    const named = input.relationships.event;
    const eventId = namedEvent(named);
    await roleIn(ctx, eventId, `Related event "${String(named)}" not found`);
    // Sold at the door: the organizers' order, whose status and payment method follow from its tickets (onsite.ts).
    if (await checkOnsiteCreate(ctx, eventId, input)) return;
    // The front end sends its default status, initializing, with every new order; a new order has no holders yet.
    const status = input.attributes.status;
    if (status !== undefined && status !== 'initializing')
      throw unprocessable('A new order is initializing: add its ticket holders, then move it on', STATUS);
    const note = input.attributes['cancel-note'];
    if (note !== undefined && note !== null) throw noteByOrganizers();
    const notes = input.attributes['order-notes'];
    if (notes !== undefined && notes !== null && !(await holdsRole(ctx, eventId, 'coorganizer')))
      throw notesByOrganizers();
    const mode = input.attributes['payment-mode'];
    if (mode !== undefined && mode !== null && mode !== 'free')
      await checkPaymentMode(ctx.db, eventId, 1, mode as string);
  },
  async update(ctx, row, input) {
    const caller = loggedIn(ctx);
    const eventId = row.eventId as number;
    const organizer = await holdsRole(ctx, eventId, 'coorganizer');
    if (!organizer && row.userId !== caller.id)
      throw forbidden('Only the buyer, the organizers of the event or an administrator may change this order');
    const attributes = input.attributes;
    if (attributes['on-site-tickets'] !== undefined)
      throw unprocessable(
        'Tickets sold at the door are named when the order is made (POST /v1/orders?onsite=true)',
        '/data/attributes/on-site-tickets',
      );
    const note = attributes['cancel-note'];
    if (!organizer && note !== undefined && note !== row.cancelNote) throw noteByOrganizers();
    const notes = attributes['order-notes'];
    if (!organizer && notes !== undefined && notes !== row.orderNotes) throw notesByOrganizers();
    // ember-data sends every attribute it read back with every save: a member equal to the stored one changes nothing.
    const status =
      attributes.status !== undefined && attributes.status !== row.status ? (attributes.status as string) : undefined;
    const modeSent = attributes['payment-mode'];
    const changesMode = modeSent !== undefined && modeSent !== row.paymentMode;
    const mode = (changesMode ? modeSent : row.paymentMode) as string | null;
    if (changesMode) {
      if (!OPEN.includes(row.status as string))
        throw forbidden(
          `The order is ${String(row.status)}: its payment method is settled`,
          '/data/attributes/payment-mode',
        );
      await checkPaymentMode(ctx.db, eventId, Number(row.amount), mode);
    }
    if (status !== undefined) await checkMove(ctx, row, status, mode, organizer);
    else if (!organizer && !OPEN.includes(row.status as string))
      throw forbidden(`The order is ${String(row.status)}; only organizers may change it now`);
  },
  delete: requireStaff,
};
