import stringify from 'json-stringify-pretty-compact';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';

/**
 * The OpenAPI document as the app serves it at /docs/json, formatted for the committed file: a value on one
 * line when it fits in 120 columns, else one member per line (half the size of 2-space indentation, and a
 * change still shows as the lines it touches).
 * No database is needed: the pool connects lazily, the job queue not at all, and building the document runs
 * no query.
 */
export async function openapiDocument(): Promise<string> {
  const config = loadConfig({ LOG_LEVEL: 'silent' });
  const app = await buildApp(
    {
      ...config,
      DATABASE_URL: 'postgres://openapi@127.0.0.1:1/openapi',
      JWT_SECRET: 'openapi-document-generation-needs-no-secret',
    },
    { connect: false },
  );
  try {
    await app.ready();
    return `${stringify(app.swagger(), { maxLength: 120 })}\n`;
  } finally {
    await app.close();
  }
}
