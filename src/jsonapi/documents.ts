/** The top level of JSON:API documents around the members the read compiler returns as JSON text. */
import type { FastifyReply } from 'fastify';
import { badRequest } from '../../plugins/http-errors.js';
import type { ListQuery } from './query.js';
import type { ListResult, RecordResult } from './read.js';

const JSONAPI = '"jsonapi":{"version":"1.0"}';

function pageLink(path: string, raw: Record<string, unknown>, number: number, size: number): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(raw)) {
    if (v !== undefined && k !== 'page[number]' && k !== 'page[size]') params.set(k, String(v));
  }
  params.set('page[size]', String(size));
  params.set('page[number]', String(number));
  return `${path}?${params.toString()}`;
}

/** A list document: the page, what `include` asks for, pagination links and meta.count. */
export function listDocument(result: ListResult, query: ListQuery, path: string, raw: Record<string, unknown>): string {
  // Refused after reading at most the limit, the most a page may read anyway.
  if (query.size === 0 && result.count > query.limit)
    throw badRequest(
      `page[size]=0 returns every matching record, at most ${query.limit} (LIST_ALL_MAX), and ${result.count} match: ` +
        `narrow the filter, or read them in pages of at most ${query.limit}`,
      'page[size]',
    );
  const last = Math.max(1, Math.ceil(result.count / query.limit));
  const links = {
    self: pageLink(path, raw, query.number, query.size),
    first: pageLink(path, raw, 1, query.size),
    last: pageLink(path, raw, last, query.size),
    prev: query.number > 1 ? pageLink(path, raw, Math.min(query.number - 1, last), query.size) : null,
    next: query.number < last ? pageLink(path, raw, query.number + 1, query.size) : null,
  };
  const included = result.included === undefined ? '' : `,"included":${result.included}`;
  return `{"data":${result.data}${included},"links":${JSON.stringify(links)},"meta":{"count":${result.count}},${JSONAPI}}`;
}

/** A single-resource document (`data` may be the text `null`). */
export function recordDocument(result: Pick<RecordResult, 'data' | 'included'>, self: string): string {
  const included = result.included === undefined ? '' : `,"included":${result.included}`;
  return `{"data":${result.data}${included},"links":{"self":${JSON.stringify(self)}},${JSONAPI}}`;
}

/** A relationship document: the linkage and the relationship's links. */
export function linkageDocument(data: string, recordSelf: string, name: string): string {
  const links = { self: `${recordSelf}/relationships/${name}`, related: `${recordSelf}/${name}` };
  return `{"links":${JSON.stringify(links)},"data":${data},${JSONAPI}}`;
}

/** The 201 answer to a create: the new record and its Location. */
export function createdDocument(reply: FastifyReply, created: RecordResult, self: string): string {
  reply.code(201).header('Location', self);
  return recordDocument(created, self);
}
