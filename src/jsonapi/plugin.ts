import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { negotiate } from './media-type.js';
import { Registry } from './model.js';
import { documentQuerySchema, linkageQuerySchema, listQuerySchema, toOneQuerySchema } from './query.js';
import { registrySchemas, resourceSchemas } from './resource-schemas.js';
import type { ResourceSpec } from './resource.js';
import { routeKit } from './kit.js';
import { registerResourceRoutes } from './routes.js';
import { MEDIA_TYPE, sharedSchemas } from './schemas.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A JSON:API route: content negotiation and authentication run before it. */
    jsonapi?: boolean;
    /** The type of the resource whose declaration the route is generated from. */
    resource?: string;
  }
}

/** Routes, schemas and SQL for every declared resource: CRUD is written once, here. */
export default fp(
  async (app: FastifyInstance, options: { resources: ResourceSpec[]; listAllMax: number }) => {
    const registry = new Registry(options.resources);
    for (const schema of [...sharedSchemas, ...registrySchemas(registry)]) app.addSchema(schema);
    for (const model of registry.models.values()) {
      for (const schema of resourceSchemas(registry, model)) app.addSchema(schema);
    }
    const json = app.getDefaultJsonParser('error', 'error');
    // Clients send their JSON Content-Type on every request: ember-data on a DELETE (or GET), the front end's
    // order loader on a POST to a route that reads no body. An empty body is nothing there; a route that
    // reads a body still refuses an empty one.
    for (const type of ['application/json', MEDIA_TYPE]) {
      if (app.hasContentTypeParser(type)) app.removeContentTypeParser(type);
      app.addContentTypeParser(type, { parseAs: 'string' }, (request, body, done) => {
        const readsNoBody =
          request.method === 'DELETE' || request.method === 'GET' || !request.routeOptions.schema?.body;
        if (body === '' && readsNoBody) return done(null, undefined);
        json(request, body as string, done);
      });
    }
    app.addHook('onRequest', async (request, reply) => {
      if (!request.routeOptions.config.jsonapi) return;
      await negotiate(request, reply);
      await app.authenticate(request);
      if (
        request.method === 'GET' &&
        request.routeOptions.config.cache !== false &&
        app.readCache?.answer(request, reply)
      )
        return reply;
    });
    // Fastify appends "; charset=utf-8" to JSON types; JSON:API forbids media type parameters.
    app.addHook('onSend', async (_request, reply, payload) => {
      if (String(reply.getHeader('content-type')).startsWith(`${MEDIA_TYPE};`))
        reply.header('content-type', MEDIA_TYPE);
      return payload;
    });
    const { listAllMax } = options;
    const queries = {
      list: listQuerySchema(registry, listAllMax),
      document: documentQuerySchema(registry),
      toOne: toOneQuerySchema(registry, listAllMax),
      linkage: linkageQuerySchema(),
    };
    // The routes in a scope below the schemas: Fastify builds the validator compiler again (with a copy of every
    // shared schema) for each route declared in a scope that added schemas, and once for a scope that added none.
    await app.register(async (scope) => {
      for (const model of registry.models.values())
        registerResourceRoutes(routeKit(scope, registry, model, queries, listAllMax));
    });
  },
  { name: 'jsonapi', dependencies: ['auth', 'error-handler', 'read-cache'] },
);
