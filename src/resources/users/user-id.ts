import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { loggedIn, requireLogin } from '../../auth/caller.js';
import { API_PREFIX, errorResponses } from '../../jsonapi/index.js';

const UserIdResponse = Type.Object(
  { user_id: Type.Integer({ minimum: 1, description: 'the id of the account the token belongs to' }) },
  { $id: 'UserIdResponse', additionalProperties: false },
);

/** `GET /v1/users/user-details/get-user-id`: the caller's own id, from the token (app/api/custom/users.py). */
export default async function userIdRoute(app: FastifyInstance) {
  app.addSchema(UserIdResponse);
  app.get(
    `${API_PREFIX}/users/user-details/get-user-id`,
    {
      onRequest: requireLogin(app),
      schema: {
        tags: ['Users'],
        operationId: 'getOwnUserId',
        summary: "The caller's user id",
        description: 'The id of the account the access token belongs to; nothing about anyone else.',
        response: {
          200: Type.Ref(UserIdResponse, { description: "The caller's id" }),
          ...errorResponses([401]),
        },
      },
    },
    async (request) => ({ user_id: loggedIn(request).id }),
  );
}
