import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fp from 'fastify-plugin';
import { compactDocument } from './openapi-compact.js';

export interface OpenApiOptions {
  /** Tags of the operations (each with its description), in the order the document lists them. */
  tags: { name: string; description: string }[];
}

/** The OpenAPI 3.1 document built from the route schemas, and Swagger UI at /docs. */
export default fp(
  async (app, { tags }: OpenApiOptions) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Open Event API',
          version: '1.0.0',
          description:
            'JSON:API 1.0 event service. Bodies and answers use `application/vnd.api+json`; every failure ' +
            'answers with an `ErrorDocument`. Send the token from `POST /v1/auth/login` as `Authorization: JWT <token>`. ' +
            'GET answers carry a weak `ETag`; send it back as `If-None-Match` to get 304 while nothing changed. ' +
            "Reads may be answered from the API process's cache, dropped at every change; `Cache-Control: no-cache` reads afresh.",
        },
        tags,
        components: {
          securitySchemes: {
            jwt: {
              type: 'apiKey',
              in: 'header',
              name: 'Authorization',
              description: 'The word `JWT` (or `Bearer`), a space, then the access token',
            },
          },
        },
        security: [{ jwt: [] }, {}],
      },
      // Every GET answering JSON answers 304 to an If-None-Match naming its ETag (plugins/conditional.ts;
      // streamed downloads are not tagged). Then the repetitions are shared (openapi-compact.ts).
      transformObject: (document) => {
        const openapi = 'openapiObject' in document ? document.openapiObject : document.swaggerObject;
        type Get = { responses?: Record<string, { description?: string; content?: Record<string, unknown> }> };
        for (const item of Object.values(openapi.paths ?? {}) as { get?: Get }[]) {
          const types = Object.keys(item.get?.responses?.['200']?.content ?? {});
          if (types.some((type) => type.endsWith('json')))
            item.get!.responses!['304'] = { description: 'Not Modified: `If-None-Match` named the ETag of the answer' };
        }
        return compactDocument(openapi);
      },
      // Components keep the names of their schemas ($id) instead of def-0, def-1, ...
      refResolver: {
        buildLocalReference: (json, _base, _fragment, i) => (json.$id as string | undefined) ?? `def-${i}`,
      },
    });
    await app.register(swaggerUi, { routePrefix: '/docs' });
  },
  { name: 'openapi' },
);
