/** `make openapi`: writes openapi/openapi.json from the running app's route schemas. */
import { writeFile } from 'node:fs/promises';
import { openapiDocument } from '../src/openapi-document.js';

await writeFile(new URL('./openapi.json', import.meta.url), await openapiDocument());
