import { and, eq, isNull, or, sql } from 'drizzle-orm';
import { orders } from '../../../db/schema/index.js';
import { isStaff, loggedIn } from '../../auth/caller.js';
import { forbidden, integerId, type Ctx, type Policy, type Row, type WriteInput } from '../../jsonapi/index.js';
import { holdsRole, inManagedEvent, inVisibleEvent, namedEvent, roleIn } from '../events/access.js';
import { atTheDoor } from '../events/door-policy.js';

/** Orders whose buyer may still change their ticket holders (as for the order itself). */
const OPEN = ['initializing', 'pending'];

/**
 * Check-in, registration, badges, notes and tags are the business of the event's staff (the reference's registrars).
 */
const CHECK_IN = [
  'is-checked-in',
  'checkin-times',
  'checkout-times',
  'is-registered',
  'register-times',
  'is-checked-out',
  'device-name-checkin',
  'attendee-notes',
  'is-badge-printed',
  'badge-printed-at',
  'tag-id',
];

/** The order's buyer and status, when the order is live. */
async function orderOf(ctx: Ctx, id: unknown) {
  const orderId = typeof id === 'number' ? id : integerId(id);
  if (orderId === undefined) return undefined;
  const [row] = await ctx.db
    .select({ userId: orders.userId, eventId: orders.eventId, status: orders.status })
    .from(orders)
    .where(and(eq(orders.id, orderId), isNull(orders.deletedAt)))
    .limit(1);
  return row;
}

const COLUMN: Record<string, string> = {
  'is-checked-in': 'isCheckedIn',
  'checkin-times': 'checkinTimes',
  'checkout-times': 'checkoutTimes',
  'is-registered': 'isRegistered',
  'register-times': 'registerTimes',
  'is-checked-out': 'isCheckedOut',
  'device-name-checkin': 'deviceNameCheckin',
  'attendee-notes': 'attendeeNotes',
  'is-badge-printed': 'isBadgePrinted',
  'badge-printed-at': 'badgePrintedAt',
  'tag-id': 'tagId',
};

const FLAGS = new Set(['is-checked-in', 'is-registered', 'is-checked-out', 'is-badge-printed']);

/** A member's value as stored, to compare with the one sent: times as instants. */
const comparable = (v: unknown) => (v instanceof Date ? v.getTime() : v);
const sentComparable = (wire: string, v: unknown) =>
  wire === 'badge-printed-at' && typeof v === 'string' ? Date.parse(v) : v;

/** A check-in member sent by someone else than the event's staff must leave it as it is (or unset, on create). */
function checkInByStaff(input: WriteInput, current?: Row) {
  for (const wire of CHECK_IN) {
    let value = input.attributes[wire];
    if (value === undefined) continue;
    if (FLAGS.has(wire)) value = value === true || value === 'true';
    const unchanged = current
      ? sentComparable(wire, value) === (comparable(current[COLUMN[wire]!]) ?? null)
      : value === null || value === false;
    if (!unchanged) throw forbidden("Only the event's organizers check ticket holders in", `/data/attributes/${wire}`);
  }
  const tag = input.relationships.tag;
  if (tag !== undefined && String(tag ?? '') !== String(current?.tagId ?? ''))
    throw forbidden("Only the event's organizers tag ticket holders", '/data/relationships/tag');
}

/**
 * Ticket holders are private: the event's organizers and coorganizers see the event's, the buyer sees
 * those of their orders, a holder linked to a user account is seen by that user; administrators see
 * all. Organizers write them; the buyer adds and edits holders of an open order of theirs.
 */
export const attendeePolicy: Policy = {
  scope(ctx, t) {
    const { caller } = ctx;
    const event = inVisibleEvent(ctx, t.eventId!);
    if (isStaff(caller)) return event;
    if (!caller) return sql`false`;
    const buyer = sql`${t.orderId} in (select ${orders.id} from ${orders} where ${orders.userId} = ${caller.id})`;
    return and(event, or(inManagedEvent(caller, t.eventId!), eq(t.userId!, caller.id), buyer));
  },
  existsFor: (ctx, t) => inVisibleEvent(ctx, t.eventId!),
  // The event's registrars name its ticket holders in check-ins (user-check-in) without reading them here.
  linkable(ctx, t) {
    const door = atTheDoor(ctx, t.eventId!);
    return or(attendeePolicy.scope(ctx, t) ?? sql`true`, door ?? sql`true`);
  },
  list: loggedIn,
  async read(ctx, row) {
    const caller = loggedIn(ctx);
    if (row.userId === caller.id || (await holdsRole(ctx, row.eventId as number, 'coorganizer'))) return;
    if ((await orderOf(ctx, row.orderId))?.userId === caller.id) return;
    throw forbidden(
      'Only the buyer, the ticket holder, the organizers of the event or an administrator may see this ticket holder',
    );
  },
  async create(ctx, input) {
    const caller = loggedIn(ctx);
    const named = input.relationships.event;
    const eventId = namedEvent(named);
    await roleIn(ctx, eventId, `Related event "${String(named)}" not found`);
    if (await holdsRole(ctx, eventId, 'coorganizer')) return;
    checkInByStaff(input);
    const order = input.relationships.order ? await orderOf(ctx, input.relationships.order) : undefined;
    if (!order || order.userId !== caller.id)
      throw forbidden("Ticket holders are added by the event's organizers, or by the buyer to an open order of theirs");
    if (!OPEN.includes(order.status))
      throw forbidden(`The order is ${order.status}; only organizers may change it now`);
  },
  async update(ctx, row, input) {
    const caller = loggedIn(ctx);
    if (await holdsRole(ctx, row.eventId as number, 'coorganizer')) return;
    const order = await orderOf(ctx, row.orderId);
    if (!order || order.userId !== caller.id)
      throw forbidden('Only the buyer, the organizers of the event or an administrator may change this ticket holder');
    if (!OPEN.includes(order.status))
      throw forbidden(`The order is ${order.status}; only organizers may change it now`);
    if (input.relationships.order !== undefined && String(input.relationships.order) !== String(row.orderId))
      throw forbidden('Only organizers move a ticket holder to another order', '/data/relationships/order');
    checkInByStaff(input, row);
  },
  async delete(ctx, row) {
    if (!(await holdsRole(ctx, row.eventId as number, 'coorganizer'))) {
      loggedIn(ctx);
      throw forbidden('Only the organizers of the event or an administrator may delete a ticket holder');
    }
  },
};
