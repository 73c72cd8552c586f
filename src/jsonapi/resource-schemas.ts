import { Type, type TProperties, type TSchema } from '@sinclair/typebox';
import { identifierOf } from './schemas.js';
import { Nullable } from './types.js';
import type { Model, Registry } from './model.js';
import { pascal } from './names.js';
import type { RelationshipSpec, ToManySpec } from './resource.js';

const ref = (id: string) => Type.Ref(id);
const linkageSchema = (rel: RelationshipSpec) =>
  rel.kind === 'toOne'
    ? Type.Union([identifierOf(rel.type), Type.Null()])
    : Type.Array(identifierOf(rel.type), { maxItems: 1000 });
/** Linkage a request may send: a required to-one cannot be cleared. */
const writeLinkageSchema = (rel: RelationshipSpec) =>
  rel.kind === 'toOne' && rel.required ? identifierOf(rel.type) : linkageSchema(rel);

/** Writable relationships: a to-one foreign key, or a to-many join table. */
export const isWritable = (rel: RelationshipSpec) =>
  !rel.readOnly && (rel.kind === 'toOne' ? !!rel.column : !!rel.through || (!!rel.foreignKey && !!rel.settable));

/**
 * Relationships of the target that POST on the related path `rel` fills in from the path's record:
 * the inverse, and the owner both share (a session's new speaker is of the session's event).
 */
export const suppliedByPath = (rel: ToManySpec): string[] =>
  rel.inverse ? [rel.inverse, ...(rel.within ? [rel.within] : [])] : [];

/** Component id of the body of POST on a to-many related path (`/events/{id}/speakers`). */
export const relatedCreateId = (target: Model, parent: Model) =>
  `${target.spec.name}CreateRequestVia${parent.spec.name}`;

/** Component ids of one resource, named after it so the OpenAPI document reads naturally. */
export const componentIds = (model: Model) => {
  const n = model.spec.name;
  return {
    attributes: `${n}Attributes`,
    relationships: `${n}Relationships`,
    resource: `${n}Resource`,
    document: `${n}Document`,
    list: `${n}ListDocument`,
    create: `${n}CreateRequest`,
    update: `${n}UpdateRequest`,
    relationship: (rel: string) => `${n}${pascal(rel)}Relationship`,
    relationshipRequest: (rel: string) => `${n}${pascal(rel)}RelationshipRequest`,
  };
};

/** Types reachable through relationships: what `included` may hold. */
function reachable(registry: Registry, model: Model): string[] {
  const seen = new Set<string>();
  const visit = (m: Model) => {
    for (const rel of m.relationships.values()) {
      if (seen.has(rel.type)) continue;
      seen.add(rel.type);
      visit(registry.get(rel.type));
    }
  };
  visit(model);
  return [...seen];
}

/** What the document says of a read-only member in a request (see dropReadOnly); `empty`: what a create may send. */
const readOnlyNote = (description: string | undefined, empty = 'null') =>
  [
    description,
    `Read-only: a request may send it back as read (on create: ${empty}), and it is then ignored; any other value is refused (422).`,
  ]
    .filter(Boolean)
    .join('. ');

const admitsNull = (schema: TSchema): boolean =>
  schema.type === 'null' ||
  (Array.isArray(schema.type) && schema.type.includes('null')) ||
  (schema.anyOf ?? []).some(admitsNull);

/** A read-only attribute in a request: its type, or null (what a create sends back), marked readOnly. */
function sentBack(schema: TSchema): TSchema {
  const simple = typeof schema.type === 'string' && schema.const === undefined && schema.enum === undefined;
  const nullable = admitsNull(schema) ? schema : simple ? Nullable(schema) : Type.Union([schema, Type.Null()]);
  return { ...nullable, readOnly: true, description: readOnlyNote(schema.description) };
}

/** The attributes of a request: the writable ones, and the read-only ones a client may send back. */
function requestAttributes(model: Model, create: boolean) {
  const props: Record<string, TSchema> = {};
  for (const [wire, attr] of Object.entries(model.spec.attributes)) {
    // No `default` in requests: leaving a member out of an update keeps its value, and generated
    // clients would otherwise make every defaulted member mandatory.
    const { default: _default, ...written } = attr.input ?? attr.schema;
    if (attr.readOnly) {
      props[wire] = Type.Optional(sentBack(written as TSchema));
      continue;
    }
    const schema = { ...written, ...(attr.writeOnly ? { writeOnly: true } : {}) } as TSchema;
    props[wire] = create && attr.required ? schema : Type.Optional(schema);
  }
  return Type.Object(props, { additionalProperties: false });
}

/** The `type` member a write request may carry. */
const requestType = (model: Model) => {
  const names = [model.type, ...(model.spec.typeAliases ?? [])];
  return names.length === 1 ? Type.Literal(model.type) : Type.Union(names.map((n) => Type.Literal(n)));
};

/**
 * Relationships a create (`create`) or update document may carry: the writable ones, and the read-only
 * ones a client may send back; `optional` names ones a create may leave out.
 */
