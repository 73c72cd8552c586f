/**
 * The lookup of a code by its text in an event (`GET /v1/events/{id}/discount-codes/{code}`), as the front end's
 * adapters build it (app/adapters/discount-code.js, access-code.js: ember-data's queryRecord, which also sends its
 * query, `eventIdentifier` and `code`, as query parameters). The code must be usable now (422 otherwise, as the
 * reference's validate_discount_code); the request then presents it, so the buyer may read that one code.
 */
import { Type } from '@sinclair/typebox';
import { and, eq, sql } from 'drizzle-orm';
import type { Columns, LookupSpec } from '../jsonapi/index.js';
import { eventIdNamed } from './events/access.js';
import { present } from './code-rules.js';
import { codeFor, type CodeTables } from './code-usage.js';

export function codeLookup(o: {
  kind: string;
  tables: CodeTables;
  path: string;
  name: string;
  defaultInclude?: string;
  note?: string;
}): LookupSpec {
  const { kind } = o;
  return {
    path: `events/:event/${o.path}/:code`,
    operationId: `get${o.name}ByCode`,
    summary: `An event's ${kind} by its text`,
    description:
      `The event's ${kind} whose text is {code} (whatever its case), for the checkout of the event page: anyone who ` +
      `knows the code may read it while it can be used. 422 when it is inactive, not valid yet, expired (valid-till, ` +
      `else the event's end) or used up; 404 when the event (by id or identifier; a draft to those without a role in ` +
      `it) or the code does not exist.${o.note ? ` ${o.note}` : ''}`,
    params: Type.Object({
      event: Type.String({ minLength: 1, maxLength: 64, description: 'id or identifier of the event' }),
      code: Type.String({ minLength: 1, maxLength: 100, description: `the ${kind}'s text` }),
    }),
    ignoredQuery: {
      eventIdentifier: Type.String({ maxLength: 64, description: "the front end's query (also in the path), ignored" }),
      code: Type.String({ maxLength: 100, description: "the front end's query (also in the path), ignored" }),
    },
    ...(o.defaultInclude ? { defaultInclude: o.defaultInclude } : {}),
    failures: { 422: `The ${kind} cannot be used now (inactive, not valid yet, expired or used up)` },
    async find(ctx, params) {
      const eventId = await eventIdNamed(ctx, params.event!);
      await codeFor(o.tables, ctx.db, eventId, params.code!);
      present(ctx.request, kind, eventId, params.code!);
      const t = o.tables.columns as Columns;
      return and(eq(t.eventId!, eventId), sql`lower(${t.code!}) = lower(${params.code!})`, o.tables.where)!;
    },
  };
}
