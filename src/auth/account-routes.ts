import { Type, type Static, type TProperties } from '@sinclair/typebox';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { users } from '../../db/schema/index.js';
import { Email, badRequest, conflict, forbidden, notFound, unprocessable } from '../jsonapi/index.js';
import { useAccountToken } from './account-tokens.js';
import { isStaff, loggedIn, requireLogin } from './caller.js';
import { checkLogin, checkTokenAttempt, type LoginLimits } from './login.js';
import { endAfterPasswordChange, raiseGeneration } from './logins.js';
import { authOperation } from './operation.js';
import { hashPassword } from './password.js';
import { liveAccountWith } from './accounts.js';

/** The bodies the web front end sends here: `{"data": {...}}` as plain JSON (its `loader` service). */
const wrapped = <T extends TProperties>(id: string, properties: T) =>
  Type.Object(
    { data: Type.Object(properties, { additionalProperties: false }) },
    { $id: id, additionalProperties: false },
  );

const LinkToken = Type.String({ minLength: 1, maxLength: 256, description: 'the `token` of the link in the mail' });
const NewPassword = Type.String({
  minLength: 8,
  maxLength: 128,
  writeOnly: true,
  description: 'at least 8 characters',
});

const VerifyEmailRequest = wrapped('VerifyEmailRequest', { token: LinkToken });
const EmailRequest = wrapped('AccountEmailRequest', { email: Email() });
const ResetPasswordRequest = wrapped('ResetPasswordRequest', { token: LinkToken, password: NewPassword });
const ChangePasswordRequest = wrapped('ChangePasswordRequest', {
  'old-password': Type.String({ minLength: 1, maxLength: 1024, writeOnly: true }),
  'new-password': NewPassword,
});
const MessageResponse = Type.Object({ message: Type.String() }, { $id: 'AccountMessage' });
const AccountResponse = Type.Object(
  {
    id: Type.String(),
    email: Type.String(),
    name: Type.Union([Type.String(), Type.Null()], {
      description: "the account's first and last name, or null without either (as the reference answers)",
    }),
    'password-changed': Type.Optional(Type.Literal(true)),
  },
  { $id: 'AccountPasswordChanged' },
);

/** The reference's `fullname`: first and last name joined, null without either. */
const nameOf = (user: { firstName: string | null; lastName: string | null }) =>
  [user.firstName, user.lastName].filter(Boolean).join(' ') || null;

const LINK_REFUSED = 'is invalid, expired or used already';

export interface AccountRouteOptions {
  limits: LoginLimits;
}

/**
 * The account flows the web front end drives: e-mail verification, password reset by a mailed link,
 * password change. Mails go out through the `account-mail` job (src/auth/account-mail.ts).
 */
