/**
 * What passing the door means (app/api/user_check_in.py before_create_object and app/api/helpers/user_check_in.py of
 * the reference), for a check-in made as a record (POST /v1/user-check-in) and for a scan alike: the ticket is
 * valid, the session is the station's, the holder did not already pass that point today, and the holder's record
 * says what happened. The holder's row is locked first, so of two simultaneous passes of one holder the second
 * reads what the first wrote: both never pass.
 */
import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { DateTime } from 'luxon';
import { attendees, events, orders, stations, tickets, userCheckIns } from '../../../db/schema/index.js';
import { conflict, notFound, unprocessable, type Ctx } from '../../jsonapi/index.js';
import { requireDoor } from '../events/access.js';
import { checkInDetails } from './details.js';

export type StationType = 'registration' | 'daily' | 'check in' | 'check out';

/** The reference's answer to each kind of station (UserCheckInSchema.get_check_in_out_status). */
export const MESSAGES: Record<StationType, string> = {
  'check in': 'Attendee check in successful.',
  'check out': 'Attendee check out successful.',
  registration: 'Ticket register successful.',
  daily: 'Attendee daily check successful.',
};

/** Orders whose tickets pass the door. */
const VALID_ORDERS = ['completed', 'placed'];

export interface DoorStation {
  id: number;
  eventId: number;
  name: string;
  type: StationType;
  room: number | null;
  /** The event's time zone: a day at the door is a day there. */
  timezone: string;
}

/** The live station of a live event, whose door the caller runs; 404 otherwise. */
export async function doorStation(ctx: Ctx, id: number, missing = 'Station not found'): Promise<DoorStation> {
  const [station] = await ctx.db
    .select({
      id: stations.id,
      eventId: stations.eventId,
      name: stations.stationName,
      type: stations.stationType,
      room: stations.microlocationId,
      timezone: events.timezone,
    })
    .from(stations)
    .innerJoin(events, eq(events.id, stations.eventId))
    .where(and(eq(stations.id, id), isNull(stations.deletedAt), isNull(events.deletedAt)))
    .limit(1);
  if (!station) throw notFound(missing);
  await requireDoor(ctx, station.eventId, missing);
  // The API requires a type; a station written otherwise (by hand) may lack one.
  if (!station.type) throw unprocessable('The station has no station-type: nothing can be checked there');
  return station as DoorStation;
}

/** A ticket holder as the door sees it. */
export interface Holder {
  id: number;
  eventId: number;
  identifier: string;
  firstname: string | null;
  lastname: string | null;
  email: string | null;
  ticketId: number | null;
  ticketName: string | null;
  ticketGone: boolean;
  orderId: number | null;
  orderStatus: string | null;
  isRegistered: boolean;
  isCheckedIn: boolean;
  isCheckedOut: boolean;
  registerTimes: string | null;
  checkinTimes: string | null;
  checkoutTimes: string | null;
}

/** The live ticket holder `which` names, locked until the transaction ends (undefined when there is none). */
async function lockHolder(ctx: Ctx, which: SQL): Promise<Holder | undefined> {
  const [holder] = await ctx.db
    .select({
      id: attendees.id,
      eventId: attendees.eventId,
      identifier: attendees.identifier,
      firstname: attendees.firstname,
      lastname: attendees.lastname,
      email: attendees.email,
      ticketId: attendees.ticketId,
      ticketName: tickets.name,
      ticketGone: sql<boolean>`${tickets.deletedAt} is not null`,
      orderId: attendees.orderId,
      orderStatus: sql<string | null>`case when ${orders.deletedAt} is null then ${orders.status} else 'deleted' end`,
      isRegistered: attendees.isRegistered,
      isCheckedIn: attendees.isCheckedIn,
      isCheckedOut: attendees.isCheckedOut,
      registerTimes: attendees.registerTimes,
      checkinTimes: attendees.checkinTimes,
      checkoutTimes: attendees.checkoutTimes,
    })
    .from(attendees)
    .leftJoin(tickets, eq(tickets.id, attendees.ticketId))
    .leftJoin(orders, eq(orders.id, attendees.orderId))
    .where(and(which, isNull(attendees.deletedAt)))
    .limit(1)
    .for('update', { of: attendees });
  return holder;
}

/**
 * A ticket passes the door when its order is completed or placed (not open, cancelled or expired) and its ticket
 * was not deleted; a holder the organizers added without an order passes on their word.
 */
function checkTicket(holder: Holder, pointer: string) {
  if (holder.orderId !== null && !VALID_ORDERS.includes(holder.orderStatus ?? ''))
    throw unprocessable(
      `The ticket's order is ${holder.orderStatus}: only tickets of completed or placed orders pass the door`,
      pointer,
    );
  if (holder.ticketGone)
    throw unprocessable(`The ticket "${holder.ticketName}" was deleted by the organizers`, pointer);
}

/** One of the holder's passes today. */
interface DonePass {
  stationId: number;
  stationName: string;
  type: StationType;
  sessionId: number | null;
  at: Date;
}

/**
 * The passes since the start of today in the event's time zone of the live holder `which` names, the latest first.
 * Sent behind the holder's lock on the same connection, it runs once the lock is held: it sees every pass committed
 * before (its snapshot is taken then).
 */
