/** The fuzz world's door records (stations, head counts, check-ins, badge forms and fields), in one event. */
import type { FastifyInstance } from 'fastify';
import { create, rel } from '../helpers/events.js';

export async function doorRecords(
  app: FastifyInstance,
  token: string,
  of: { event: string; microlocation: string; session: string; attendee: string },
): Promise<[string, string[]][]> {
  const make = (path: string, type: string, attributes: Record<string, unknown>, relationships: object) =>
    create(app, token, path, type, attributes, relationships as Record<string, unknown>);
  const station = await make(
    'stations',
    'station',
    { 'station-name': 'Desk', 'station-type': 'registration' },
    { event: rel('event', of.event), microlocation: rel('microlocation', of.microlocation) },
  );
  const pax = await make(
    'station-store-paxs',
    'station-store-pax',
    { 'current-pax': 1 },
    { station: rel('station', station), session: rel('session', of.session) },
  );
  const checkIn = await make(
    'user-check-in',
    'user_check_in',
    {},
    { station: rel('station', station), 'ticket-holder': rel('attendee', of.attendee) },
  );
  const badgeForm = await make('badge-forms', 'badge-form', { 'badge-id': 'fuzz' }, { event: rel('event', of.event) });
  // The holder's ticket wears it: the holder's badge prints.
  await app.sql`update tickets set badge_id = 'fuzz'
    where id = (select ticket_id from attendees where id = ${Number(of.attendee)})`;
  const badgeField = await make(
    'badge-field-forms',
    'badge-field-form',
    { 'badge-id': 'fuzz' },
    { 'badge-form': rel('badge-form', badgeForm) },
  );
  return [
    ['station', [station]],
    ['station-store-pax', [pax]],
    ['user_check_in', [checkIn]],
    ['badge-form', [badgeForm]],
    ['badge-field-form', [badgeField]],
  ];
}
