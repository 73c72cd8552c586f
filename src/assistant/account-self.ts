import { Value } from '@sinclair/typebox/value';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { users } from '../../db/schema/index.js';
import { liveAccountWith } from '../auth/accounts.js';
import { isStaff } from '../auth/caller.js';
import { checkLogin, type LoginLimits } from '../auth/login.js';
import { endAfterPasswordChange, raiseGeneration } from '../auth/logins.js';
import { hashPassword } from '../auth/password.js';
import type { Config } from '../config.js';
import { Email, hasNul } from '../jsonapi/index.js';
import { take } from '../rate-limits/hits.js';
import { clientOf } from '../rate-limits/keys.js';
import { MAC } from './account-admin.js';
import { AssistantError, rank } from './identity.js';
import { assistantRoute, params } from './route.js';
import type { SettingsFiles } from './settings-files.js';

const ADDRESS = Email();
/** The settings changeUserSettings.json stores (the reference's list). */
const SETTING_KEYS = [
  'server',
  'enterAsSend',
  'micInput',
  'speechOutput',
  'speechOutputAlways',
  'speechRate',
  'speechPitch',
  'ttsLanguage',
  'userName',
  'prefLanguage',
  'timeZone',
  'countryCode',
  'countryDialCode',
  'phoneNo',
  'checked',
  'serverUrl',
  'theme',
  'backgroundImage',
  'messageBackgroundImage',
  'customThemeValue',
  'avatarType',
];
/** The password rule of POST /v1/users (its `password` attribute). */
const PASSWORD_MIN = 8;
const PASSWORD_MAX = 128;
const WEAK_PASSWORD = `The password must have ${PASSWORD_MIN} to ${PASSWORD_MAX} characters and differ from the e-mail`;
const RESET_SENT = "If your email was registered with us, you'll get an email with reset link shortly";

/** The address of a parameter when it is one (surrounding blanks trimmed), else undefined. */
const addressOf = (value: string | undefined) =>
  value !== undefined && Value.Check(ADDRESS, value) ? value.trim() : undefined;

/**
 * The reference's account endpoints a client calls for itself: API keys, signup, password recovery,
 * whether an address is registered, whether to show the admin link, the user's settings and devices.
 * All work on the service's own accounts, mails and limits.
 */
