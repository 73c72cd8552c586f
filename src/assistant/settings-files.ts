import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { eq, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { users } from '../../db/schema/index.js';
import { ROLES, type Role } from './identity.js';

export interface SettingsFiles {
  dir: string;
  /** Rewrites accounting.json, authorization.json and groups.json from the database. */
  write(): Promise<void>;
  /** Names of the files: those produced from the database, and any other the folder holds. */
  names(): Promise<string[]>;
  /**
   * A file by name (one of `names()`): the text of one produced from the database as it is now (the
   * same on every machine, whatever its folder holds), or the path of another in the folder.
   */
  open(name: string): Promise<{ text: string } | { path: string }>;
  /** Applies `userRole` values edited by hand in authorization.json to the accounts (start-up). */
  applyHandEdits(): Promise<string[]>;
}

const roleOfRow = (u: { isAdmin: boolean; isSuperAdmin: boolean; assistantRole: string }): Role =>
  u.isSuperAdmin ? 'superadmin' : u.isAdmin ? 'admin' : (u.assistantRole as Role);

/** The column values that give an account a role. */
export const roleColumns = (role: Role) => ({
  isAdmin: role === 'admin' || role === 'superadmin',
  isSuperAdmin: role === 'superadmin',
  assistantRole: role === 'admin' || role === 'superadmin' || role === 'anonymous' ? 'user' : role,
});

/** The files produced from the database (the accounts, their roles, no groups). */
const PRODUCED = ['accounting.json', 'authorization.json', 'groups.json'];

/**
 * The assistant's settings: accounting.json, authorization.json and groups.json are produced from
 * the database when read, so every process answers the same; the folder keeps them as the reference
 * lays it out (rewritten by the process that made a change; each file replaced whole, temp file then
 * rename) for hand edits of roles, applied at start-up.
 */
export function settingsFiles(app: FastifyInstance, folder: string): SettingsFiles {
  const dir = resolve(folder);
  const put = async (name: string, text: string) => {
    const partial = join(dir, `.${name}.${randomBytes(6).toString('hex')}`);
    await writeFile(partial, text);
    await rename(partial, join(dir, name));
  };
  const live = () =>
    app.db
      .select({
        id: users.id,
        email: users.email,
        isAdmin: users.isAdmin,
        isSuperAdmin: users.isSuperAdmin,
        assistantRole: users.assistantRole,
        stores: users.stores,
        createdAt: users.createdAt,
        lastLoginAt: users.lastLoginAt,
      })
      .from(users)
      .where(isNull(users.deletedAt))
      .orderBy(users.id);
  /** Each produced file's text, as the folder holds it. */
  const produced = async () => {
    const accounts = await live();
    const key = (email: string) => `email:${email}`;
    const accounting = Object.fromEntries(
      accounts.map((a) => [
        key(a.email),
        {
          signupTime: a.createdAt.toISOString(),
          lastLoginTime: a.lastLoginAt?.toISOString() ?? null,
          stores: a.stores,
        },
      ]),
    );
    const authorization = Object.fromEntries(
      accounts.map((a) => [key(a.email), { permissions: {}, userRole: roleOfRow(a) }]),
    );
    const text = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
    return new Map([
      ['accounting.json', text(accounting)],
      ['authorization.json', text(authorization)],
      ['groups.json', text({})],
    ]);
  };
  const files: SettingsFiles = {
    dir,
    async write() {
      await mkdir(dir, { recursive: true });
      for (const [name, text] of await produced()) await put(name, text);
    },
    async names() {
      await mkdir(dir, { recursive: true });
      const held = (await readdir(dir, { withFileTypes: true }))
        .filter((e) => e.isFile() && !e.name.startsWith('.'))
        .map((e) => e.name);
      return [...new Set([...PRODUCED, ...held])].sort();
    },
    async open(name) {
      return PRODUCED.includes(name) ? { text: (await produced()).get(name)! } : { path: join(dir, name) };
    },
    async applyHandEdits() {
      let edited: Record<string, { userRole?: unknown }>;
      try {
        edited = JSON.parse(await readFile(join(dir, 'authorization.json'), 'utf8')) as typeof edited;
      } catch {
        return [];
      }
      // One read of the accounts, then an update only where the file names another role than the
      // database (usually none: the file is written from the database), so a start with many
      // accounts costs one statement.
      const current = new Map((await live()).map((a) => [a.email.toLowerCase(), a]));
      const applied: string[] = [];
      for (const [key, entry] of Object.entries(edited ?? {})) {
        const role = entry?.userRole;
        if (
          !key.startsWith('email:') ||
          typeof role !== 'string' ||
          !ROLES.includes(role as Role) ||
          role === 'anonymous'
        )
          continue;
        const account = current.get(key.slice('email:'.length).toLowerCase());
        if (!account || roleOfRow(account) === role) continue;
        await app.db
          .update(users)
          .set(roleColumns(role as Role))
          .where(eq(users.id, account.id));
        applied.push(`${account.email}: ${role}`);
      }
      return applied;
    },
  };
  return files;
}
