import { Type } from '@sinclair/typebox';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { imageSizes } from '../../../db/schema/index.js';
import { requireStaff } from '../../auth/caller.js';
import type { Config } from '../../config.js';
import {
  API_PREFIX,
  compatibilityParameters,
  conflict,
  ignoredListParameters,
  jsonapiMember as jsonapi,
  notFound,
  operation,
  unprocessable,
} from '../../jsonapi/index.js';
import { columnOf, type ImageSizeKind, KINDS } from './attributes.js';

const TAG = 'Image sizes';
type SizeRow = typeof imageSizes.$inferSelect;

const Params = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64, description: 'the record id' }) });

function schemasOf(kind: ImageSizeKind) {
  const attributes = Type.Object(
    {
      type: Type.String({ description: `the image_sizes row: always \`${kind.row}\` (read-only)` }),
      ...kind.attributes,
    },
    { additionalProperties: false },
  );
  const resource = Type.Object(
    { type: Type.Literal(kind.type), id: Type.String(), attributes, links: Type.Ref('ResourceLinks') },
    { $id: kind.name, description: `The sizes and JPEG quality of the variants of ${kind.what}.` },
  );
  const document = Type.Object(
    { data: Type.Ref(resource), links: Type.Ref('ResourceLinks'), jsonapi: Type.Ref('JsonApiVersion') },
    { $id: `${kind.name}Document` },
  );
  const update = Type.Object(
    {
      data: Type.Object(
        {
          type: Type.Literal(kind.type),
          id: Type.String({ minLength: 1, maxLength: 64 }),
          attributes: Type.Optional(
            Type.Partial(
              Type.Object(
                {
                  type: Type.String({ maxLength: 32, description: 'read-only: accepted only unchanged' }),
                  ...kind.attributes,
                },
                { additionalProperties: false },
              ),
            ),
          ),
        },
        { additionalProperties: false },
      ),
    },
    { $id: `${kind.name}UpdateRequest`, additionalProperties: false },
  );
  return { resource, document, update };
}

/** The record of a kind as a document; its self link names the record's id, as the reference's does. */
function documentOf(kind: ImageSizeKind, row: SizeRow) {
  const self = `${API_PREFIX}/${kind.path}/${row.id}`;
  const attributes = Object.fromEntries([
    ['type', row.type],
    ...Object.keys(kind.attributes).map((wire) => [wire, row[columnOf(wire)]]),
  ]);
  return { data: { type: kind.type, id: String(row.id), attributes, links: { self } }, links: { self }, jsonapi };
}

/** The row of a kind; a path id that is not its id names nothing. */
async function rowOf(db: FastifyInstance['db'], kind: ImageSizeKind, id?: string, forUpdate = false) {
  const query = db.select().from(imageSizes).where(eq(imageSizes.type, kind.row));
  const [row] = forUpdate ? await query.for('update') : await query;
  if (!row || (id !== undefined && id !== String(row.id))) throw notFound();
  return row;
}

/** Column values of the sent attributes; `type` only unchanged. */
function valuesOf(row: SizeRow, attributes: Record<string, unknown>) {
  const values: Record<string, unknown> = {};
  for (const [wire, value] of Object.entries(attributes)) {
    if (wire === 'type') {
      if (value !== row.type) throw unprocessable(`type is read-only: it is ${row.type}`, '/data/attributes/type');
      continue;
    }
    values[columnOf(wire)] = value;
  }
  return values;
}

function kindRoutes(app: FastifyInstance, config: Config, kind: ImageSizeKind) {
  const { resource, document, update } = schemasOf(kind);
  for (const schema of [resource, document, update]) app.addSchema(schema);
  const success = { 200: Type.Ref(document, { description: `The ${kind.type} record` }) };
  const base = `${API_PREFIX}/${kind.path}`;
  const ReadQuery = Type.Object(
    { ...compatibilityParameters, ...ignoredListParameters(config.LIST_ALL_MAX, `the one ${kind.type} record`) },
    { additionalProperties: false },
  );
  const read = async (request: FastifyRequest) => {
    request.server.readCache?.depends(request, ['image_sizes']);
    const { id } = (request.params ?? {}) as { id?: string };
    return documentOf(kind, await rowOf(app.db, kind, id));
  };
  const description =
    `Everyone reads the sizes and JPEG quality of the variants of ${kind.what}; the image jobs make every ` +
    'later variant with them. There is one record: the path without an id names it, a path id must be its id.';
  const pascal = kind.name;
  for (const [path, operationId, params] of [
    ['', `get${pascal}`, undefined],
    ['/:id', `get${pascal}ById`, Params],
  ] as const) {
    app.get(
      `${base}${path}`,
      operation({
        tag: TAG,
        operationId,
        summary: `The ${kind.type} record`,
        description,
        ...(params ? { params } : {}),
        querystring: ReadQuery,
        success,
        errors: [400, 401, 404, 406],
      }),
      read,
    );
  }
  for (const [path, operationId, params] of [
    ['', `update${pascal}`, undefined],
    ['/:id', `update${pascal}ById`, Params],
  ] as const) {
    app.patch(
      `${base}${path}`,
      {
        // Only administrators learn what the record accepts: others are refused before the body is read.
        preValidation: async (request) => requireStaff(request),
        ...operation({
          tag: TAG,
          operationId,
          summary: `Change the ${kind.type} record`,
          description:
            `Administrators only. Changes the given members; variants made from then on use them (those made ` +
            'before stay as they are). The document names the record by its id (409 otherwise).',
          ...(params ? { params } : {}),
          querystring: Type.Object(compatibilityParameters, { additionalProperties: false }),
          body: Type.Ref(update),
          success: { 200: Type.Ref(document, { description: `The ${kind.type} record after the change` }) },
          errors: [400, 401, 403, 404, 406, 409, 415, 422],
        }),
      },
      async (request) => {
        const { data } = request.body as { data: { id: string; attributes?: Record<string, unknown> } };
        const { id } = (request.params ?? {}) as { id?: string };
        const row = await app.db.transaction(async (tx) => {
          const current = await rowOf(tx, kind, id, true);
          if (data.id !== String(current.id))
            throw conflict(`The document's id does not name the ${kind.type} record`, '/data/id');
          const values = valuesOf(current, data.attributes ?? {});
          if (Object.keys(values).length === 0) return current;
          const [changed] = await tx.update(imageSizes).set(values).where(eq(imageSizes.id, current.id)).returning();
          return changed!;
        });
        return documentOf(kind, row);
      },
    );
  }
}

/**
 * `GET`/`PATCH /v1/event-image-sizes` and `/v1/speaker-image-sizes` (with or without the record's id): the
 * sizes of the image variants (open-event-server app/api/event_image_sizes.py, speaker_image_sizes.py).
 */
export default async function imageSizeRoutes(app: FastifyInstance, { config }: { config: Config }) {
  for (const kind of KINDS) kindRoutes(app, config, kind);
}
