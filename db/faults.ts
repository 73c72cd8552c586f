/**
 * Faults at start-up that the operator fixes (src/server.ts, db/migrate-cli.ts, db/embedded.ts):
 * each is one line that says what and how.
 */
export class StartupError extends Error {}

/** The client-side codes of a database that cannot be reached, and PostgreSQL's of one that refuses the login. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ECONNRESET', 'CONNECT_TIMEOUT', '28P01', '28000', '3D000', '57P03']);

/** A StartupError for a database that refuses the first connection (undefined for any other fault). */
export function unreachable(err: unknown, url: string, configured: boolean): StartupError | undefined {
  const { code, message } = err as { code?: string; message?: string };
  if (!code || !UNREACHABLE.has(code)) return undefined;
  const { hostname, port, pathname } = new URL(url);
  const where = `${hostname}:${port || 5432}${pathname}`;
  const refusedLogin = code === '28P01' || code === '28000' || code === '3D000';
  const fix = !configured
    ? 'the embedded PostgreSQL may have stopped; start again'
    : refusedLogin
      ? 'correct the user, password or database in DATABASE_URL'
      : 'start PostgreSQL there or correct DATABASE_URL';
  return new StartupError(`The database at ${where}${configured ? ' (DATABASE_URL)' : ''} refused the connection (${code}: ${message ?? 'no message'}): ${fix}.`);
}

