/**
 * The write recipes of the door's records (stations, head counts, check-ins, badge forms and fields) on the
 * published event: each sends what its event's owner succeeds with; a cell that deletes acts on a record of its own.
 */
import type { FastifyInstance } from 'fastify';
import { create, rel } from '../helpers/events.js';
import type { Recipe } from './matrix.js';
import type { MatrixWorld } from './matrix-world.js';
import { document, next, toOne, update } from './matrix-writes.js';

type Doc = { document: { data: { type: string; attributes: object; relationships?: object } } };

export async function doorRecipes(app: FastifyInstance, w: MatrixWorld): Promise<Record<string, Recipe>> {
  const p = w.world.published;
  const { owner } = w.users;
  const { ids } = w;
  const of = { event: rel('event', p.event) };
  const [made] = await app.sql<{ holder: number }[]>`select ticket_holder_id as holder from user_check_ins
    where id = ${Number(ids['user-check-in'])}`;
  const holder = String(made!.holder);
  const station = () => document('station', { 'station-name': `Desk ${next()}`, 'station-type': 'daily' }, of);
  const pax = () =>
    document(
      'station-store-pax',
      { 'current-pax': next() },
      { station: rel('station', ids.stations!), session: rel('session', p.session) },
    );
  /** A new ticket holder of the published event (added by its organizers: no order). */
  const newHolder = async () => {
    const [made] = await app.sql<{ id: number; identifier: string }[]>`insert into attendees (event_id, firstname)
      values (${Number(p.event)}, 'Scanned') returning id, identifier`;
    return made!;
  };
  // A holder registers once a day: each check-in is a new holder's.
  const checkIn = async () =>
    document(
      'user_check_in',
      {},
      { station: rel('station', ids.stations!), 'ticket-holder': rel('attendee', String((await newHolder()).id)) },
    );
  const badgeForm = () => document('badge-form', { 'badge-id': `b${next()}` }, of);
  const badgeField = () =>
    document('badge-field-form', { 'badge-id': 'matrix' }, { 'badge-form': rel('badge-form', ids['badge-forms']!) });
  /** DELETE of a record made for the cell. */
  const removeNew = (path: string, body: () => Doc | Promise<Doc>) => async () => {
    const { data } = (await body()).document;
    const id = await create(
      app,
      owner.token,
      path,
      data.type,
      data.attributes as Record<string, unknown>,
      data.relationships as Record<string, unknown>,
    );
    return { path: `/v1/${path}/${id}` };
  };
  return {
    'POST /v1/stations': station,
    'POST /v1/station': station,
    'POST /v1/events/{id}/stations': () => document('station', { 'station-name': 'Door', 'station-type': 'daily' }),
    'PATCH /v1/stations/{id}': () => update('station', ids.stations!, { 'station-name': `Desk ${next()}` }),
    'DELETE /v1/stations/{id}': removeNew('stations', station),
    'PATCH /v1/stations/{id}/relationships/event': () => toOne('event', p.event),
    'PATCH /v1/stations/{id}/relationships/microlocation': () => toOne('microlocation', p.microlocation),
    'POST /v1/station-store-paxs': pax,
    'PATCH /v1/station-store-paxs/{id}': () =>
      update('station-store-pax', ids['station-store-paxs']!, { 'current-pax': next() }),
    'DELETE /v1/station-store-paxs/{id}': removeNew('station-store-paxs', pax),
    'PATCH /v1/station-store-paxs/{id}/relationships/station': () => toOne('station', ids.stations!),
    'PATCH /v1/station-store-paxs/{id}/relationships/session': () => toOne('session', p.session),
    'POST /v1/user-check-in': checkIn,
    'PATCH /v1/user-check-in/{id}': () => update('user_check_in', ids['user-check-in']!, {}),
    'DELETE /v1/user-check-in/{id}': removeNew('user-check-in', checkIn),
    'PATCH /v1/user-check-in/{id}/relationships/station': () => toOne('station', ids.stations!),
    'PATCH /v1/user-check-in/{id}/relationships/session': () => toOne('session', p.session),
    'PATCH /v1/user-check-in/{id}/relationships/ticket-holder': () => toOne('attendee', holder),
    'POST /v1/badge-forms': badgeForm,
    'POST /v1/events/{id}/badge-forms': () => document('badge-form', { 'badge-id': `e${next()}` }),
    'PATCH /v1/badge-forms/{id}': () =>
      update('badge-form', ids['badge-forms']!, { 'badge-color': `#00000${next() % 10}` }),
    'DELETE /v1/badge-forms/{id}': removeNew('badge-forms', badgeForm),
    'PATCH /v1/badge-forms/{id}/relationships/event': () => toOne('event', p.event),
    'POST /v1/badge-field-forms': badgeField,
    'PATCH /v1/badge-field-forms/{id}': () =>
      update('badge-field-form', ids['badge-field-forms']!, { 'font-size': next() % 40 }),
    'DELETE /v1/badge-field-forms/{id}': removeNew('badge-field-forms', badgeField),
    'PATCH /v1/badge-field-forms/{id}/relationships/badge-form': () => toOne('badge-form', ids['badge-forms']!),
    // A new ticket holder at the published event's registration desk.
    'POST /v1/stations/{station_id}/scan': async () => ({
      path: `/v1/stations/${ids.stations}/scan`,
      json: { identifier: (await newHolder()).identifier },
    }),
    // The holder's ticket has the matrix's badge form (matrix-world.ts); every holder, checked in or not.
    'POST /v1/events/{event_id}/export/badges/pdf': () => ({ json: { checked_in: 'all' } }),
  };
}