async function passesToday(ctx: Ctx, which: SQL, timezone: string): Promise<DonePass[]> {
  const dayStart = sql`(date_trunc('day', now() at time zone ${timezone}) at time zone ${timezone})`;
  const holder = sql`(select ${attendees.id} from ${attendees} where ${which} and ${attendees.deletedAt} is null limit 1)`;
  const rows = await ctx.db
    .select({
      stationId: userCheckIns.stationId,
      stationName: stations.stationName,
      type: stations.stationType,
      sessionId: userCheckIns.sessionId,
      at: userCheckIns.createdAt,
    })
    .from(userCheckIns)
    .innerJoin(stations, eq(stations.id, userCheckIns.stationId))
    .where(
      and(
        sql`${userCheckIns.ticketHolderId} = ${holder}`,
        isNull(userCheckIns.deletedAt),
        sql`${userCheckIns.createdAt} >= ${dayStart}`,
      ),
    )
    .orderBy(sql`${userCheckIns.createdAt} desc, ${userCheckIns.id} desc`);
  return rows as DonePass[];
}

/** When and where a pass was, for the refusal: `at 2030-05-01T09:12:03+02:00 (Europe/Berlin) at Desk A`. */
const when = (pass: DonePass, timezone: string) =>
  `at ${DateTime.fromJSDate(pass.at, { zone: timezone }).toFormat("yyyy-MM-dd'T'HH:mm:ssZZ")} (${timezone}) at ${pass.stationName}`;

/**
 * The reference's rules of a day at the door (409, with the time of the pass that stands in the way): registration
 * once a day (at any registration desk of the event; the reference counted one desk), a daily check once a day per
 * station and session, and in a session's room check in and check out in turn, starting with a check in.
 */
function refuseRepeat(station: DoorStation, sessionId: number | null, passes: DonePass[]) {
  const tz = station.timezone;
  if (station.type === 'registration') {
    const first = [...passes].reverse().find((p) => p.type === 'registration');
    if (first) throw conflict(`Attendee already registered: ${when(first, tz)}.`);
    return;
  }
  if (station.type === 'daily') {
    const first = [...passes]
      .reverse()
      .find((p) => p.type === 'daily' && p.stationId === station.id && p.sessionId === sessionId);
    if (first) throw conflict(`Attendee already check daily on station: ${when(first, tz)}.`);
    return;
  }
  const last = passes.find((p) => p.sessionId === sessionId && (p.type === 'check in' || p.type === 'check out'));
  if (station.type === 'check in' && last?.type === 'check in')
    throw conflict(`Attendee already checked in: ${when(last, tz)}; check out first.`);
  if (station.type === 'check out' && !last)
    throw conflict('Attendee not check in yet: no check in to this session today.');
  if (station.type === 'check out' && last?.type === 'check out')
    throw conflict(`Attendee not check in yet: checked out ${when(last, tz)}.`);
}

/** A comma-separated list of times with one more (the attendee's check-in members). */
const appended = (times: string | null, at: string) => (times ? `${times},${at}` : at);

/**
 * What the holder's record says of a pass: registered (is-registered, register-times), checked in or out
 * (is-checked-in, is-checked-out, checkin-times, checkout-times, as the front end's check-in toggle writes them).
 */
function marks(holder: Holder, type: StationType, now: Date): Partial<Holder> | undefined {
  const at = now.toISOString();
  if (type === 'registration') return { isRegistered: true, registerTimes: appended(holder.registerTimes, at) };
  if (type === 'check in')
    return { isCheckedIn: true, isCheckedOut: false, checkinTimes: appended(holder.checkinTimes, at) };
  if (type === 'check out')
    return { isCheckedIn: false, isCheckedOut: true, checkoutTimes: appended(holder.checkoutTimes, at) };
  return undefined;
}

/** Where a request names the holder and the session: a check-in record's relationships, or a scan's members. */
export interface Pointers {
  holder: string;
  session: string;
}

/** A pass that may be made: the check-in's columns the server sets, and the holder as it is after it. */
export interface Pass {
  values: Record<string, unknown>;
  holder: Holder;
  /** The update of the holder's check-in members (none at a daily station), to run with the check-in's insert. */
  mark?: SQL;
}

/**
 * Checks a pass at the station of the live holder `which` names (undefined when there is none), locking it: the
 * lock, the holder's passes of the day and the session's details go in one round trip, the passes read once the
 * lock is held. Answers the check-in's columns the server sets (the session's track, type and speakers, the time at
 * a door) and the holder's write.
 */
export async function passDoor(
  ctx: Ctx,
  station: DoorStation,
  which: SQL,
  sessionId: number | null,
  pointers: Pointers,
): Promise<Pass | undefined> {
  const [locked, passes, details] = await Promise.allSettled([
    lockHolder(ctx, which),
    passesToday(ctx, which, station.timezone),
    checkInDetails(ctx, station, sessionId, pointers.session),
  ]);
  const holder = settled(locked);
  if (!holder) return undefined;
  if (holder.eventId !== station.eventId)
    throw unprocessable("The ticket holder is not of the station's event", pointers.holder);
  checkTicket(holder, pointers.holder);
  const columns = settled(details);
  refuseRepeat(station, sessionId, settled(passes));
  const now = new Date();
  const changes = marks(holder, station.type, now);
  const door = station.type === 'check in' || station.type === 'check out';
  return {
    values: { ...columns, createdAt: now, ...(door ? { checkInOutAt: now } : {}) },
    holder: { ...holder, ...changes },
    ...(changes ? { mark: ctx.db.update(attendees).set(changes).where(eq(attendees.id, holder.id)).getSQL() } : {}),
  };
}

/** A settled promise's value, or its failure thrown. */
function settled<T>(result: PromiseSettledResult<T>): T {
  if (result.status === 'rejected') throw result.reason;
  return result.value;
}
