import { Type } from '@sinclair/typebox';
import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { fetchRelated, linkageByParent, relatedCondition } from './loader.js';
import { pascal } from './names.js';
import {
  changeLinks, checkRelated, findRow, foreignKeyValues, guardImmutable, linkageIds, listRows, renderRows, rethrowDbError,
} from './operations.js';
import { parseDocumentQuery, parseListQuery, type RawQuery } from './query.js';
import { componentIds, isWritable, relatedCreateId, suppliedByPath } from './resource-schemas.js';
import type { Ctx, RelationshipSpec, Row, ToManySpec, ToOneSpec } from './resource.js';
import { conflict } from './errors.js';
import { createdDocument, createdResponse, createResource, idOf, newResourceData, writeInput, type RouteKit } from './routes.js';
import { jsonapiMember as jsonapi } from './schemas.js';
import { API_PREFIX, selfLink, type Linkage } from './serialize.js';

/**
 * For every relationship: the relationship endpoint (`/relationships/<name>`: GET, and for writable
 * ones PATCH, plus POST and DELETE on to-many) and the related endpoint (`/<name>`), which is a full
 * list route for to-many relationships.
 */
export function registerRelationshipRoutes(kit: RouteKit) {
  for (const [name, rel] of kit.model.relationships) {
    linkageRoutes(kit, name, rel);
    relatedRoute(kit, name, rel);
  }
}

function linkageRoutes(kit: RouteKit, name: string, rel: RelationshipSpec) {
  const { app, registry, model } = kit;
  const { spec } = model;
  const ids = componentIds(model);
  const path = `${API_PREFIX}/${spec.path}/:id/relationships/${name}`;
  const opName = `${spec.name}${pascal(name)}Relationship`;

  const document = async (ctx: Ctx, row: Row) => {
    const related = await fetchRelated(ctx, registry, rel, [row], true);
    const self = selfLink(model, row.id);
    return {
      links: { self: `${self}/relationships/${name}`, related: `${self}/${name}` },
      data: linkageByParent(rel, [row], related).get(row.id) as Linkage,
      jsonapi,
    };
  };

  app.get(
    path,
    kit.options({
      operationId: `get${opName}`,
      summary: `Linkage of ${spec.type} ${name}`,
      description: `The resource identifiers of the ${spec.type}'s ${name}.`,
      params: true,
      querystring: kit.queries.linkage,
      success: { 200: Type.Ref(ids.relationship(name), { description: 'The linkage' }) },
      errors: [400, 401, 403, 404, 406],
    }),
    async (request) => {
      const ctx = kit.ctx(request);
      const row = await findRow(ctx, model, idOf(request));
      await spec.policy.read(ctx, row);
      await rel.guard?.(ctx, row);
      return document(ctx, row);
    },
  );

  if (!isWritable(rel)) return;

  const change = (mode: 'replace' | 'add' | 'remove') => async (request: FastifyRequest) => {
    const { data } = request.body as { data: Linkage };
    return app.db.transaction(async (tx) => {
      const ctx = kit.ctx(request, tx);
      const row = await findRow(ctx, model, idOf(request), true);
      const relationships = { [name]: linkageIds(data) };
      await spec.policy.update(ctx, row, { attributes: {}, relationships });
      guardImmutable(registry, model, row, relationships);
      if (mode !== 'remove') await checkRelated(ctx, registry, model, relationships, row);
      if (rel.kind === 'toOne') {
        const values: Record<string, unknown> = {};
        foreignKeyValues(registry, model, relationships, values);
        await tx.update(model.table).set(values).where(eq(model.id, row.id));
        row[rel.column!] = values[rel.column!];
      } else {
        await changeLinks(ctx, registry, model, name, row.id, relationships[name] as string[], mode);
      }
      return document(ctx, row);
    }).catch(rethrowDbError(model));
  };
  const writeOptions = (verb: string, operationId: string, description: string) =>
    kit.options({
      operationId,
      summary: `${verb} ${spec.type} ${name}`,
      description,
      params: true,
      body: Type.Ref(ids.relationshipRequest(name)),
      success: { 200: Type.Ref(ids.relationship(name), { description: 'The linkage after the change' }) },
      errors: [400, 401, 403, 404, 406, 409, 422],
    });

  app.patch(
    path,
    writeOptions(
      'Replace',
      `update${opName}`,
      rel.kind === 'toOne' ? `Sets the ${name} (or clears it with null).` : `Replaces all ${name} with the given list.`,
    ),
    change('replace'),
  );
  if (rel.kind === 'toMany') {
    app.post(path, writeOptions('Add to', `add${opName}`, `Adds the given ${name}; ones already linked stay.`), change('add'));
    app.delete(path, writeOptions('Remove from', `remove${opName}`, `Removes the given ${name}.`), change('remove'));
  }
}

