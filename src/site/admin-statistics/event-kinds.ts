/**
 * The administrators' statistics of event types and topics (the reference's API Blueprint, Admin Statistics >
 * Event Types / Event Topics Statistics Details): one record per live type or topic, its id and name, with
 * the number of live events of it.
 */
import { Type } from '@sinclair/typebox';
import { sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import { events, eventTopics, eventTypes } from '../../../db/schema/index.js';
import { requirePanel } from '../../auth/panels.js';
import { INT4_MAX, computedListRoute, type ComputedList } from '../../jsonapi/index.js';

const statisticsOf = (
  kind: 'type' | 'topic',
  table: typeof eventTypes | typeof eventTopics,
  link: PgColumn,
): ComputedList => ({
  path: `admin/statistics/event-${kind}s`,
  type: `admin-statistics-event-${kind}`,
  name: `AdminStatisticsEvent${kind === 'type' ? 'Type' : 'Topic'}`,
  tag: 'Admin statistics',
  summary: `Events by ${kind}`,
  description:
    `Administrators and those the admin panel is open to (401 without a login, 403 for anyone else). Each live event ${kind} (its id), with ` +
    `the number of live events of that ${kind}.`,
  attributes: {
    name: Type.String({ description: `the event ${kind}` }),
    count: Type.Integer({ minimum: 0, maximum: INT4_MAX, description: `live events of the ${kind}` }),
  },
  check: requirePanel('admin'),
  async rows(app) {
    const found = await app.db.execute<{ id: number; name: string; count: number }>(sql`
      select ${table.id} as id, ${table.name} as name,
        (select count(*)::int from ${events} where ${link} = ${table.id} and ${events.deletedAt} is null) as count
      from ${table} where ${table.deletedAt} is null order by ${table.id}`);
    return found.map(({ id, name, count }) => ({ id: String(id), attributes: { name, count } }));
  },
});

/** `GET /v1/admin/statistics/event-types` and `/event-topics`. */
export default async function eventKindStatisticsRoutes(app: FastifyInstance) {
  const lists = [
    statisticsOf('type', eventTypes, events.eventTypeId),
    statisticsOf('topic', eventTopics, events.eventTopicId),
  ];
  for (const list of lists) app.get(...computedListRoute(app, list));
}
