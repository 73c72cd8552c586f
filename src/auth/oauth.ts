import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { errorResponses, JsonApiError } from '../jsonapi/index.js';

/**
 * `POST /v1/auth/oauth/login/{provider}`: the front end's OAuth callback page (app/routes/oauth-callback.js)
 * posts the provider's code here. The reference exchanged it with Facebook when the settings held its client
 * id and secret, and otherwise answered "Facebook Login Not Configured" (app/api/auth.py). This service keeps
 * no OAuth clients, so every provider answers that it is not configured, and nothing is written.
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
          'No OAuth provider is configured on this service: every provider answers 501, and nothing is written. ' +
          'Log in with an e-mail address and password instead.',
        security: [],
        params: Type.Object({ provider: Type.String({ maxLength: 32, description: 'facebook, google, twitter…' }) }),
        querystring: Type.Object({
          code: Type.Optional(Type.String({ maxLength: 4096, description: "the provider's authorization code" })),
        }),
        response: errorResponses([400, 501], { 501: 'No OAuth provider is configured here' }, { database: false }),
      },
    },
    async (request) => {
      const { provider } = request.params as { provider: string };
      throw new JsonApiError(501, 'Not Implemented', `Login with ${provider} is not configured on this server`);
    },
  );
}
