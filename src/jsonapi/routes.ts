/** Route registration of a resource: collection, records (and their alias paths), named lists, relationships. */
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { createdDocument, listDocument, recordDocument } from './documents.js';
import { notFound } from '../../plugins/http-errors.js';
import {
  bodyAliasOptions,
  idOf,
  listQueryOf,
  newResourceData,
  parsed,
  writeInput,
  type ResourceBody,
  type RouteKit,
} from './kit.js';
import { pascal } from './names.js';
import { createdResponse } from './openapi-operations.js';
import { parseDocumentQuery, type DocumentQuery, type RawQuery } from './query.js';
import { API_PREFIX, readList, readRecord, selfLink } from './read.js';
import { findRow } from './records.js';
import { registerRelationshipRoutes } from './relationship-routes.js';
import { componentIds } from './resource-schemas.js';
import { createRecord, deleteRecord, updateRecord } from './write.js';

/** List, create, read, update and delete of one resource, generated from its declaration. */
export function registerResourceRoutes(kit: RouteKit) {
  const { app, registry, model } = kit;
  const { spec } = model;
  const ids = componentIds(model);
  const base = `${API_PREFIX}/${spec.path}`;
  if (spec.routes === 'none') return;

  app.get(
    base,
    kit.options({
      operationId: `list${pascal(spec.path.replaceAll('/', '-'))}`,
      summary: `List ${spec.path}`,
      description: `Pages of ${spec.path} with sort, filter, include and sparse fieldsets. ${spec.description}`,
      querystring: kit.queries.list,
      success: { 200: Type.Ref(ids.list, { description: `A page of ${spec.path}` }) },
      errors: [400, 401, 403, 406],
    }),
    async (request) => {
      const ctx = kit.ctx(request);
      spec.policy.list(ctx);
      const raw = request.query as RawQuery;
      const { query, filter } = listQueryOf(kit, ctx, model, raw);
      return listDocument(await readList(ctx, registry, model, query, { filter }), query, base, raw);
    },
  );
  if (spec.routes === 'list') return;
  if (spec.routes === 'read') {
    registerRecordRoutes(kit, spec.path, '', true);
    registerRelationshipRoutes(kit);
    return;
  }

  for (const [i, path] of [spec.path, ...(spec.createAliases ?? [])].entries())
    registerCreateRoute(kit, path, i === 0 ? '' : `Alias${i > 1 ? i : ''}`);
  registerRecordRoutes(kit, spec.path, '');
  (spec.aliases ?? []).forEach((alias, i) => registerRecordRoutes(kit, alias, `Alias${i > 0 ? i + 1 : ''}`));
  registerRelationshipRoutes(kit);
  registerViewRoutes(kit);
  registerLookupRoutes(kit);
}

/** POST of a new record to `/v1/<segment>` (an alias segment too: the reference's old paths clients still call). */
function registerCreateRoute(kit: RouteKit, segment: string, suffix: string) {
  const { app, model } = kit;
  const { spec } = model;
  const ids = componentIds(model);
  const aliasNote = suffix ? ` Alias of POST /v1/${spec.path}, kept for clients of the old path.` : '';
  app.post(
    `${API_PREFIX}/${segment}`,
    {
      ...kit.options({
        operationId: `create${spec.name}${suffix}`,
        summary: `Create a ${spec.type}`,
        description: `Creates a ${spec.type}; answers 201 with its Location. Client-generated ids are refused (403).${aliasNote}`,
        body: Type.Ref(ids.create),
        ...(spec.createParameters
          ? { querystring: Type.Object(spec.createParameters, { additionalProperties: false }) }
          : {}),
        success: { 201: createdResponse(model) },
        errors: [400, 401, 403, 404, 406, 409, 422, ...Object.keys(spec.createFailures ?? {}).map(Number)],
        errorDescriptions: spec.createFailures,
      }),
      ...bodyAliasOptions(model),
    },
    async (request, reply) => {
      const input = writeInput(newResourceData(request));
      const created = await createRecord(kit, model, request, () => input);
      return createdDocument(reply, created, selfLink(model, created.row.id));
    },
  );
}

