/**
 * For every relationship: the relationship endpoint (`/relationships/<name>`: GET, and for writable
 * ones PATCH, plus POST and DELETE on to-many) and the related endpoint (`/<name>`), which is a full
 * list route for to-many relationships.
 */
import { Type, type TObject } from '@sinclair/typebox';
import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { createdDocument, linkageDocument, listDocument, recordDocument } from './documents.js';
import { conflict, notFound } from '../../plugins/http-errors.js';
import { idOf, listQueryOf, newResourceData, parsed, writeInput, type RouteKit } from './kit.js';
import { pascal } from './names.js';
import { createdResponse } from './openapi-operations.js';
import { parseDocumentQuery, type RawQuery } from './query.js';
import { API_PREFIX, readLinkage, readList, readRecord, selfLink } from './read.js';
import { findRow } from './records.js';
import { componentIds, isWritable, relatedCreateId, suppliedByPath } from './resource-schemas.js';
import type { Ctx, NarrowedList, RelationshipSpec, Row, ToManySpec, ToOneSpec } from './resource.js';
import { integerId, type Linkage } from './values.js';
import { changeRelationship, createRecord } from './write.js';

export function registerRelationshipRoutes(kit: RouteKit) {
  for (const [name, rel] of kit.model.relationships) {
    linkageRoutes(kit, name, rel);
    relatedRoute(kit, name, rel);
  }
}

/** What a related read checks of the record its path names: the policy's `read` and the relationship's guard. */
async function parentChecks(kit: RouteKit, ctx: Ctx, rel: RelationshipSpec, row: Row) {
  await kit.model.spec.policy.read(ctx, row);
  await rel.guard?.(ctx, row);
}

function linkageRoutes(kit: RouteKit, name: string, rel: RelationshipSpec) {
  const { app, registry, model } = kit;
  const { spec } = model;
  const ids = componentIds(model);
  const path = `${API_PREFIX}/${spec.path}/:id/relationships/${name}`;
  const opName = `${spec.name}${pascal(name)}Relationship`;

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
      const { row, data } = await readLinkage(ctx, registry, model, rel, { rawId: idOf(request) });
      await parentChecks(kit, ctx, rel, row);
      return linkageDocument(data, selfLink(model, row.id), name);
    },
  );

  if (!isWritable(rel)) return;

  const change = (mode: 'replace' | 'add' | 'remove') => async (request: FastifyRequest) => {
    const { data } = request.body as { data: Linkage };
    const { id, linkage } = await changeRelationship(kit, model, request, idOf(request), name, data, mode);
    return linkageDocument(linkage, selfLink(model, id), name);
  };
  const writeOptions = (verb: string, operationId: string, description: string) =>
    kit.options({
      operationId,
      summary: `${verb} ${spec.type} ${name}`,
      description,
      params: true,
      body: Type.Ref(ids.relationshipRequest(name)),
      success: { 200: Type.Ref(ids.relationship(name), { description: 'The linkage after the change' }) },
      // A relationship write is an update of the record: it may fail as the record's update does.
      errors: [400, 401, 403, 404, 406, 409, 422, ...Object.keys(spec.updateFailures ?? {}).map(Number)],
      errorDescriptions: spec.updateFailures,
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
    app.post(
      path,
      writeOptions('Add to', `add${opName}`, `Adds the given ${name}; ones already linked stay.`),
      change('add'),
    );
    app.delete(path, writeOptions('Remove from', `remove${opName}`, `Removes the given ${name}.`), change('remove'));
  }
}

/**
 * The related endpoint `/v1/<path>/{id}/<name>`, also under the resource's path aliases and the relationship's
 * own (`aliases`): the reference's paths clients still call (`/v1/tax/{id}/event`,
 * `/v1/events/{id}/users-events-roles`). Every one answers as the first, with its self link.
 */
function relatedRoute(kit: RouteKit, name: string, rel: RelationshipSpec) {
  const { spec } = kit.model;
  const names = [name, ...(rel.aliases ?? [])];
  [spec.path, ...(spec.aliases ?? [])].forEach((segment, i) => {
    names.forEach((as, j) => {
      const suffix = `${i > 0 ? 'Alias' : ''}${j > 0 ? `As${pascal(as)}` : ''}`;
      relatedRead(kit, name, rel, `${API_PREFIX}/${segment}/:id/${as}`, suffix);
    });
  });
  if (rel.kind === 'toMany' && rel.inverse) relatedCreateRoute(kit, name, rel);
  if (rel.kind === 'toMany') for (const narrowed of rel.narrowed ?? []) narrowedRead(kit, name, rel, narrowed);
}

/**
 * A related list narrowed by a path parameter (`/v1/events/{id}/badge-forms/{badge_id}`): the related list's
 * checks, features and answer, of the related records whose column equals the parameter.
 */