function relatedRoute(kit: RouteKit, name: string, rel: RelationshipSpec) {
  const { app, registry, model } = kit;
  const { spec } = model;
  const target = registry.get(rel.type);
  const targetIds = componentIds(target);
  const path = `${API_PREFIX}/${spec.path}/:id/${name}`;
  const operationId = `get${spec.name}${pascal(name)}`;

  if (rel.kind === 'toOne') {
    app.get(
      path,
      kit.options({
        operationId,
        summary: `The ${name} of a ${spec.type}`,
        description: `The related ${target.type}, or null.`,
        params: true,
        querystring: kit.queries.document,
        success: {
          200: Type.Union([
            Type.Ref(targetIds.document),
            Type.Object({ data: Type.Null(), links: Type.Ref('ResourceLinks'), jsonapi: Type.Ref('JsonApiVersion') }),
          ]),
        },
        errors: [400, 401, 403, 404, 406],
      }),
      async (request) => {
        const ctx = kit.ctx(request);
        const row = await findRow(ctx, model, idOf(request));
        await spec.policy.read(ctx, row);
        await rel.guard?.(ctx, row);
        const related = await fetchRelated(ctx, registry, rel, [row]);
        const query = parseDocumentQuery(registry, target, request.query as RawQuery);
        const { data, included } = await renderRows(ctx, registry, target, related, query);
        const links = { self: `${selfLink(model, row.id)}/${name}` };
        return { data: data[0] ?? null, ...(included ? { included } : {}), links, jsonapi };
      },
    );
    return;
  }

  app.get(
    path,
    kit.options({
      operationId,
      summary: `List the ${name} of a ${spec.type}`,
      description: `Only the ${name} related to this ${spec.type}, with every list feature.`,
      params: true,
      querystring: kit.queries.list,
      success: { 200: Type.Ref(targetIds.list, { description: `A page of the ${name}` }) },
      errors: [400, 401, 403, 404, 406],
    }),
    async (request) => {
      const ctx = kit.ctx(request);
      const row = await findRow(ctx, model, idOf(request));
      await spec.policy.read(ctx, row);
      await rel.guard?.(ctx, row);
      target.spec.policy.list(ctx);
      const query = parseListQuery(registry, target, request.query as RawQuery, kit.listAllMax);
      const base = relatedCondition(ctx, target, rel, row.id);
      const listPath = `${selfLink(model, row.id)}/${name}`;
      return { ...(await listRows(ctx, registry, target, query, listPath, request.query as RawQuery, base)), jsonapi };
    },
  );

  if (rel.inverse) relatedCreateRoute(kit, name, rel);
}

/** POST on a to-many related path: creates the target already linked back to this record. */
function relatedCreateRoute(kit: RouteKit, name: string, rel: ToManySpec) {
  const { app, model } = kit;
  const { spec } = model;
  const target = kit.registry.get(rel.type);
  const inverse = rel.inverse!;
  const back = target.relationships.get(inverse)!;
  app.post(
    `${API_PREFIX}/${spec.path}/:id/${name}`,
    kit.options({
      operationId: `create${spec.name}${pascal(name)}`,
      summary: `Create a ${target.type} of a ${spec.type}`,
      description:
        `Creates a ${target.type} whose ${inverse} is this ${spec.type}; the document may leave out ` +
        `${suppliedByPath(rel).join(' and ')}, taken from the path. Otherwise as POST /v1/${target.spec.path}.`,
      params: true,
      body: Type.Ref(relatedCreateId(target, model)),
      success: { 201: createdResponse(target) },
      errors: [400, 401, 403, 404, 406, 409, 422],
    }),
    async (request, reply) => {
      const input = writeInput(newResourceData(request));
      const row = await createResource(kit, target, request, async (ctx) => {
        const parent = await findRow(ctx, model, idOf(request));
        await spec.policy.read(ctx, parent);
        const id = String(parent.id);
        const named = input.relationships[inverse];
        if (back.kind === 'toMany') input.relationships[inverse] = [...new Set([...((named as string[]) ?? []), id])];
        else if (named !== undefined && named !== id)
          throw conflict(`The ${inverse} in the document is not the ${spec.type} of the URL`, `/data/relationships/${inverse}`);
        else input.relationships[inverse] = id;
        if (rel.within && input.relationships[rel.within] === undefined) {
          const owner = parent[(spec.relationships![rel.within] as ToOneSpec).column!];
          input.relationships[rel.within] = owner === null ? null : String(owner);
        }
        return input;
      });
      return createdDocument(reply, target, row);
    },
  );
}
