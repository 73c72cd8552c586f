import { sql } from 'drizzle-orm';
import { isStaff, requireStaff } from '../auth/caller.js';
import type { Policy } from '../jsonapi/index.js';

/** Site-wide records (topics, pages): everyone reads them, administrators write them. */
export const staffWritten: Policy = {
  scope: () => undefined,
  list() {},
  read() {},
  create: requireStaff,
  update: requireStaff,
  delete: requireStaff,
};

/** Records only administrators see and write (ticket fees, panel permissions); anyone else finds none. */
export const staffOnly: Policy = {
  scope: (ctx) => (isStaff(ctx.caller) ? undefined : sql`false`),
  list: requireStaff,
  read: requireStaff,
  create: requireStaff,
  update: requireStaff,
  delete: requireStaff,
};