/** GET, PATCH and DELETE of one record under `/v1/<segment>/{id}` (GET alone for a record nobody writes). */
function registerRecordRoutes(kit: RouteKit, segment: string, suffix: string, readOnly = false) {
  const { app, registry, model } = kit;
  const { spec } = model;
  const ids = componentIds(model);
  const path = `${API_PREFIX}/${segment}/:id`;
  const aliasNote = suffix ? ` Alias of /v1/${spec.path}/{id}, kept for clients of the old path.` : '';
  const named = spec.alternateKey ? ` The path may name it by id or by ${spec.alternateKey}.` : '';

  app.get(
    path,
    kit.options({
      operationId: `get${spec.name}${suffix}`,
      summary: `Get a ${spec.type}`,
      description: `One ${spec.type}, with include and sparse fieldsets.${named}${aliasNote}`,
      params: true,
      querystring: kit.queries.document,
      success: { 200: Type.Ref(ids.document, { description: `The ${spec.type}` }) },
      errors: [400, 401, 403, 404, 406],
    }),
    async (request) => {
      const ctx = kit.ctx(request);
      const query: DocumentQuery = await parsed(
        () => parseDocumentQuery(registry, model, request.query as RawQuery),
        async () => spec.policy.read(ctx, await findRow(ctx, model, idOf(request))),
      );
      const found = await readRecord(ctx, registry, model, query, { rawId: idOf(request) });
      if (!found) throw notFound();
      await spec.policy.read(ctx, found.row);
      return recordDocument(found, selfLink(model, found.row.id));
    },
  );
  if (readOnly) return;

  app.patch(
    path,
    {
      ...kit.options({
        operationId: `update${spec.name}${suffix}`,
        summary: `Update a ${spec.type}`,
        description: `Changes the attributes and relationships the document names; others keep their values.${named}${aliasNote}`,
        params: true,
        body: Type.Ref(ids.update),
        success: { 200: Type.Ref(ids.document, { description: `The updated ${spec.type}` }) },
        errors: [400, 401, 403, 404, 406, 409, 422, ...Object.keys(spec.updateFailures ?? {}).map(Number)],
        errorDescriptions: spec.updateFailures,
      }),
      ...bodyAliasOptions(model),
    },
    async (request) => {
      const { data } = request.body as ResourceBody;
      const updated = await updateRecord(kit, model, request, idOf(request), data.id, writeInput(data));
      return recordDocument({ data: updated.data }, selfLink(model, updated.row.id));
    },
  );

  app.delete(
    path,
    kit.options({
      operationId: `delete${spec.name}${suffix}`,
      summary: `Delete a ${spec.type}`,
      description:
        (spec.softDelete
          ? `Soft delete: the record is kept with deleted-at set and disappears from every read.`
          : `Deletes the ${spec.type}.`) + aliasNote,
      params: true,
      success: { 200: Type.Ref('DeleteDocument', { description: 'Deleted' }) },
      // A hard delete fails while other records reference the row; a soft delete never does. Fastify
      // reads a DELETE body although this one takes none: malformed JSON is 400, too large 413.
      errors: [
        ...(spec.softDelete ? [400, 401, 403, 404, 406, 413] : [400, 401, 403, 404, 406, 409, 413]),
        ...Object.keys(spec.deleteFailures ?? {}).map(Number),
      ],
      errorDescriptions: spec.deleteFailures,
    }),
    async (request) => {
      await deleteRecord(kit, model, request, idOf(request));
      return { meta: { message: 'Object successfully deleted' as const }, jsonapi: { version: '1.0' as const } };
    },
  );
}

/**
 * The named lists of a resource (`GET /v1/events/upcoming`): the list route, with the view's condition
 * on top of the policy's scope and the client's filter, and the view's order when the client sends none.
 */
function registerViewRoutes(kit: RouteKit) {
  const { app, registry, model } = kit;
  const { spec } = model;
  for (const [name, view] of Object.entries(spec.views ?? {})) {
    const path = `${API_PREFIX}/${spec.path}/${name}`;
    const options = kit.options({
      operationId: `list${pascal(name)}${pascal(spec.path)}`,
      summary: view.summary,
      description: `${view.description} Sorted by \`${view.sort}\` unless \`sort\` says otherwise; pages, filter, include and sparse fieldsets as every list.`,
      querystring: Type.Object({ ...kit.queries.list.properties, ...view.params }, { additionalProperties: false }),
      success: { 200: Type.Ref(componentIds(model).list, { description: `A page of ${name} ${spec.path}` }) },
      errors: [400, 401, 403, 406],
    });
    app.get(
      path,
      view.volatile ? { ...options, config: { ...options.config, cache: false } } : options,
      async (request: FastifyRequest) => {
        const ctx = kit.ctx(request);
        spec.policy.list(ctx);
        const raw = request.query as RawQuery;
        const { query, filter } = listQueryOf(kit, ctx, model, { ...raw, sort: raw.sort ?? view.sort });
        const found = await readList(ctx, registry, model, query, { base: view.where(ctx, model.columns), filter });
        return listDocument(found, query, path, raw);
      },
    );
  }
}

/** The lookups of a resource: one record named by other path parameters than its id (see LookupSpec). */
function registerLookupRoutes(kit: RouteKit) {
  const { app, registry, model } = kit;
  const { spec } = model;
  for (const lookup of spec.lookups ?? []) {
    // Parameters without effect are never required: a client may send them or not.
    const ignoredQuery = Object.fromEntries(
      Object.entries(lookup.ignoredQuery ?? {}).map(([name, schema]) => [name, Type.Optional(schema)]),
    );
    const ignored = Object.keys(ignoredQuery);
    const options = kit.options({
      operationId: lookup.operationId,
      summary: lookup.summary,
      description: lookup.description,
      querystring: Type.Object(
        { ...kit.queries.document.properties, ...ignoredQuery },
        { additionalProperties: false },
      ),
      success: { 200: Type.Ref(componentIds(model).document, { description: `The ${spec.type}` }) },
      errors: [400, 401, 404, 406, ...Object.keys(lookup.failures ?? {}).map(Number)],
      errorDescriptions: lookup.failures,
    });
    const schema = { ...(options.schema as object), params: lookup.params };
    app.get(
      `${API_PREFIX}/${lookup.path}`,
      { ...options, schema, config: { ...options.config, cache: false } },
      async (request: FastifyRequest) => {
        const ctx = kit.ctx(request);
        const raw = { ...(request.query as RawQuery) };
        for (const name of ignored) delete raw[name];
        if (raw.include === undefined && lookup.defaultInclude) raw.include = lookup.defaultInclude;
        const where = await lookup.find(ctx, request.params as Record<string, string>);
        const query = parseDocumentQuery(registry, model, raw);
        const found = await readRecord(ctx, registry, model, query, { where });
        if (!found) throw notFound();
        await spec.policy.read(ctx, found.row);
        return recordDocument(found, selfLink(model, found.row.id));
      },
    );
  }
}
