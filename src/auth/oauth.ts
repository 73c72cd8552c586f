import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { errorResponses, notFound } from '../jsonapi/index.js';

/**
 * `POST /v1/auth/oauth/login/{provider}`: the front end's OAuth callback page (app/routes/oauth-callback.js)
 * posts the provider's code here. The reference exchanged it with Facebook when the settings held its client
 * id and secret, and otherwise answered "Facebook Login Not Configured" (app/api/auth.py; its provider URL route
 * answered such a provider 404). This service keeps no OAuth clients, so every provider answers 404, not
 * configured here, and nothing is written.
 */
export default async function oauthRoutes(app: FastifyInstance) {
  app.post(
    '/v1/auth/oauth/login/:provider',
    {
      schema: {
        tags: ['Authentication'],
        operationId: 'oauthLogin',
        summary: 'Log in with an OAuth provider (not configured)',
        description:
          'No OAuth provider is configured on this service: every provider answers 404, and nothing is written. ' +
          'Log in with an e-mail address and password instead.',
        security: [],
        params: Type.Object({ provider: Type.String({ maxLength: 32, description: 'facebook, google, twitter…' }) }),
        querystring: Type.Object({
          code: Type.Optional(Type.String({ maxLength: 4096, description: "the provider's authorization code" })),
        }),
        response: errorResponses([400, 404, 415], { 404: 'No OAuth provider is configured here' }, { database: false }),
      },
    },
    async (request) => {
      const { provider } = request.params as { provider: string };
      throw notFound(`Login with ${provider} is not configured on this server`);
    },
  );
}
