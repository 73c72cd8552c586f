import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { users } from '../../../db/schema/index.js';
import type { Config } from '../../config.js';
import { API_PREFIX, Email, errorResponses } from '../../jsonapi/index.js';
import { take } from '../../rate-limits/hits.js';
import { clientOf } from '../../rate-limits/keys.js';
import { liveAccountWith } from '../../auth/accounts.js';

const CheckEmailRequest = Type.Object({ email: Email() }, { $id: 'CheckEmailRequest', additionalProperties: false });
const CheckEmailResponse = Type.Object(
  { exists: Type.Boolean({ description: 'a live account has this address (in any letter case)' }) },
  { $id: 'CheckEmailResponse' },
);

/**
 * `POST /v1/users/check_email`: whether an account has an address, as the reference answers it (the web
 * front end's guest checkout and role invites choose between login and registration with it). It tells
 * anyone whether an address is registered, so each client address may ask only so often.
 */
export default async function checkEmailRoute(app: FastifyInstance, { config }: { config: Config }) {
  const limit = { max: config.CHECK_EMAIL_RATE_PER_IP, windowSeconds: config.CHECK_EMAIL_WINDOW_SECONDS };
  app.addSchema(CheckEmailRequest);
  app.addSchema(CheckEmailResponse);
  app.post(
    `${API_PREFIX}/users/check_email`,
    {
      schema: {
        tags: ['Users'],
        operationId: 'checkEmail',
        summary: 'Is an email address registered?',
        description:
          'Answers whether a live account has this address: anyone may learn whether an address is registered here (as with the ' +
          `reference server; registration tells it too, with 409). To slow down harvesting, one client address may ask ${limit.max} ` +
          `times per ${limit.windowSeconds} seconds (then 429 with \`Retry-After\`).`,
        security: [],
        consumes: ['application/json'],
        body: Type.Ref(CheckEmailRequest),
        response: {
          200: Type.Ref(CheckEmailResponse, { description: 'Whether the address is registered' }),
          ...errorResponses([400, 413, 415, 422, 429], {
            429: 'Too many lookups from this client address; `Retry-After` says when to ask again',
          }),
        },
      },
    },
    async (request) => {
      const email = (request.body as Static<typeof CheckEmailRequest>).email.trim().toLowerCase();
      await take(
        app.db,
        [{ bucket: 'check-email-client', key: clientOf(request.ip), ...limit }],
        (seconds) => `Too many lookups from this client address; try again in ${seconds} seconds`,
      );
      const [found] = await app.db.select({ id: users.id }).from(users).where(liveAccountWith(email)).limit(1);
      return { exists: found !== undefined };
    },
  );
}
