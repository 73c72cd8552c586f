import { Ajv, type AnySchema } from 'ajv';
import formats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

const addFormats = formats as unknown as typeof formats.default;

function makeAjv(coerce: boolean) {
  const ajv = new Ajv({
    // Bodies are strict: a wrong type or an unknown member is an error, never silently fixed or dropped.
    coerceTypes: coerce,
    useDefaults: coerce,
    removeAdditional: false,
    allErrors: false,
    strict: false,
  });
  addFormats(ajv);
  return ajv;
}

/**
 * Fastify validator factory: request bodies are validated as sent; path and query values, which
 * arrive as strings, are coerced to the declared types.
 */
export function buildValidator(externalSchemas: Record<string, AnySchema>): FastifySchemaCompiler<AnySchema> {
  const body = makeAjv(false);
  const other = makeAjv(true);
  for (const schema of Object.values(externalSchemas)) {
    body.addSchema(schema);
    other.addSchema(schema);
  }
  return ({ schema, httpPart }) => {
    const ajv = httpPart === 'body' ? body : other;
    const id = (schema as { $id?: string }).$id;
    return (id && ajv.getSchema(id)) || ajv.compile(schema);
  };
}
