/** `make sdk`: writes openapi/client/schema.d.ts from the committed openapi/openapi.json. */
import { writeFile } from 'node:fs/promises';
import { schemaTypes, schemaTypesUrl } from './schema-types.js';

await writeFile(schemaTypesUrl, await schemaTypes());