function requestRelationships(model: Model, create: boolean, optional: string[] = []): TProperties {
  const props: Record<string, TSchema> = {};
  let required = false;
  for (const [name, rel] of model.relationships) {
    if (!isWritable(rel)) {
      const description = readOnlyNote(rel.description, rel.kind === 'toOne' ? 'null' : 'an empty list');
      const member = Type.Object(
        { data: linkageSchema(rel) },
        { additionalProperties: false, readOnly: true, description },
      );
      props[name] = Type.Optional(member);
      continue;
    }
    const member = Type.Object({ data: writeLinkageSchema(rel) }, { additionalProperties: false });
    const mandatory = create && rel.kind === 'toOne' && !!rel.required && !optional.includes(name);
    required ||= mandatory;
    props[name] = mandatory ? member : Type.Optional(member);
  }
  // Without relationships the member may still come back empty, as responses carry it.
  const obj = Type.Object(props, { additionalProperties: false });
  return { relationships: required ? obj : Type.Optional(obj) };
}

/** The body of a create request; `optional` are required relationships the path already supplies. */
function createRequest(model: Model, $id: string, optional: string[] = []) {
  const hasRequired = Object.values(model.spec.attributes).some((a) => a.required && !a.readOnly);
  const attributes = requestAttributes(model, true);
  return Type.Object(
    {
      data: Type.Object(
        {
          type: requestType(model),
          id: Type.Optional(Type.String({ description: 'refused: the server assigns ids' })),
          attributes: hasRequired ? attributes : Type.Optional(attributes),
          ...requestRelationships(model, true, optional),
        },
        { additionalProperties: false },
      ),
    },
    { $id, additionalProperties: false },
  );
}

/** Every component of one resource, each with an `$id` so it becomes a named OpenAPI component. */
export function resourceSchemas(registry: Registry, model: Model): TSchema[] {
  const ids = componentIds(model);
  const { spec } = model;
  const attributes: Record<string, TSchema> = {};
  for (const [wire] of model.readable) {
    const attr = spec.attributes[wire]!;
    attributes[wire] = Type.Optional({ ...attr.schema, ...(attr.readOnly ? { readOnly: true } : {}) });
  }
  const relationships: Record<string, TSchema> = {};
  for (const [name, rel] of model.relationships) {
    relationships[name] = Type.Optional(
      Type.Object(
        { links: ref('RelationshipLinks'), data: Type.Optional(linkageSchema(rel)) },
        { description: rel.description ?? `${rel.kind === 'toOne' ? 'the' : 'the list of'} ${rel.type}` },
      ),
    );
  }
  const includable = reachable(registry, model).map((t) => ref(componentIds(registry.get(t)).resource));
  const included: TProperties = includable.length
    ? { included: Type.Optional(Type.Array(includable.length === 1 ? includable[0]! : Type.Union(includable))) }
    : {};

  const schemas: TSchema[] = [
    Type.Object(attributes, { $id: ids.attributes, description: `Attributes of a ${spec.type}` }),
    Type.Object(relationships, { $id: ids.relationships }),
    Type.Object(
      {
        type: Type.Literal(spec.type),
        id: Type.String(),
        attributes: ref(ids.attributes),
        relationships: Type.Optional(ref(ids.relationships)),
        links: ref('ResourceLinks'),
      },
      { $id: ids.resource, description: spec.description },
    ),
    Type.Object(
      {
        data: ref(ids.resource),
        ...included,
        links: Type.Optional(ref('ResourceLinks')),
        jsonapi: ref('JsonApiVersion'),
      },
      { $id: ids.document },
    ),
    Type.Object(
      {
        data: Type.Array(ref(ids.resource)),
        ...included,
        links: ref('ListLinks'),
        meta: ref('ListMeta'),
        jsonapi: ref('JsonApiVersion'),
      },
      { $id: ids.list },
    ),
    createRequest(model, ids.create),
    Type.Object(
      {
        data: Type.Object(
          {
            type: requestType(model),
            id: Type.String({ description: 'must equal the id in the path' }),
            attributes: Type.Optional(requestAttributes(model, false)),
            ...requestRelationships(model, false),
          },
          { additionalProperties: false },
        ),
      },
      { $id: ids.update, additionalProperties: false },
    ),
  ];
  for (const [name, rel] of model.relationships) {
    if (rel.kind === 'toMany' && rel.inverse) {
      const target = registry.get(rel.type);
      schemas.push(createRequest(target, relatedCreateId(target, model), suppliedByPath(rel)));
    }
    schemas.push(
      Type.Object(
        { links: ref('RelationshipLinks'), data: linkageSchema(rel), jsonapi: ref('JsonApiVersion') },
        { $id: ids.relationship(name) },
      ),
    );
    if (isWritable(rel)) {
      schemas.push(
        Type.Object(
          { data: writeLinkageSchema(rel) },
          { $id: ids.relationshipRequest(name), additionalProperties: false },
        ),
      );
    }
  }
  return schemas;
}
