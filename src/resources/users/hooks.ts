import { endAfterPasswordChange, endLogins, raiseGeneration } from '../../auth/logins.js';
import { isStaff } from '../../auth/caller.js';
import type { Ctx, Hooks } from '../../jsonapi/index.js';

/** A verification link for the account's address, unless the mail limits are reached (it can be asked for again). */
const mailVerification = (ctx: Ctx, userId: number, email: string) =>
  ctx.request.server.accountMail.queue(
    ctx.db,
    { kind: 'verify-email', userId },
    { recipient: email, ip: ctx.request.ip, whenLimited: 'skip' },
  );

/**
 * What the account flows add to a user's writes: registration mails a verification link; a new address
 * is unverified again (unless an administrator says otherwise) and gets a link; a new password ends the
 * other logins; blocking or deleting the account ends all of them.
 */
export const accountHooks: Hooks = {
  async afterCreate(ctx, row) {
    if (!row.isVerified) await mailVerification(ctx, row.id as number, row.email as string);
  },
  async beforeUpdate(ctx, row, values) {
    const id = row.id as number;
    if ('passwordHash' in values) {
      values.tokenGeneration = raiseGeneration();
      await endAfterPasswordChange(ctx.db, id, ctx.caller?.id === id ? ctx.caller.loginId : null);
    }
    if (values.isBlocked === true && !row.isBlocked) {
      values.tokenGeneration = raiseGeneration();
      await endLogins(ctx.db, { userId: id }, 'blocked');
    }
    const email = values.email as string | undefined;
    if (email === undefined || email.toLowerCase() === String(row.email).toLowerCase()) return;
    if (!isStaff(ctx.caller) || values.isVerified !== true) values.isVerified = false;
    if (!values.isVerified) await mailVerification(ctx, id, email);
  },
  async beforeDelete(ctx, row) {
    await endLogins(ctx.db, { userId: row.id as number }, 'deleted');
  },
};
