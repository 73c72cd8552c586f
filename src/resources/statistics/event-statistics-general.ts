import { Type } from '@sinclair/typebox';
import { and, sql, type SQL } from 'drizzle-orm';
import { events, sessions, speakers, speakersSessions, sponsors } from '../../../db/schema/index.js';
import { constant, defineResource, type AttributeSpec, type Columns, type Ctx } from '../../jsonapi/index.js';
import { inManagedEvent } from '../events/access.js';
import { SESSION_STATES } from '../sessions/states.js';
import { computedPolicy, eventIdentifier } from './figures.js';

/** A count over the live records of the event (`t`: its columns) meeting `only`. */
const counted = (description: string, count: (t: Columns) => SQL): AttributeSpec => ({
  select: count,
  schema: Type.Integer({ minimum: 0, description }),
  readOnly: true,
});

const liveSessions = (t: Columns, only?: SQL) =>
  sql`(select count(*)::int from ${sessions} where ${and(sql`${sessions.eventId} = ${t.id}`, sql`${sessions.deletedAt} is null`, only)})`;

// The reference, which has no submitted state, counts every session as submitted: `sessions` is that figure.
const sessionsIn = (state: (typeof SESSION_STATES)[number]) =>
  counted(`live sessions in state ${state}`, (t) => liveSessions(t, sql`${sessions.state} = ${constant(state)}`));

/** Distinct live speakers of the event with a live session, in each session state and in all (`total`). */
const speakersByState = (t: Columns) =>
  sql`(select json_build_object(${sql.join(
    SESSION_STATES.map(
      (state) =>
        sql`${constant(state)}, count(distinct ${speakers.id}) filter (where ${sessions.state} = ${constant(state)})`,
    ),
    sql`, `,
  )}, 'total', count(distinct ${speakers.id}))
    from ${speakers}
    join ${speakersSessions} on ${speakersSessions.speakerId} = ${speakers.id}
    join ${sessions} on ${sessions.id} = ${speakersSessions.sessionId} and ${sessions.deletedAt} is null
    where ${speakers.eventId} = ${t.id} and ${speakers.deletedAt} is null)`;

/** The events whose statistics the caller reads: those it owns, organizes or coorganizes (all for administrators). */
const managed = (ctx: Ctx, t: Columns) => inManagedEvent(ctx.caller, t.id!);

/**
 * The counts of an event's dashboard (the reference's EventStatisticsGeneralSchema), computed from its live
 * records in the statement that reads them. Read at `/v1/events/{id}/general-statistics` or included with the
 * event; the record's id is the event's.
 */
export const eventStatisticsGeneralResource = defineResource({
  type: 'event-statistics-general',
  path: 'event-statistics-general',
  self: 'events/{id}/general-statistics',
  routes: 'none',
  name: 'EventStatisticsGeneral',
  tag: 'Event statistics',
  description:
    "Counts of an event's sessions (by state), speakers and sponsors; its id is the event's. Only the event's " +
    'owner, organizers and coorganizers and administrators read them (`/v1/events/{id}/general-statistics`, or ' +
    '`include=general-statistics` on events, which leaves them out for anyone else).',
  table: events,
  softDelete: 'deletedAt',
  attributes: {
    identifier: eventIdentifier,
    sessions: counted('live sessions, all states', (t) => liveSessions(t)),
    ...Object.fromEntries(SESSION_STATES.map((state) => [`sessions-${state}`, sessionsIn(state)])),
    speakers: {
      select: speakersByState,
      schema: Type.Object(
        {
          ...Object.fromEntries(
            SESSION_STATES.map((state) => [
              state,
              Type.Integer({ minimum: 0, description: `speakers of a live session in state ${state}` }),
            ]),
          ),
          total: Type.Integer({ minimum: 0, description: 'speakers of at least one live session' }),
        },
        {
          additionalProperties: false,
          description:
            'live speakers with a live session, by the state of their sessions (a speaker counts once per state, ' +
            'once in total)',
        },
      ),
      readOnly: true,
    },
    'speaker-without-session': counted(
      'live speakers with no live session',
      (t) =>
        sql`(select count(*)::int from ${speakers} where ${speakers.eventId} = ${t.id} and ${speakers.deletedAt} is null
        and not exists (select 1 from ${speakersSessions} join ${sessions} on ${sessions.id} = ${speakersSessions.sessionId}
          where ${speakersSessions.speakerId} = ${speakers.id} and ${sessions.deletedAt} is null))`,
    ),
    sponsors: counted(
      'live sponsors',
      (t) =>
        sql`(select count(*)::int from ${sponsors} where ${sponsors.eventId} = ${t.id} and ${sponsors.deletedAt} is null)`,
    ),
  },
  policy: computedPolicy(managed),
});