function narrowedRead(kit: RouteKit, name: string, rel: ToManySpec, narrowed: NarrowedList) {
  const { app, registry, model } = kit;
  const { spec } = model;
  const target = registry.get(rel.type);
  const column = target.columns[narrowed.column];
  if (!column) throw new Error(`resource ${spec.type}: ${name} is narrowed by ${narrowed.column}, not a column`);
  const integer = column.dataType === 'number';
  const listRule = target.spec.policy.listRelated ?? target.spec.policy.list;
  const options = kit.options({
    operationId: `get${spec.name}${pascal(name)}${narrowed.operation}`,
    summary: narrowed.summary,
    description: `The ${name} of a ${spec.type} whose ${narrowed.param} is the path's (${narrowed.description}), with every list feature.`,
    params: true,
    querystring: kit.queries.list,
    success: { 200: Type.Ref(componentIds(target).list, { description: `A page of the ${name}` }) },
    errors: [400, 401, 403, 404, 406],
  });
  const schema = options.schema as { params: TObject };
  const params = Type.Object({
    ...schema.params.properties,
    [narrowed.param]: Type.String({ minLength: 1, maxLength: 255, description: narrowed.description }),
  });
  app.get(
    `${API_PREFIX}/${spec.path}/:id/${narrowed.path}`,
    { ...options, schema: { ...schema, params } },
    async (request) => {
      const ctx = kit.ctx(request);
      const raw = request.query as RawQuery;
      const checks = async () => {
        await parentChecks(kit, ctx, rel, await findRow(ctx, model, idOf(request)));
        listRule(ctx);
      };
      const { query, filter } = await parsed(() => listQueryOf(kit, ctx, target, raw), checks);
      const given = (request.params as Record<string, string>)[narrowed.param]!;
      const value = integer ? integerId(given) : given;
      if (value === undefined) {
        await checks();
        throw notFound(`${narrowed.param} "${given}" not found`);
      }
      const found = await readList(ctx, registry, target, query, {
        base: eq(column, value),
        filter,
        parent: { model, rawId: idOf(request) },
        rel,
      });
      await parentChecks(kit, ctx, rel, found.parent!);
      listRule(ctx);
      const path = narrowed.path.replace(`:${narrowed.param}`, encodeURIComponent(given));
      return listDocument(found, query, `${selfLink(model, found.parent!.id)}/${path}`, raw);
    },
  );
}

function relatedRead(kit: RouteKit, name: string, rel: RelationshipSpec, path: string, suffix: string) {
  const { app, registry, model } = kit;
  const { spec } = model;
  const target = registry.get(rel.type);
  const targetIds = componentIds(target);
  const operationId = `get${spec.name}${pascal(name)}${suffix}`;
  const aliasNote = suffix ? ` Alias of /v1/${spec.path}/{id}/${name}, kept for clients of the reference's path.` : '';
  /** A bad query answers 400 only after the record the path names passed its checks. */
  const checksFirst = (ctx: Ctx, request: FastifyRequest) => async () =>
    parentChecks(kit, ctx, rel, await findRow(ctx, model, idOf(request)));

  if (rel.kind === 'toOne') {
    app.get(
      path,
      kit.options({
        operationId,
        summary: `The ${name} of a ${spec.type}`,
        description: `The related ${target.type}, or null.${aliasNote}`,
        params: true,
        querystring: kit.queries.toOne,
        success: {
          200: Type.Union([Type.Ref(targetIds.document), Type.Ref('NullDocument')], {
            description: `The ${target.type}, or data null`,
          }),
        },
        errors: [400, 401, 403, 404, 406],
      }),
      async (request) => {
        const ctx = kit.ctx(request);
        const query = await parsed(
          () => parseDocumentQuery(registry, target, request.query as RawQuery),
          checksFirst(ctx, request),
        );
        const found = (await readRecord(ctx, registry, target, query, {
          parent: { model, rawId: idOf(request) },
          rel,
        }))!;
        await parentChecks(kit, ctx, rel, found.parent!);
        const self = `${selfLink(model, found.parent!.id)}/${name}`;
        if (found.data === undefined)
          return recordDocument({ data: 'null', ...(query.include.size > 0 ? { included: '[]' } : {}) }, self);
        return recordDocument(found, self);
      },
    );
    return;
  }

  app.get(
    path,
    kit.options({
      operationId,
      summary: `List the ${name} of a ${spec.type}`,
      description: `Only the ${name} related to this ${spec.type}, with every list feature.${aliasNote}`,
      params: true,
      querystring: kit.queries.list,
      success: { 200: Type.Ref(targetIds.list, { description: `A page of the ${name}` }) },
      errors: [400, 401, 403, 404, 406],
    }),
    async (request) => {
      const ctx = kit.ctx(request);
      const raw = request.query as RawQuery;
      const { query, filter } = await parsed(
        () => listQueryOf(kit, ctx, target, raw),
        async () => {
          await checksFirst(ctx, request)();
          (target.spec.policy.listRelated ?? target.spec.policy.list)(ctx);
        },
      );
      const found = await readList(ctx, registry, target, query, {
        filter,
        parent: { model, rawId: idOf(request) },
        rel,
      });
      await parentChecks(kit, ctx, rel, found.parent!);
      (target.spec.policy.listRelated ?? target.spec.policy.list)(ctx);
      return listDocument(found, query, `${selfLink(model, found.parent!.id)}/${name}`, raw);
    },
  );
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
      const created = await createRecord(kit, target, request, async (ctx) => {
        const parent = await findRow(ctx, model, idOf(request));
        await spec.policy.read(ctx, parent);
        const id = String(parent.id);
        const named = input.relationships[inverse];
        if (back.kind === 'toMany') input.relationships[inverse] = [...new Set([...((named as string[]) ?? []), id])];
        else if (named !== undefined && named !== id)
          throw conflict(
            `The ${inverse} in the document is not the ${spec.type} of the URL`,
            `/data/relationships/${inverse}`,
          );
        else input.relationships[inverse] = id;
        if (rel.within && input.relationships[rel.within] === undefined) {
          const owner = parent[(spec.relationships![rel.within] as ToOneSpec).column!];
          input.relationships[rel.within] = owner === null ? null : String(owner);
        }
        return input;
      });
      return createdDocument(reply, created, selfLink(target, created.row.id));
    },
  );
}
