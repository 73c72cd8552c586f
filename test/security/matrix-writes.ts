/**
 * What the write recipes of the matrix share: a valid new record of every kind, documents, and fresh
 * targets (made by the event's owner) for the cells that delete or change something for good.
 */
import type { FastifyInstance } from 'fastify';
import { create, createEvent, rel } from '../helpers/events.js';
import type { Recipe } from './matrix.js';
import type { MatrixWorld } from './matrix-world.js';

let n = 0;
/** A number no other cell used: unique names, emails and field identifiers. */
export const next = () => ++n;

export interface Kind {
  type: string;
  attributes(): Record<string, unknown>;
  /** The attribute a PATCH changes. */
  renames: string;
  /** One per event: a record made for a cell needs an event of its own. */
  perEvent?: boolean;
}

/** Every record kind of an event, by path, with attributes a create succeeds with. */
export const KINDS: Record<string, Kind> = {
  'event-copyrights': {
    type: 'event-copyright',
    attributes: () => ({ licence: 'CC0', year: 2020 }),
    renames: 'holder',
    perEvent: true,
  },
  'social-links': {
    type: 'social-link',
    attributes: () => ({ name: 'Blog', link: 'https://blog.example.com' }),
    renames: 'name',
  },
  microlocations: { type: 'microlocation', attributes: () => ({ name: 'Hall' }), renames: 'name' },
  sponsors: { type: 'sponsor', attributes: () => ({ name: 'Initech' }), renames: 'name' },
  tracks: { type: 'track', attributes: () => ({ name: 'Data', color: '#123456' }), renames: 'name' },
  'session-types': { type: 'session-type', attributes: () => ({ name: 'Workshop', length: '01:30' }), renames: 'name' },
  // Accepted: a session in another state exists only for its event's staff, creator and speakers.
  sessions: { type: 'session', attributes: () => ({ title: 'Keynote', state: 'accepted' }), renames: 'title' },
  speakers: {
    type: 'speaker',
    attributes: () => ({ name: 'Grace', email: `grace${next()}@example.com` }),
    renames: 'name',
  },
  tickets: {
    type: 'ticket',
    attributes: () => ({
      name: `Ticket ${next()}`,
      'sales-starts-at': '2030-01-01T00:00:00Z',
      'sales-ends-at': '2030-05-01T00:00:00Z',
    }),
    renames: 'name',
  },
  taxes: {
    type: 'tax',
    attributes: () => ({ name: 'VAT', rate: 7, 'tax-id': 'DE1', email: 'tax@example.org' }),
    renames: 'name',
    perEvent: true,
  },
  'speakers-calls': {
    type: 'speakers-call',
    attributes: () => ({ 'starts-at': '2030-01-01T00:00:00Z', 'ends-at': '2030-03-01T00:00:00Z' }),
    renames: 'announcement',
    perEvent: true,
  },
  'ticket-tags': { type: 'ticket-tag', attributes: () => ({ name: `Early ${next()}` }), renames: 'name' },
  tags: { type: 'tag', attributes: () => ({ name: `Tag ${next()}`, color: '#00FF00' }), renames: 'name' },
  'custom-forms': {
    type: 'custom_form',
    attributes: () => ({ form: 'session', 'field-identifier': `field${next()}`, type: 'text' }),
    renames: 'name',
  },
};

export const document = (
  type: string,
  attributes: Record<string, unknown>,
  relationships?: Record<string, unknown>,
) => ({
  document: { data: { type, attributes, ...(relationships ? { relationships } : {}) } },
});
export const update = (type: string, id: string, attributes: Record<string, unknown>) => ({
  document: { data: { type, id, attributes } },
});
export const linkage = (type: string, ...ids: string[]) => ({ document: { data: ids.map((id) => ({ type, id })) } });
export const toOne = (type: string, id: string) => ({ document: rel(type, id) });

/** A new record of `path` as a create request sends it (for an event of its own where the kind needs one). */
export const newRecord = (path: string, event: string) =>
  document(KINDS[path]!.type, KINDS[path]!.attributes(), { event: rel('event', event) });

export function freshTargets(app: FastifyInstance, w: MatrixWorld) {
  const { cast, topic, published } = w.world;
  const freshEvent = async () => (await createEvent(app, cast, `Fresh ${next()}`, 'published', topic)).id;
  /** The event a new record of `path` goes to: the world's, or a fresh one where the kind allows one per event. */
  const eventFor = async (path: string) => (KINDS[path]!.perEvent ? freshEvent() : published.event);
  /** A record of `path` made by the event's owner. */
  const fresh = async (path: string, relationships: Record<string, unknown> = {}) => {
    const kind = KINDS[path]!;
    return create(app, cast.owner.token, path, kind.type, kind.attributes(), {
      event: rel('event', await eventFor(path)),
      ...relationships,
    });
  };
  /** DELETE of a record made for the cell, under `segment` (a path or its alias). */
  const removeFresh =
    (path: string, segment = path): Recipe =>
    async () => ({ path: `/v1/${segment}/${await fresh(path)}` });
  return { freshEvent, eventFor, fresh, removeFresh };
}
