import { and, eq, sql } from 'drizzle-orm';
import { customFormOptions, customForms } from '../../../db/schema/index.js';
import { loggedIn } from '../../auth/caller.js';
import {
  defineResource,
  integerId,
  notFound,
  type Columns,
  type Ctx,
  type Policy,
  type Row,
} from '../../jsonapi/index.js';
import { deletedAt, requiredText } from '../attributes.js';
import { inVisibleEvent, requireRole } from '../events/access.js';

/** Options whose form's event the caller sees (as the form fields themselves). */
const ofVisibleForm = (ctx: Ctx, t: Columns) =>
  sql`${t.customFormId} in (select ${customForms.id} from ${customForms} where ${inVisibleEvent(ctx, customForms.eventId) ?? sql`true`})`;

/** The event of a custom form, when the caller may see the form. */
async function formEvent(ctx: Ctx, id: unknown): Promise<number> {
  const formId = typeof id === 'number' ? id : integerId(id);
  const [form] =
    formId === undefined
      ? []
      : await ctx.db
          .select({ eventId: customForms.eventId })
          .from(customForms)
          .where(and(eq(customForms.id, formId), inVisibleEvent(ctx, customForms.eventId)))
          .limit(1);
  if (!form) throw notFound(`Related custom form "${String(id)}" not found`);
  return form.eventId;
}

const organizersOfForm = async (ctx: Ctx, formId: unknown) => {
  loggedIn(ctx);
  await requireRole(ctx, await formEvent(ctx, formId), 'coorganizer');
};

/** Read as the form fields are (logged-in users, where the event is visible); written by the event's organizers. */
const optionPolicy: Policy = {
  scope: (ctx, t) => (ctx.caller ? ofVisibleForm(ctx, t) : sql`false`),
  existsFor: ofVisibleForm,
  list: loggedIn,
  read: (ctx) => {
    loggedIn(ctx);
  },
  create: (ctx, input) => organizersOfForm(ctx, input.relationships['custom-form']),
  update: (ctx, row: Row) => organizersOfForm(ctx, row.customFormId),
  delete: (ctx, row: Row) => organizersOfForm(ctx, row.customFormId),
};

export const customFormOptionResource = defineResource({
  type: 'custom-form-option',
  path: 'custom-form-options',
  name: 'CustomFormOption',
  tag: 'Custom forms',
  description:
    'A choice of a custom form field of type select, radio or checkbox. Read as the form fields are (logged-in ' +
    "users, where the event is visible); written by the form's event's organizers and coorganizers.",
  table: customFormOptions,
  softDelete: 'deletedAt',
  attributes: {
    value: requiredText('value', 1024),
    'deleted-at': deletedAt,
  },
  relationships: {
    'custom-form': {
      kind: 'toOne',
      type: 'custom_form',
      column: 'customFormId',
      required: true,
      immutable: true,
      description: 'the field the option belongs to; set on create and never changed',
    },
  },
  policy: optionPolicy,
});
