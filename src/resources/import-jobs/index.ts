import { Type } from '@sinclair/typebox';
import { and, eq, sql } from 'drizzle-orm';
import { tasks } from '../../../db/schema/index.js';
import { isStaff, loggedIn } from '../../auth/caller.js';
import { DateTime, Nullable, constant, defineResource, type Columns, type Ctx } from '../../jsonapi/index.js';
import { computedPolicy } from '../statistics/figures.js';

const imports = (t: Columns) => eq(t.kind!, constant('import'));
/** The caller's own imports (the reference lists them to everyone, administrators included). */
const own = (ctx: Ctx, t: Columns) => (ctx.caller ? and(imports(t), eq(t.userId!, ctx.caller.id)) : sql`false`);

/**
 * The event imports a user started (the reference's import jobs, for the front end's Import page): the
 * import tasks of `POST /v1/events/import/json`, as they stand.
 */
export const importJobResource = defineResource({
  type: 'import-job',
  path: 'import-jobs',
  routes: 'read',
  name: 'ImportJob',
  tag: 'Import jobs',
  description:
    'An event import the caller started (`POST /v1/events/import/json`), its id and `task` those of the task ' +
    "polled at /v1/tasks/{task_id}. The list holds the caller's own imports; one import is read by its requester " +
    'and administrators (404 for anyone else). Imports are started by that route: nobody writes these records.',
  table: tasks,
  attributes: {
    task: {
      column: 'id',
      schema: Type.String({ format: 'uuid', description: 'the id of the import task (`/v1/tasks/{task}`)' }),
      readOnly: true,
    },
    'starts-at': {
      column: 'createdAt',
      schema: DateTime({ description: 'when the import was asked for' }),
      readOnly: true,
    },
    'result-status': {
      column: 'state',
      schema: Type.Union([Type.Literal('WAITING'), Type.Literal('SUCCESS'), Type.Literal('FAILURE')], {
        description: 'WAITING while it runs, then SUCCESS or FAILURE',
      }),
      readOnly: true,
    },
    // Computed, so not filterable: the front end's search of the Import page (`result` ilike) answers 400.
    result: {
      select: (t) =>
        sql`case ${t.state} when 'SUCCESS' then ${t.result}->>'id' when 'FAILURE' then ${t.result}->>'message' else ${t.status} end`,
      schema: Nullable(
        Type.String({
          description: 'the id of the imported event (SUCCESS), why it failed (FAILURE), or the progress while it runs',
        }),
      ),
      readOnly: true,
    },
  },
  policy: {
    ...computedPolicy(own, loggedIn),
    existsFor: (ctx, t) => (isStaff(ctx.caller) ? imports(t) : own(ctx, t)),
  },
});
