import { isDeepStrictEqual } from 'node:util';
import { and, eq, isNull, or, sql } from 'drizzle-orm';
import { orders } from '../../../db/schema/index.js';
import { isStaff, loggedIn } from '../../auth/caller.js';
import { forbidden, integerId, type Ctx, type Policy, type Row, type WriteInput } from '../../jsonapi/index.js';
import { holdsDoor, holdsRole, inDoorEvent, inVisibleEvent, namedEvent, roleIn } from '../events/access.js';

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

/**
 * What the door changes of a ticket holder (the door right, events/access.ts): check-in, check-out, registration
 * and badge printing. A registrar changes these and nothing else.
 */
export const DOOR_MEMBERS = new Set([
  'is-checked-in',
  'checkin-times',
  'is-checked-out',
  'checkout-times',
  'device-name-checkin',
  'is-registered',
  'register-times',
  'is-badge-printed',
  'badge-printed-at',
]);

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

/** The holder's relationships whose targets the door does not read (the order, the user account, the tag): null to it. */
const UNREAD_AT_THE_DOOR = new Set(['order', 'user', 'tag']);

/** The column of an attendee's attribute: its wire name in camel case (`job-title`: `jobTitle`). */
const columnOf = (wire: string) => wire.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/** A sent value as the record would store it: flags as booleans, times as instants, e-mails trimmed. */
function stored(wire: string, value: unknown): unknown {
  if (value === 'true' || value === 'false') return value === 'true';
  if (wire === 'birth-date' || wire === 'badge-printed-at')
    return typeof value === 'string' ? Date.parse(value) : value;
  if (wire === 'email' && typeof value === 'string') return value.trim();
  return value;
}

/**
 * The door's write: a registrar changes the check-in members (DOOR_MEMBERS) and sends every other member back
 * unchanged, as it read it (ember-data sends all it read), or is refused naming the first it would change; the
 * linkage sent back is left out of the write (one it read as null stays as it is). The relationship routes, which
 * only change linkage, are not the door's.
 */
function doorChangesOnly(input: WriteInput, row: Row) {
  for (const [wire, value] of Object.entries(input.attributes)) {
    if (DOOR_MEMBERS.has(wire)) continue;
    const current = row[columnOf(wire)] ?? null;
    if (!isDeepStrictEqual(stored(wire, value), current instanceof Date ? current.getTime() : current))
      throw forbidden(
        `At the door only the check-in members of a ticket holder change (${[...DOOR_MEMBERS].join(', ')}); ${wire} is the organizers'`,
        `/data/attributes/${wire}`,
      );
  }
  for (const [name, ids] of Object.entries(input.relationships)) {
    const refused = forbidden(
      `At the door a ticket holder's ${name} stays as it is; it is the organizers'`,
      input.change ? '/data' : `/data/relationships/${name}`,
    );
    // A relationship route changes nothing else than the linkage.
    if (input.change) throw refused;
    const current = row[`${columnOf(name)}Id`];
    // What the door reads of the linkage: null where the target is not its to read (it is sent back so).
    const read = UNREAD_AT_THE_DOOR.has(name) ? null : current;
    if (String(ids ?? '') !== String(current ?? '') && String(ids ?? '') !== String(read ?? '')) throw refused;
    delete input.relationships[name];
  }
}

/**
 * Ticket holders are private: the event's organizers and coorganizers see the event's, and so do its registrars
 * (the door right: events/access.ts); the buyer sees those of their orders, a holder linked to a user account is
 * seen by that user; administrators see all. Organizers write them; registrars change their check-in members
 * (DOOR_MEMBERS) only; the buyer adds and edits holders of an open order of theirs.
 */
export const attendeePolicy: Policy = {
  scope(ctx, t) {
    const { caller } = ctx;
    const event = inVisibleEvent(ctx, t.eventId!);
    if (isStaff(caller)) return event;
    if (!caller) return sql`false`;
    const buyer = sql`${t.orderId} in (select ${orders.id} from ${orders} where ${orders.userId} = ${caller.id})`;
    return and(event, or(inDoorEvent(caller, t.eventId!), eq(t.userId!, caller.id), buyer));
  },
  existsFor: (ctx, t) => inVisibleEvent(ctx, t.eventId!),
  list: loggedIn,
  async read(ctx, row) {
    const caller = loggedIn(ctx);
    if (row.userId === caller.id || (await holdsDoor(ctx, row.eventId as number))) return;
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
    const buyer = order?.userId === caller.id && OPEN.includes(order.status);
    if (!buyer && (await holdsDoor(ctx, row.eventId as number))) return doorChangesOnly(input, row);
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
