import { Type, type TProperties, type TSchema } from '@sinclair/typebox';
import { identifierOf } from './schemas.js';
import { Nullable, Requiring } from './types.js';
import type { Model, Registry } from './model.js';
import { pascal } from './names.js';
import type { RelationshipSpec, ToManySpec } from './resource.js';

const ref = (id: string) => Type.Ref(id);
/** The identifier of a record of the relationship's target: `<Target>Identifier`, declared once (registrySchemas). */
const identifierRef = (registry: Registry, rel: RelationshipSpec) =>
  ref(componentIds(registry.get(rel.type)).identifier);
const linkageSchema = (registry: Registry, rel: RelationshipSpec) =>
  rel.kind === 'toOne'
    ? Type.Union([identifierRef(registry, rel), Type.Null()])
    : Type.Array(identifierRef(registry, rel), { maxItems: 1000 });
/** Linkage a request may send: a required to-one cannot be cleared. */
const writeLinkageSchema = (registry: Registry, rel: RelationshipSpec) =>
  rel.kind === 'toOne' && rel.required ? identifierRef(registry, rel) : linkageSchema(registry, rel);

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
    identifier: `${n}Identifier`,
    attributes: `${n}Attributes`,
    relationships: `${n}Relationships`,
    resource: `${n}Resource`,
    document: `${n}Document`,
    list: `${n}ListDocument`,
    create: `${n}CreateRequest`,
    update: `${n}UpdateRequest`,
    requestAttributes: `${n}RequestAttributes`,
    requestRelationships: `${n}RequestRelationships`,
    relationship: (rel: string) => `${n}${pascal(rel)}Relationship`,
    relationshipRequest: (rel: string) => `${n}${pascal(rel)}RelationshipRequest`,
  };
};

/** The types relationships link to, in the registry's order. */
const targets = (registry: Registry) =>
  [...registry.models.values()].filter((m) =>
    [...registry.models.values()].some((owner) => [...owner.relationships.values()].some((r) => r.type === m.type)),
  );

/**
 * Schemas of the whole registry, each declared once: the identifier of every type a relationship links to,
 * and `IncludedResource`, a resource of any of those types (what `included` holds wherever every one of
 * them is reachable).
 */
export function registrySchemas(registry: Registry): TSchema[] {
  const linked = targets(registry);
  const resources = linked.map((m) => ref(componentIds(m).resource));
  return [
    ...linked.map((m) => identifierOf(m.type, componentIds(m).identifier, m.spec.typeAliases)),
    ...(resources.length > 1 ? [Type.Union(resources, { $id: 'IncludedResource' })] : []),
  ];
}

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

/**
 * The attributes a request may carry, each optional as in an update: the writable ones, and the read-only ones
 * a client may send back. Declared once per resource; a create adds its required members (createAttributes).
 */
function requestAttributes(model: Model) {
  const props: Record<string, TSchema> = {};
  for (const [wire, attr] of Object.entries(model.spec.attributes)) {
    // No `default` in requests: leaving a member out of an update keeps its value, and generated
    // clients would otherwise make every defaulted member mandatory.
    const { default: _default, ...written } = attr.input ?? attr.schema;
    const schema = attr.readOnly
      ? sentBack(written as TSchema)
      : ({ ...written, ...(attr.writeOnly ? { writeOnly: true } : {}) } as TSchema);
    props[wire] = Type.Optional(schema);
  }
  return Type.Object(props, { $id: componentIds(model).requestAttributes, additionalProperties: false });
}

/** The attributes of a create: the request attributes with the required ones required, or undefined without any. */
function createAttributes(model: Model): TSchema | undefined {
  const required = Object.entries(model.spec.attributes)
    .filter(([, a]) => a.required && !a.readOnly)
    .map(([wire]) => wire);
  return required.length ? Requiring(componentIds(model).requestAttributes, required) : undefined;
}

/** The `type` member a write request may carry. */
const requestType = (model: Model) => {
  const names = [model.type, ...(model.spec.typeAliases ?? [])];
  return names.length === 1 ? Type.Literal(model.type) : Type.Union(names.map((n) => Type.Literal(n)));
};

/**
 * The relationships a request may carry, each optional as in an update: the writable ones (each the body of
 * its relationship path, `<Name><Rel>RelationshipRequest`), and the read-only ones a client may send back.
 * Declared once per resource; a create adds its required members (createRelationships).
 */
function requestRelationships(registry: Registry, model: Model) {
  const ids = componentIds(model);
  const props: Record<string, TSchema> = {};
  for (const [name, rel] of model.relationships) {
    if (isWritable(rel)) {
      props[name] = Type.Optional(ref(ids.relationshipRequest(name)));
      continue;
    }
    const description = readOnlyNote(rel.description, rel.kind === 'toOne' ? 'null' : 'an empty list');
    props[name] = Type.Optional(
      Type.Object({ data: linkageSchema(registry, rel) }, { additionalProperties: false, readOnly: true, description }),
    );
  }
  return Type.Object(props, { $id: ids.requestRelationships, additionalProperties: false });
}

/**
 * The `relationships` member of a create: the request relationships with the required to-ones required
 * but those in `optional` (the path supplies them). Without relationships the member may still come back
 * empty, as responses carry it.
 */
function createRelationships(model: Model, optional: string[]): TProperties {
  const required = [...model.relationships]
    .filter(([name, rel]) => isWritable(rel) && rel.kind === 'toOne' && rel.required && !optional.includes(name))
    .map(([name]) => name);
  const shared = componentIds(model).requestRelationships;
  return { relationships: required.length ? Requiring(shared, required) : Type.Optional(ref(shared)) };
}

/** The body of a create request; `optional` are required relationships the path already supplies. */
function createRequest(model: Model, $id: string, optional: string[] = []) {
  const attributes = createAttributes(model);
  return Type.Object(
    {
      data: Type.Object(
        {
          type: requestType(model),
          id: Type.Optional(Type.String({ description: 'refused: the server assigns ids' })),
          attributes: attributes ?? Type.Optional(ref(componentIds(model).requestAttributes)),
          ...createRelationships(model, optional),
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
        { links: ref('RelationshipLinks'), data: Type.Optional(linkageSchema(registry, rel)) },
        { description: rel.description ?? `${rel.kind === 'toOne' ? 'the' : 'the list of'} ${rel.type}` },
      ),
    );
  }
  const types = reachable(registry, model);
  const includable = types.map((t) => ref(componentIds(registry.get(t)).resource));
  const anyLinked = types.length > 1 && types.length === targets(registry).length;
  const item = anyLinked ? ref('IncludedResource') : includable.length === 1 ? includable[0]! : Type.Union(includable);
  const included: TProperties = includable.length ? { included: Type.Optional(Type.Array(item)) } : {};

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
    requestAttributes(model),
    requestRelationships(registry, model),
    createRequest(model, ids.create),
    Type.Object(
      {
        data: Type.Object(
          {
            type: requestType(model),
            id: Type.String({ description: 'must equal the id in the path' }),
            attributes: Type.Optional(ref(ids.requestAttributes)),
            relationships: Type.Optional(ref(ids.requestRelationships)),
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
        { links: ref('RelationshipLinks'), data: linkageSchema(registry, rel), jsonapi: ref('JsonApiVersion') },
        { $id: ids.relationship(name) },
      ),
    );
    if (isWritable(rel)) {
      schemas.push(
        Type.Object(
          { data: writeLinkageSchema(registry, rel) },
          { $id: ids.relationshipRequest(name), additionalProperties: false },
        ),
      );
    }
  }
  return schemas;
}
