import { readFile } from 'node:fs/promises';
import t from 'tap';
import { schemaTypes, schemaTypesUrl } from '../../openapi/client/schema-types.js';

t.test('openapi/client/schema.d.ts is what openapi-typescript makes of openapi/openapi.json', async (t) => {
  const [generated, committed] = await Promise.all([schemaTypes(), readFile(schemaTypesUrl, 'utf8')]);
  t.ok(generated === committed, 'openapi/client/schema.d.ts is stale: run `make sdk` and commit the result');
  t.match(committed, /export interface paths \{/, 'the types declare the paths');
});
