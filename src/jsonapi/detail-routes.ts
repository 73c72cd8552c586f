import { Type } from '@sinclair/typebox';
import { eq } from 'drizzle-orm';
import { conflict } from './errors.js';
import { selectionFor } from './model.js';
import {
  attributeValues, checkRelated, findRow, foreignKeyValues, guardImmutable, renderRows, replaceToMany, rethrowDbError,
} from './operations.js';
import { parseDocumentQuery, type RawQuery } from './query.js';
import { dropReadOnly } from './read-only.js';
import { componentIds } from './resource-schemas.js';
import type { Row } from './resource.js';
import { idOf, writeInput, type ResourceBody, type RouteKit } from './routes.js';
import { jsonapiMember as jsonapi } from './schemas.js';
import { API_PREFIX, selfLink, toResource } from './serialize.js';

/** GET, PATCH and DELETE of one record under `/v1/<segment>/{id}`. */
export function registerDetailRoutes(kit: RouteKit, segment: string, suffix: string) {
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
      const row = await findRow(ctx, model, idOf(request));
      await spec.policy.read(ctx, row);
      const query = parseDocumentQuery(registry, model, request.query as RawQuery);
      const { data, included } = await renderRows(ctx, registry, model, [row], query);
      return { data: data[0], ...(included ? { included } : {}), links: { self: selfLink(model, row.id) }, jsonapi };
    },
  );

  app.patch(
    path,
    kit.options({
      operationId: `update${spec.name}${suffix}`,
      summary: `Update a ${spec.type}`,
      description: `Changes the attributes and relationships the document names; others keep their values.${named}${aliasNote}`,
      params: true,
      body: Type.Ref(ids.update),
      success: { 200: Type.Ref(ids.document, { description: `The updated ${spec.type}` }) },
      errors: [400, 401, 403, 404, 406, 409, 422],
    }),
    async (request) => {
      const { data } = request.body as ResourceBody;
      const input = writeInput(data);
      const row = await app.db
        .transaction(async (tx) => {
          const ctx = kit.ctx(request, tx);
          const current = await findRow(ctx, model, idOf(request), true);
          if (data.id !== String(current.id) && data.id !== idOf(request))
            throw conflict('The id in the document does not match the URL', '/data/id');
          await dropReadOnly(ctx, registry, model, input, current);
          await spec.policy.update(ctx, current, input);
          guardImmutable(registry, model, current, input.relationships);
          await checkRelated(ctx, registry, model, input.relationships, current);
          const values = await attributeValues(model, input.attributes);
          foreignKeyValues(registry, model, input.relationships, values);
          await spec.hooks?.beforeUpdate?.(ctx, current, values, input);
          const [updated] = Object.keys(values).length
            ? ((await tx
                .update(model.table)
                .set(values)
                .where(eq(model.id, current.id))
                .returning(selectionFor(ctx, model))) as Row[])
            : [current];
          await replaceToMany(ctx, registry, model, current.id, input.relationships);
          return updated!;
        })
        .catch(rethrowDbError(model));
      return { data: toResource(model, row, new Map()), links: { self: selfLink(model, row.id) }, jsonapi };
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
      errors: spec.softDelete ? [400, 401, 403, 404, 406, 413] : [400, 401, 403, 404, 406, 409, 413],
    }),
    async (request) => {
      await app.db
        .transaction(async (tx) => {
          const ctx = kit.ctx(request, tx);
          const row = await findRow(ctx, model, idOf(request), true);
          await spec.policy.delete(ctx, row);
          await spec.hooks?.beforeDelete?.(ctx, row);
          if (spec.softDelete) await tx.update(model.table).set({ [spec.softDelete]: new Date() }).where(eq(model.id, row.id));
          else await tx.delete(model.table).where(eq(model.id, row.id));
        })
        .catch(rethrowDbError(model, true));
      return { meta: { message: 'Object successfully deleted' as const }, jsonapi };
    },
  );
}
