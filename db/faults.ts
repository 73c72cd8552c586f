import { isConnectionFailure } from '../plugins/db.js';

/**
 * A fault at start-up that the operator fixes (src/server.ts, db/migrate-cli.ts, db/embedded.ts):
 * its message is one line that says what and how.
 */
export class StartupError extends Error {}

/** PostgreSQL's codes of a login it refuses: wrong password, no such role, no such database. */
const REFUSED_LOGIN = new Set(['28P01', '28000', '3D000']);

/** A StartupError for a database that cannot be reached or refuses the login (undefined for any other fault). */
export function unreachable(err: unknown, url: string, configured: boolean): StartupError | undefined {
  const { code, message } = err as { code?: string; message?: string };
  const refusedLogin = code !== undefined && REFUSED_LOGIN.has(code);
  if (!refusedLogin && !isConnectionFailure(err)) return undefined;
  const { hostname, port, pathname } = new URL(url);
  const where = `${hostname}:${port || 5432}${pathname}`;
  const fix = !configured
    ? 'the embedded PostgreSQL may have stopped; start again'
    : refusedLogin
      ? 'correct the user, password or database in DATABASE_URL'
      : 'start PostgreSQL there or correct DATABASE_URL';
  return new StartupError(
    `The database at ${where}${configured ? ' (DATABASE_URL)' : ''} refused the connection (${code}: ${message ?? 'no message'}): ${fix}.`,
  );
}