export async function accountSelfRoutes(
  app: FastifyInstance,
  { config, files, limits }: { config: Config; files: SettingsFiles; limits: LoginLimits },
) {
  assistantRoute(
    app,
    {
      url: '/aaa/getApiKeys.json',
      method: ['GET', 'POST'],
      operationId: 'getApiKeys',
      params: params({ type: "`public` (default) or `user` (the caller's keys; needs a token)" }),
      failures: [400, 422],
      failureDescriptions: { 422: '`type=user` without a token of a live account' },
      summary: 'The API keys the web clients use',
      description:
        'The reference hands out the public keys of its configuration (map and captcha services). This service configures none, ' +
        'and never hands out secrets: `keys` is empty for `public` and for `user`.',
      minimal: 'anonymous',
    },
    async ({ identity, params: p }) => {
      if (p.type === 'user' && !identity.caller) throw new AssistantError(422, 'Access token is not valid');
      return { accepted: true, keys: {}, message: 'Success : Fetched all API key successfully !' };
    },
  );

  assistantRoute(
    app,
    {
      url: '/aaa/showAdminService.json',
      method: ['GET', 'POST'],
      operationId: 'showAdminService',
      summary: 'Whether the caller may open the admin pages',
      description: '`showAdmin` is true for operators, administrators and superadmins.',
      minimal: 'anonymous',
    },
    async ({ identity }) => ({ accepted: true, showAdmin: rank(identity.role) >= rank('operator') }),
  );

  assistantRoute(
    app,
    {
      url: '/aaa/signup.json',
      method: ['GET', 'POST'],
      operationId: 'assistantSignup',
      params: params({
        signup: 'the e-mail of the new account',
        password: `its password (${PASSWORD_MIN} to ${PASSWORD_MAX} characters)`,
      }),
      failures: [400, 422, 429],
      failureDescriptions: {
        422: 'No e-mail or password, not an e-mail, a password too short or long (or the e-mail itself), or the address is taken',
        429: 'Too many new accounts from this client address or for this address domain (SIGNUP_RATE_*)',
      },
      summary: 'Sign up (assistant clients)',
      description:
        'Makes an account as POST /v1/users does: the same address and password rules, and a verification link is mailed. ' +
        'The reference made its first account a superadmin; here, as in the rest of the service, only SUPER_ADMIN_EMAIL is one. ' +
        'The address taken is a 422, as in the reference (POST /v1/users tells it with 409).',
      minimal: 'anonymous',
    },
    async ({ request, caller, params: p }) => {
      if (!p.signup || !p.password) throw new AssistantError(422, 'signup or password empty');
      const email = addressOf(p.signup);
      if (!email) throw new AssistantError(422, 'No valid email address');
      const length = [...p.password].length;
      if (length < PASSWORD_MIN || length > PASSWORD_MAX || p.password === email || hasNul(p.password))
        throw new AssistantError(422, WEAK_PASSWORD);
      const [taken] = await app.db.select({ id: users.id }).from(users).where(liveAccountWith(email)).limit(1);
      if (taken) throw new AssistantError(422, 'email is already taken');
      const passwordHash = await hashPassword(p.password);
      const created = await app.db.transaction(async (tx) => {
        // As with POST /v1/users, an administrator's creations do not count against the sign-up limits.
        if (!isStaff(caller)) await app.accountMail.countSignup(tx, email, request.ip);
        const [row] = await tx
          .insert(users)
          .values({ email, passwordHash })
          .onConflictDoNothing()
          .returning({ id: users.id });
        if (row)
          await app.accountMail.queue(
            tx,
            { kind: 'verify-email', userId: row.id },
            { recipient: email, ip: request.ip, whenLimited: 'skip' },
          );
        return row;
      });
      if (!created) throw new AssistantError(422, 'email is already taken');
      await files.write();
      return {
        accepted: true,
        message: 'You successfully signed-up! An email with a verification link was sent to your address.',
      };
    },
  );

  assistantRoute(
    app,
    {
      url: '/aaa/recoverpassword.json',
      method: ['GET', 'POST'],
      operationId: 'recoverPassword',
      params: params({ forgotemail: 'the e-mail of the account' }),
      failures: [400, 422, 429],
      failureDescriptions: {
        422: 'No e-mail, or not an e-mail',
        429: 'Too many mails to this address or from this client address; `Retry-After` says when to ask again',
      },
      summary: 'Mail a password reset link (assistant clients)',
      description:
        'Mails the link of POST /v1/auth/reset-password. As there, the answer is the same whether an account has the address ' +
        'or not (the reference answered 422 "email does not exist", which tells anyone which addresses are registered), and ' +
        'each address and client address counts against the mail limits either way.',
      minimal: 'anonymous',
    },
    async ({ request, params: p }) => {
      if (!p.forgotemail) throw new AssistantError(422, 'email does not exist');
      const email = addressOf(p.forgotemail);
      if (!email) throw new AssistantError(422, 'No valid email address');
      await app.db.transaction((tx) =>
        app.accountMail.queue(
          tx,
          { kind: 'reset-password', email },
          { recipient: email, ip: request.ip, whenLimited: 'refuse' },
        ),
      );
      return { accepted: true, message: RESET_SENT };
    },
  );

  const lookups = { max: config.CHECK_EMAIL_RATE_PER_IP, windowSeconds: config.CHECK_EMAIL_WINDOW_SECONDS };
  assistantRoute(
    app,
    {
      url: '/aaa/checkRegistration.json',
      method: ['GET', 'POST'],
      operationId: 'checkRegistration',
      params: params({ check_email: 'the e-mail to look up' }),
      failures: [400, 429],
      failureDescriptions: { 429: 'Too many lookups from this client address; `Retry-After` says when to ask again' },
      summary: 'Is an e-mail registered?',
      description:
        '`exists` tells whether a live account has the address, as POST /v1/users/check_email does, and shares its limit: ' +
        `one client address may ask ${lookups.max} times per ${lookups.windowSeconds} seconds (then 429).`,
      minimal: 'anonymous',
    },
    async ({ request, params: p }) => {
      if (!p.check_email) throw new AssistantError(400, 'Email not provided.');
      await take(
        app.db,
        [{ bucket: 'check-email-client', key: clientOf(request.ip), ...lookups }],
        (seconds) => `Too many lookups from this client address; try again in ${seconds} seconds`,
      );
      const email = addressOf(p.check_email);
      const [found] = email
        ? await app.db.select({ id: users.id }).from(users).where(liveAccountWith(email)).limit(1)
        : [];
      return { accepted: true, exists: found !== undefined, check_email: p.check_email };
    },
  );

  /** The account whose data a call reads: the caller's, or with `email` an administrator names another. */
  const subjectOf = async (caller: { id: number }, role: string, email: string | undefined) => {
    if (email === undefined || (role !== 'admin' && role !== 'superadmin')) return caller.id;
    const [row] = hasNul(email)
      ? []
      : await app.db.select({ id: users.id }).from(users).where(liveAccountWith(email.trim()));
    if (!row) throw new AssistantError(404, 'Username not found');
    return row.id;
  };

  assistantRoute(
    app,
    {
      url: '/aaa/listUserSettings.json',
      method: ['GET', 'POST'],
      operationId: 'listUserSettings',
      params: params({ email: "administrators: the account whose settings to read (default: the caller's)" }),
      failures: [400, 404],
      failureDescriptions: { 404: 'An administrator named an e-mail no account has' },
      summary: "The user's settings",
      description: '`settings` as changeUserSettings.json stored them (an empty object before). Role user.',
      minimal: 'user',
    },
    async ({ caller, identity, params: p }) => {
      const id = await subjectOf(caller!, identity.role, p.email);
      const [row] = await app.db.select({ settings: users.assistantSettings }).from(users).where(eq(users.id, id));
      return { accepted: true, settings: row?.settings ?? {}, message: 'Success: Showing user settings' };
    },
  );

  assistantRoute(
    app,
    {
      url: '/aaa/changeUserSettings.json',
      method: ['GET', 'POST'],
      operationId: 'changeUserSettings',
      params: {
        ...params(
          Object.fromEntries(
            SETTING_KEYS.map((key) => [
              key,
              key === 'userName' ? 'the user name (5 to 51 characters)' : `the setting ${key}`,
            ]),
          ),
        ),
        ...params({
          email: "administrators: the account whose settings to change (default: the caller's)",
          count: 'the older form (susi_android): how many pairs `key<i>`, `value<i>` (i from 1) follow',
          key1: 'the older form: name of the first setting',
          value1: 'the older form: its value',
        }),
      },
      failures: [400, 404],
      failureDescriptions: { 404: 'An administrator named an e-mail no account has' },
      summary: "Change the user's settings",
      description:
        `The settings the reference knows (${SETTING_KEYS.join(', ')}) are stored as sent, by name or as \`count\` pairs ` +
        "`key<i>`/`value<i>` (susi_android); at least one must be sent. Administrators change another account's with `email`. Role user.",
      minimal: 'user',
    },
    async ({ caller, identity, params: p }) => {
      const change: Record<string, string> = Object.fromEntries(
        SETTING_KEYS.filter((key) => p[key] !== undefined).map((key) => [key, p[key]!]),
      );
      // The older form susi_android sends: `count` pairs `key<i>`, `value<i>` (i from 1).
      if (p.count !== undefined) {
        const n = /^\d{1,2}$/.test(p.count) ? Number(p.count) : 0;
        if (n < 1 || n > SETTING_KEYS.length)
          throw new AssistantError(400, 'Bad Service call, count parameters not provided');
        for (let i = 1; i <= n; i++) {
          const key = p[`key${i}`];
          const value = p[`value${i}`];
          if (!key || !SETTING_KEYS.includes(key) || value === undefined)
            throw new AssistantError(400, 'Bad Service call, key or value parameters not provided');
          change[key] = value;
        }
      }
      if (Object.keys(change).length === 0)
        throw new AssistantError(400, 'Bad Service call, key or value parameters not provided');
      if (Object.values(change).some(hasNul)) throw new AssistantError(400, 'Bad Service call, bad value');
      if (change.userName !== undefined && !/^.{5,51}$/u.test(change.userName))
        throw new AssistantError(400, 'Enter atleast 5 character, upto 51 character');
      const id = await subjectOf(caller!, identity.role, p.email);
      await app.db
        .update(users)
        .set({ assistantSettings: sql`${users.assistantSettings} || ${JSON.stringify(change)}::jsonb` })
        .where(eq(users.id, id));
      return { accepted: true, message: 'You successfully changed settings of your account!' };
    },
  );

  assistantRoute(
    app,
    {
      url: '/aaa/changepassword.json',
      method: ['GET', 'POST'],
      operationId: 'assistantChangePassword',
      params: params({
        changepassword: "the e-mail of the account: the caller's own",
        password: 'the current password',
        newpassword: `the new password (${PASSWORD_MIN} to ${PASSWORD_MAX} characters, not the e-mail)`,
      }),
      failures: [400, 403, 422, 429],
      failureDescriptions: {
        403: '`changepassword` names another account (the reference changed any account whose password was given)',
        422: 'The current password is wrong, or the new one breaks the password rule',
        429: 'Too many failed logins for this account or from this client address; `Retry-After` says when to try again',
      },
      summary: 'Change the password (assistant clients)',
      description:
        'As POST /v1/auth/change-password: the current password is checked (failures count as failed logins), every other login ' +
        "of the account ends, and so do the assistant tokens (the caller's too: log in again), and a notice is mailed. The " +
        "same new password as the current one is the reference's soft refusal (200, `accepted: false`). Role user.",
      minimal: 'user',
    },
    async ({ request, caller, params: p }) => {
      const me = caller!;
      if (p.password === undefined || p.newpassword === undefined)
        throw new AssistantError(400, 'Bad service call, missing arguments');
      if (p.changepassword !== undefined && p.changepassword.trim().toLowerCase() !== me.email.toLowerCase()) {
        throw new AssistantError(403, 'You may change only your own password');
      }
      const user = await checkLogin(app, limits, { email: me.email, password: p.password, ip: request.ip });
      if (!user) throw new AssistantError(422, 'Invalid credentials');
      const length = [...p.newpassword].length;
      if (length < PASSWORD_MIN || length > PASSWORD_MAX || p.newpassword === me.email || hasNul(p.newpassword))
        throw new AssistantError(422, 'invalid password');
      if (p.newpassword === p.password)
        return { accepted: false, message: 'Your current password matches new password.' };
      const passwordHash = await hashPassword(p.newpassword);
      await app.db.transaction(async (tx) => {
        await tx.update(users).set({ passwordHash, tokenGeneration: raiseGeneration() }).where(eq(users.id, me.id));
        await endAfterPasswordChange(tx, me.id, me.loginId);
        await app.accountMail.queue(
          tx,
          { kind: 'password-changed', userId: me.id },
          { recipient: me.email, ip: request.ip, whenLimited: 'skip' },
        );
      });
      return { accepted: true, message: 'Your password has been changed!' };
    },
  );

  assistantRoute(
    app,
    {
      url: '/aaa/listUserDevices.json',
      method: ['GET', 'POST'],
      operationId: 'listUserDevices',
      summary: "The user's devices",
      description: '`devices`: MAC address -> `{name, room, geolocation, deviceAddTime}`. Role user.',
      minimal: 'user',
    },
    async ({ caller }) => {
      const [row] = await app.db
        .select({ devices: users.assistantDevices })
        .from(users)
        .where(eq(users.id, caller!.id));
      return { accepted: true, devices: row?.devices ?? {}, message: 'Success: Showing user devices' };
    },
  );

  assistantRoute(
    app,
    {
      url: '/aaa/addNewDevice.json',
      method: ['GET', 'POST'],
      operationId: 'addNewDevice',
      params: params({
        macid: "the device's MAC address (`aa:bb:cc:dd:ee:ff`)",
        name: 'its name',
        room: 'its room',
        latitude: 'where it is (optional)',
        longitude: 'where it is (optional)',
      }),
      failures: [400],
      summary: 'Add a device of the user',
      description:
        '`macid`, `name` and `room` (and optionally `latitude`, `longitude`) add or replace one device. At most 100 devices. Role user.',
      minimal: 'user',
    },
    async ({ caller, params: p }) => {
      if (!p.macid || p.name === undefined || p.room === undefined)
        throw new AssistantError(400, 'Bad service call, missing arguments');
      if (!MAC.test(p.macid)) throw new AssistantError(400, 'Invalid Mac Address.');
      if ([p.name, p.room, p.latitude ?? '', p.longitude ?? ''].some(hasNul))
        throw new AssistantError(400, 'Bad service call, bad arguments');
      const device = {
        name: p.name,
        room: p.room,
        geolocation: { latitude: p.latitude ?? '', longitude: p.longitude ?? '' },
        deviceAddTime: new Date().toISOString(),
      };
      const added = await app.db
        .update(users)
        .set({ assistantDevices: sql`${users.assistantDevices} || ${JSON.stringify({ [p.macid]: device })}::jsonb` })
        .where(
          sql`${users.id} = ${caller!.id} and ((select count(*) from jsonb_object_keys(${users.assistantDevices})) < 100 or ${users.assistantDevices} ? ${p.macid})`,
        )
        .returning({ id: users.id });
      if (added.length === 0) throw new AssistantError(400, 'Too many devices: remove one first');
      return { accepted: true, message: 'You have successfully added the device!' };
    },
  );
}
