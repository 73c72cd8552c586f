import { readFile } from 'node:fs/promises';
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';

export const documentUrl = new URL('../openapi.json', import.meta.url);
export const schemaTypesUrl = new URL('./schema.d.ts', import.meta.url);

/**
 * The SDK's types for the committed OpenAPI document. `make sdk` and the freshness test both
 * call this one function, so the comparison is exact (the CLI would be a second code path).
 */
export async function schemaTypes(): Promise<string> {
  const document = JSON.parse(await readFile(documentUrl, 'utf8')) as Parameters<typeof openapiTS>[0];
  return `${COMMENT_HEADER}${astToString(await openapiTS(document))}`;
}
