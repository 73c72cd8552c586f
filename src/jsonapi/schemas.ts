import { Type, type TSchema } from '@sinclair/typebox';

/** Schemas shared by every JSON:API document; registered once as OpenAPI components. */
export const JsonApiVersion = Type.Object(
  { version: Type.Literal('1.0') },
  { $id: 'JsonApiVersion', additionalProperties: false },
);

export const ErrorObject = Type.Object(
  {
    status: Type.String({ description: 'HTTP status code as a string' }),
    title: Type.String(),
    detail: Type.String(),
    source: Type.Optional(
      Type.Object({
        pointer: Type.Optional(Type.String({ description: 'JSON pointer into the request document' })),
        parameter: Type.Optional(Type.String({ description: 'the query or path parameter at fault' })),
      }),
    ),
  },
  { $id: 'ErrorObject' },
);

export const ErrorDocument = Type.Object(
  { errors: Type.Array(Type.Ref(ErrorObject)), jsonapi: Type.Ref(JsonApiVersion) },
  { $id: 'ErrorDocument', description: 'Every failure answers with this document' },
);

export const ResourceLinks = Type.Object({ self: Type.String() }, { $id: 'ResourceLinks' });

export const ListLinks = Type.Object(
  {
    self: Type.String(),
    first: Type.String(),
    last: Type.String(),
    prev: Type.Union([Type.String(), Type.Null()]),
    next: Type.Union([Type.String(), Type.Null()]),
  },
  { $id: 'ListLinks' },
);

export const ListMeta = Type.Object(
  { count: Type.Integer({ description: 'number of records matching the filter, over all pages' }) },
  { $id: 'ListMeta' },
);

export const DeleteDocument = Type.Object(
  {
    meta: Type.Object({ message: Type.Literal('Object successfully deleted') }),
    jsonapi: Type.Ref(JsonApiVersion),
  },
  { $id: 'DeleteDocument' },
);

/** The answer of a to-one related path (`/sessions/{id}/event`) while the relationship is empty. */
export const NullDocument = Type.Object(
  { data: Type.Null(), links: Type.Ref(ResourceLinks), jsonapi: Type.Ref(JsonApiVersion) },
  { $id: 'NullDocument' },
);

export const RelationshipLinks = Type.Object(
  { self: Type.String(), related: Type.String() },
  { $id: 'RelationshipLinks' },
);

/**
 * A resource identifier whose `type` is fixed to one resource type (a component when `$id` names it); requests may
 * spell the type as one of its `aliases` too (answers never do).
 */
export const identifierOf = (type: string, $id?: string, aliases: string[] = []) =>
  Type.Object(
    {
      type: aliases.length ? Type.Union([type, ...aliases].map((t) => Type.Literal(t))) : Type.Literal(type),
      id: Type.String({ minLength: 1, maxLength: 64 }),
    },
    { additionalProperties: false, ...($id ? { $id } : {}) },
  );

export const sharedSchemas: TSchema[] = [
  JsonApiVersion,
  ErrorObject,
  ErrorDocument,
  ResourceLinks,
  ListLinks,
  ListMeta,
  DeleteDocument,
  NullDocument,
  RelationshipLinks,
];

export { jsonapiMember, MEDIA_TYPE } from '../../plugins/http-errors.js';
