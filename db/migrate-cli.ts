/**
 * `npm run migrate`: applies the pending migrations to DATABASE_URL and exits, for a rollout that
 * migrates once before it starts the new version's processes (each process also applies what is
 * pending at start, one at a time under an advisory lock). Exit code 1 with one line when the
 * database cannot be reached or refuses the login.
 */
import { StartupError, unreachable } from './faults.js';
import { runMigrations } from './migrate.js';

const url = process.env.DATABASE_URL;
try {
  if (!url)
    throw new StartupError(
      'DATABASE_URL is not set: name the database to migrate (the embedded one is migrated by npm start).',
    );
  await runMigrations(url, 10);
  console.log('Migrations applied.');
} catch (err) {
  const fault = err instanceof StartupError ? err : url ? unreachable(err, url, true) : undefined;
  console.error(fault ? fault.message : err);
  process.exit(1);
}