export default async function accountRoutes(app: FastifyInstance, { limits }: AccountRouteOptions) {
  for (const schema of [
    VerifyEmailRequest,
    EmailRequest,
    ResetPasswordRequest,
    ChangePasswordRequest,
    MessageResponse,
    AccountResponse,
  ]) {
    app.addSchema(schema);
  }
  const tokenFailures = {
    400: `The body is not JSON, or the link ${LINK_REFUSED}`,
    429: 'Too many failed attempts from this client address; `Retry-After` says when to try again',
  };
  const mailLimit = 'Too many mails to this address or from this client address; `Retry-After` says when to ask again';

  app.post(
    '/v1/auth/verify-email',
    {
      schema: authOperation({
        operationId: 'verifyEmail',
        summary: 'Verify an email address',
        description:
          "Takes the token of the link mailed at registration (or by `resend-verification-email`) and sets the account's " +
          '`is-verified`. A token works once, within its lifetime, and only while the account still has the address it was ' +
          `mailed to. Failed attempts count per client address (${limits.perClient} per ${limits.windowSeconds} seconds).`,
        open: true,
        body: Type.Ref(VerifyEmailRequest),
        ok: Type.Ref(MessageResponse, { description: 'The address is verified' }),
        errors: tokenFailures,
      }),
    },
    async (request) => {
      const { token } = (request.body as Static<typeof VerifyEmailRequest>).data;
      await checkTokenAttempt(app, limits, request.ip, () =>
        app.db.transaction(async (tx) => {
          const used = await useAccountToken(tx, token, 'verify-email');
          const verified = used
            ? await tx
                .update(users)
                .set({ isVerified: true })
                .where(and(eq(users.id, used.userId), liveAccountWith(used.email)))
                .returning({ id: users.id })
            : [];
          if (verified.length === 0) throw badRequest(`This verification link ${LINK_REFUSED}`);
        }),
      );
      return { message: 'Email Verified' };
    },
  );

  app.post(
    '/v1/auth/resend-verification-email',
    {
      onRequest: requireLogin(app),
      schema: authOperation({
        operationId: 'resendVerificationEmail',
        summary: 'Mail a new verification link',
        description:
          "Mails a new verification link to the address, which must be the caller's own (administrators: any account's). " +
          'Counted against the mail limits of the address and of the client (MAIL_RATE_*).',
        body: Type.Ref(EmailRequest),
        ok: Type.Ref(MessageResponse, { description: 'The mail is on its way' }),
        errors: {
          401: 'No valid token was sent',
          403: "The address is another account's",
          404: 'No account has this address (administrators only)',
          409: 'The address is verified already',
          429: mailLimit,
        },
      }),
    },
    async (request) => {
      const caller = loggedIn(request);
      const email = (request.body as Static<typeof EmailRequest>).data.email.trim();
      const own = email.toLowerCase() === caller.email.toLowerCase();
      if (!own && !isStaff(caller))
        throw forbidden('A verification link is mailed to your own address only', '/data/email');
      const [user] = await app.db
        .select({ id: users.id, email: users.email, isVerified: users.isVerified })
        .from(users)
        .where(liveAccountWith(email));
      if (!user) throw notFound('No account has this email address');
      if (user.isVerified) throw conflict('This email address is verified already', '/data/email');
      await app.db.transaction((tx) =>
        app.accountMail.queue(
          tx,
          { kind: 'verify-email', userId: user.id },
          { recipient: user.email, ip: request.ip, whenLimited: 'refuse' },
        ),
      );
      return { message: 'Verification email resent' };
    },
  );

  app.post(
    '/v1/auth/reset-password',
    {
      schema: authOperation({
        operationId: 'requestPasswordReset',
        summary: 'Mail a password reset link',
        description:
          'Mails a link to choose a new password to the account with this address. The answer is the same whether or not an ' +
          'account has the address (the mail is sent by a background job), and so are the limits: each address and each client ' +
          'address is counted against the mail limits (MAIL_RATE_*) either way.',
        open: true,
        body: Type.Ref(EmailRequest),
        ok: Type.Ref(MessageResponse, { description: 'If an account has this address, the mail is on its way' }),
        errors: { 429: mailLimit },
      }),
    },
    async (request) => {
      const email = (request.body as Static<typeof EmailRequest>).data.email.trim();
      await app.db.transaction((tx) =>
        app.accountMail.queue(
          tx,
          { kind: 'reset-password', email },
          { recipient: email, ip: request.ip, whenLimited: 'refuse' },
        ),
      );
      return { message: "If your email was registered with us, you'll get an email with reset link shortly" };
    },
  );

  app.patch(
    '/v1/auth/reset-password',
    {
      schema: authOperation({
        operationId: 'resetPassword',
        summary: 'Set a new password with a reset link',
        description:
          'Takes the token of a reset mail and the new password. A token works once, within its lifetime, and only while the ' +
          'account has the address it was mailed to; it also verifies that address. Every login of the account ends (its ' +
          `refresh and access tokens), and so do the other reset links. Failed attempts count per client address (${limits.perClient} ` +
          `per ${limits.windowSeconds} seconds).`,
        open: true,
        body: Type.Ref(ResetPasswordRequest),
        ok: Type.Ref(AccountResponse, { description: 'The password is set' }),
        errors: tokenFailures,
      }),
    },
    async (request) => {
      const { token, password } = (request.body as Static<typeof ResetPasswordRequest>).data;
      const user = await checkTokenAttempt(app, limits, request.ip, () =>
        app.db.transaction(async (tx) => {
          const used = await useAccountToken(tx, token, 'reset-password');
          // Hashed only for a good link: a client past the limit, or guessing links, costs no slow hash.
          const [changed] = used
            ? await tx
                .update(users)
                .set({
                  passwordHash: await hashPassword(password),
                  isVerified: true,
                  tokenGeneration: raiseGeneration(),
                })
                .where(and(eq(users.id, used.userId), liveAccountWith(used.email)))
                .returning({ id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName })
            : [];
          if (!changed) throw badRequest(`This password reset link ${LINK_REFUSED}`);
          await endAfterPasswordChange(tx, changed.id, null);
          return changed;
        }),
      );
      return { id: String(user.id), email: user.email, name: nameOf(user) };
    },
  );

  app.post(
    '/v1/auth/change-password',
    {
      onRequest: requireLogin(app),
      schema: authOperation({
        operationId: 'changePassword',
        summary: 'Change the password',
        description:
          "Changes the caller's password; the current one must be given. Wrong current passwords count as failed logins of the " +
          'account (LOGIN_*). Every other login of the account ends (its refresh and access tokens), and so do reset links ' +
          'not used yet; the login whose token made the change goes on. A notice is mailed to the account.',
        body: Type.Ref(ChangePasswordRequest),
        ok: Type.Ref(AccountResponse, { description: 'The password is changed' }),
        errors: {
          401: 'No valid token was sent',
          422: 'The body is invalid, the current password is wrong, or the new one is the same',
          429: 'Too many failed logins for this account or from this client address; `Retry-After` says when to try again',
        },
      }),
    },
    async (request: FastifyRequest) => {
      const caller = loggedIn(request);
      const data = (request.body as Static<typeof ChangePasswordRequest>).data;
      if (data['old-password'] === data['new-password'])
        throw unprocessable('The new password must differ from the current one', '/data/new-password');
      const user = await checkLogin(app, limits, {
        email: caller.email,
        password: data['old-password'],
        ip: request.ip,
      });
      if (!user) throw unprocessable('The current password is wrong', '/data/old-password');
      const passwordHash = await hashPassword(data['new-password']);
      const named = await app.db.transaction(async (tx) => {
        const [row] = await tx
          .update(users)
          .set({ passwordHash, tokenGeneration: raiseGeneration() })
          .where(eq(users.id, caller.id))
          .returning({ firstName: users.firstName, lastName: users.lastName });
        await endAfterPasswordChange(tx, caller.id, caller.loginId);
        await app.accountMail.queue(
          tx,
          { kind: 'password-changed', userId: caller.id },
          { recipient: caller.email, ip: request.ip, whenLimited: 'skip' },
        );
        return row;
      });
      const name = named ? nameOf(named) : null;
      return { id: String(caller.id), email: caller.email, name, 'password-changed': true as const };
    },
  );
}
