/**
 * Lists computed by a query of their own rather than read from a resource's table (reports grouping records):
 * each record's id and attributes come from the route's rows; the document is a list's, every record at once.
 */
import { Type, type TSchema } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest, RouteShorthandOptions } from 'fastify';
import { operation } from './openapi-operations.js';
import { compatibilityParameters } from './query.js';
import { API_PREFIX } from './read.js';
import { jsonapiMember } from './schemas.js';

export interface ComputedList {
  /** The list's path under /v1, which is also each record's self link (as the reference's reports). */
  path: string;
  type: string;
  /** PascalCase prefix of its components (`<name>Resource`, `<name>ListDocument`). */
  name: string;
  tag: string;
  summary: string;
  description: string;
  attributes: Record<string, TSchema>;
  /** Refuses callers who may not read it (throws). */
  check(request: FastifyRequest): void;
  /** Its records, in order: each its id and attributes. */
  rows(app: FastifyInstance): Promise<{ id: string; attributes: Record<string, unknown> }[]>;
}

/**
 * The route of one list, `GET /v1/<path>`, as `app.get` takes it (`app.get(...computedListRoute(app, list))`),
 * with its resource and document schemas added to `app`.
 */
export function computedListRoute(
  app: FastifyInstance,
  list: ComputedList,
): [string, RouteShorthandOptions, (request: FastifyRequest) => Promise<unknown>] {
  const self = `${API_PREFIX}/${list.path}`;
  const resource = Type.Object(
    {
      type: Type.Literal(list.type),
      id: Type.String(),
      attributes: Type.Object(list.attributes, { additionalProperties: false }),
      links: Type.Ref('ResourceLinks'),
    },
    { $id: `${list.name}Resource` },
  );
  const document = Type.Object(
    {
      data: Type.Array(Type.Ref(resource)),
      links: Type.Ref('ResourceLinks'),
      meta: Type.Ref('ListMeta'),
      jsonapi: Type.Ref('JsonApiVersion'),
    },
    { $id: `${list.name}ListDocument` },
  );
  app.addSchema(resource);
  app.addSchema(document);
  const options = operation({
    tag: list.tag,
    operationId: `list${list.name}`,
    summary: list.summary,
    description: list.description,
    querystring: Type.Object(compatibilityParameters, { additionalProperties: false }),
    success: { 200: Type.Ref(document, { description: list.summary }) },
    errors: [400, 401, 403, 406],
  });
  return [
    self,
    options,
    async (request) => {
      list.check(request);
      const rows = await list.rows(app);
      return {
        data: rows.map((row) => ({ type: list.type, ...row, links: { self } })),
        links: { self },
        meta: { count: rows.length },
        jsonapi: jsonapiMember,
      };
    },
  ];
}
