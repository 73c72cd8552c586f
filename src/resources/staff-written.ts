import { requireStaff } from '../auth/caller.js';
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
