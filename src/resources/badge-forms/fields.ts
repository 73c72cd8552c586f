/**
 * A badge form's fields sent and read within the form, as the reference does (app/api/badge_forms.py,
 * app/api/data_layers/BadgeFormLayer.py, app/api/custom/schema/badge_form_field.py, BadgeFieldForms.convert_to_dict)
 * and as the front end's badge page saves them (app/components/forms/wizard/badge-step.js, badge-form.js): the
 * attribute `badge-fields`, a list of snake_case objects, each a row of badge_field_forms.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { badgeFieldForms } from '../../../db/schema/index.js';
import { Nullable, Text, unprocessable, type AttributeSpec, type Columns, type Ctx } from '../../jsonapi/index.js';

/** The most live fields one badge form holds (the front end offers one per attendee form field, and the QR code). */
export const MAX_BADGE_FIELDS = 100;
/** The most field identifiers a QR code holds. */
export const MAX_QR_FIELDS = 100;

/** Bounds of a field's numbers: a badge is at most 152.4 mm long. */
export const FONT_SIZE = { minimum: 0, maximum: 1000 };
export const ROTATION = { minimum: -360, maximum: 360 };
export const MARGIN = { minimum: -1000, maximum: 1000 };

/** One of the reference's FontWeight entries: which weight, style and decoration a field is printed in. */
export const FontWeight = Type.Object(
  {
    name: Type.Optional(Nullable(Text(255))),
    font_weight: Type.Optional(Nullable(Text(255))),
    font_style: Type.Optional(Nullable(Text(255))),
    text_decoration: Type.Optional(Nullable(Text(255))),
  },
  { additionalProperties: false },
);
const FontWeights = Type.Array(FontWeight, { maxItems: 16, description: 'bold, italic, underline' });
const QrFields = Type.Array(Text(255), {
  maxItems: MAX_QR_FIELDS,
  description: 'the field identifiers the QR code holds',
});

/** A JSON number written as a string, nothing around it ("12.5", "-3"). */
const NUMBER_TEXT = '^-?(0|[1-9][0-9]*)(\\.[0-9]+)?$';

/**
 * A number of a field as clients send it: a number or a string that is exactly one, within `bounds`. The column is an
 * integer: a fraction is dropped, as the reference's integer fields drop it (the front end's number inputs may hold one).
 */
const sentNumber = (bounds: { minimum: number; maximum: number }, description: string) =>
  Type.Union([Type.Number({ ...bounds, description }), Type.String({ pattern: NUMBER_TEXT }), Type.Null()]);
/** A flag as clients send it; null is false (the column's default, what reads then carry). */
const sentFlag = (description: string) =>
  Type.Union([Type.Boolean({ description }), Type.Literal('true'), Type.Literal('false'), Type.Null()]);
const sentText = (maxLength: number, description?: string) =>
  Type.Union([Text(maxLength, { description }), Type.Null()]);
const sentId = (description: string) =>
  Type.Union([Type.Integer({ minimum: 1, description }), Type.String({ pattern: '^[1-9][0-9]{0,9}$' }), Type.Null()]);

/** The members of a field as the front end sends them, each a column of badge_field_forms. */
const WRITTEN = {
  field_identifier: { column: 'fieldIdentifier', schema: sentText(255, 'the attendee field printed (or QR)') },
  custom_field: { column: 'customField', schema: sentText(255, 'the name of the attendee field printed') },
  sample_text: { column: 'sampleText', schema: sentText(2048, 'shown in the editor instead of a holder') },
  font_size: { column: 'fontSize', schema: sentNumber(FONT_SIZE, 'in points') },
  font_name: { column: 'fontName', schema: sentText(255) },
  font_weight: { column: 'fontWeight', schema: Type.Union([FontWeights, Type.Null()]) },
  font_color: { column: 'fontColor', schema: sentText(255) },
  text_rotation: { column: 'textRotation', schema: sentNumber(ROTATION, 'in degrees') },
  text_alignment: { column: 'textAlignment', schema: sentText(255) },
  text_type: { column: 'textType', schema: sentText(255, 'None, Uppercase, Lowercase or Capitalize') },
  is_deleted: { column: 'isDeleted', schema: sentFlag('true removes the field named by badge_field_id') },
  margin_top: { column: 'marginTop', schema: sentNumber(MARGIN, 'in millimetres') },
  margin_bottom: { column: 'marginBottom', schema: sentNumber(MARGIN, 'in millimetres') },
  margin_left: { column: 'marginLeft', schema: sentNumber(MARGIN, 'in millimetres') },
  margin_right: { column: 'marginRight', schema: sentNumber(MARGIN, 'in millimetres') },
  qr_custom_field: { column: 'qrCustomField', schema: Type.Union([QrFields, Type.Null()]) },
  is_field_expanded: { column: 'isFieldExpanded', schema: sentFlag('the editor shows the field open') },
} as const satisfies Record<string, { column: string; schema: TSchema }>;

type WrittenKey = keyof typeof WRITTEN;
const NUMBERS = new Set<WrittenKey>([
  'font_size',
  'text_rotation',
  'margin_top',
  'margin_bottom',
  'margin_left',
  'margin_right',
]);
const FLAGS = new Set<WrittenKey>(['is_deleted', 'is_field_expanded']);

/** A field in a request: its members, which field it is, and what the front end's serializer adds (ignored). */
const FieldInput = Type.Object(
  {
    badge_field_id: Type.Optional(sentId('the field to change or remove (absent or null: a new field)')),
    id: Type.Optional(sentId('the field as read back (`badge_field_id` wins when both are sent)')),
    badge_id: Type.Optional(sentText(255, "ignored: a field is on its form's badge")),
    ...Object.fromEntries(Object.entries(WRITTEN).map(([key, { schema }]) => [key, Type.Optional(schema)])),
    event: Type.Optional(
      Type.Union([Type.String({ maxLength: 64 }), Type.Integer(), Type.Null()], {
        description: "ignored: a field is of its form's event (ember-data's JSON serializer sends the field's, null)",
      }),
    ),
    ticket: Type.Optional(
      Type.Array(Type.String({ maxLength: 64 }), { maxItems: 1000, description: 'ignored, as the reference does' }),
    ),
  },
  { additionalProperties: false },
);
type FieldInput = Static<typeof FieldInput> & Partial<Record<WrittenKey, unknown>>;

/** A stored field as reads carry it (the reference's convert_to_dict). */
const StoredField = Type.Object(
  {
    id: Type.Integer(),
    field_identifier: Nullable(Type.String()),
    custom_field: Nullable(Type.String()),
    sample_text: Nullable(Type.String()),
    badge_id: Type.String(),
    font_size: Nullable(Type.Integer()),
    font_name: Nullable(Type.String()),
    font_weight: Type.Union([Type.Array(FontWeight), Type.Null()]),
    font_color: Nullable(Type.String()),
    text_rotation: Nullable(Type.Integer()),
    text_alignment: Nullable(Type.String()),
    text_type: Nullable(Type.String()),
    is_deleted: Nullable(Type.Boolean()),
    margin_top: Nullable(Type.Integer()),
    margin_bottom: Nullable(Type.Integer()),
    margin_left: Nullable(Type.Integer()),
    margin_right: Nullable(Type.Integer()),
    qr_custom_field: Type.Union([Type.Array(Type.String()), Type.Null()]),
    is_field_expanded: Nullable(Type.Boolean()),
  },
  { additionalProperties: false },
);

const f = badgeFieldForms;
/** The members of a stored field, in the reference's order. */
const storedMembers = sql.join(
  [
    sql`'id', ${f.id}`,
    ...(
      [
        ['field_identifier', f.fieldIdentifier],
        ['custom_field', f.customField],
        ['sample_text', f.sampleText],
        ['badge_id', f.badgeId],
        ['font_size', f.fontSize],
        ['font_name', f.fontName],
        ['font_weight', f.fontWeight],
        ['font_color', f.fontColor],
        ['text_rotation', f.textRotation],
        ['text_alignment', f.textAlignment],
        ['text_type', f.textType],
        ['is_deleted', f.isDeleted],
        ['margin_top', f.marginTop],
        ['margin_bottom', f.marginBottom],
        ['margin_left', f.marginLeft],
        ['margin_right', f.marginRight],
        ['qr_custom_field', f.qrCustomField],
        ['is_field_expanded', f.isFieldExpanded],
      ] as const
    ).map(([key, column]) => sql`${sql.raw(`'${key}'`)}, ${column}`),
  ],
  sql`, `,
);

/**
 * `badge-fields` of a badge form: read, its live fields on its badge (`badge_id` the form's), by id; written, the
 * fields to add, change and remove (see writeBadgeFields), all in the request's transaction.
 */
export const badgeFieldsAttribute: AttributeSpec = {
  select: (t: Columns) =>
    sql`(select coalesce(json_agg(json_build_object(${storedMembers}) order by ${f.id}), '[]'::json)
      from ${f} where ${f.badgeFormId} = ${t.id} and ${f.badgeId} = ${t.badgeId} and ${f.deletedAt} is null)`,
  hooked: true,
  schema: Type.Array(StoredField, {
    description:
      "the fields printed on the badge (its badge field forms on the form's badge, by id), each as the reference's " +
      'convert_to_dict writes it',
  }),
  input: Type.Union(
    [
      Type.Array(FieldInput, {
        maxItems: MAX_BADGE_FIELDS,
        description:
          'the fields to add (no badge_field_id), change (badge_field_id, or id, one of this form) and remove ' +
          '(is_deleted true); fields left out keep their values, and a badge_field_id that names no field of this ' +
          `form adds one, as the reference does. At most ${MAX_BADGE_FIELDS} live fields per form. null changes nothing.`,
      }),
      Type.Null(),
    ],
    { description: 'the fields printed on the badge' },
  ),
};

/** The column values an item sets, checked (pointers name the item's member). */
function columnValues(item: FieldInput, at: string): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const key of Object.keys(WRITTEN) as WrittenKey[]) {
    if (!(key in item)) continue;
    const value = item[key];
    const { column } = WRITTEN[key];
    if (NUMBERS.has(key) && value !== null) {
      const n = Number(value);
      const schema = (WRITTEN[key].schema as { anyOf: { minimum: number; maximum: number }[] }).anyOf[0]!;
      if (!Number.isFinite(n) || n < schema.minimum || n > schema.maximum)
        throw unprocessable(`${key} must be a number from ${schema.minimum} to ${schema.maximum}`, `${at}/${key}`);
      values[column] = Math.trunc(n);
    } else if (FLAGS.has(key)) values[column] = value === true || value === 'true';
    else values[column] = value;
  }
  return values;
}

const flag = (value: unknown) => value === true || value === 'true';
const idOf = (value: unknown) => (value === undefined || value === null ? undefined : Number(value));

/** The form the fields are on: its id, badge (new on an update that changes it) and event. */
export interface FieldsForm {
  id: number;
  badgeId: string;
  eventId: number;
  /** On an update that changes the form's badge: the badge it was on. */
  formerBadgeId?: string;
}

/**
 * Stores the fields a badge form write sends, as the reference's create (BadgeFormLayer) and before_patch do: a
 * field without a known badge_field_id of this form is added (on create, every one; one sent as removed is not),
 * a known one is changed (only the members sent) or, sent with is_deleted true, removed (soft delete). Every
 * field is on the form's badge: a form that moves to another badge takes its fields along. A form would hold more
 * than MAX_BADGE_FIELDS live fields: 422, nothing written. A constant number of statements, whatever the count.
 */
export async function writeBadgeFields(ctx: Ctx, form: FieldsForm, sent: unknown, creating: boolean) {
  const items = (Array.isArray(sent) ? sent : []) as FieldInput[];
  const moves = form.formerBadgeId !== undefined && form.formerBadgeId !== form.badgeId;
  if (items.length === 0 && !moves) return;
  const pointer = '/data/attributes/badge-fields';
  const live = creating
    ? []
    : await ctx.db
        .select()
        .from(f)
        .where(and(eq(f.badgeFormId, form.id), isNull(f.deletedAt)))
        .orderBy(f.id)
        .for('update');
  const byId = new Map(live.map((row) => [row.id, row]));
  const removed = new Set<number>();
  const changed = new Map<number, Record<string, unknown>>();
  const added: Record<string, unknown>[] = [];
  items.forEach((item, i) => {
    const values = columnValues(item, `${pointer}/${i}`);
    const named = creating ? undefined : idOf(item.badge_field_id ?? item.id);
    const known = named !== undefined && byId.has(named) && !removed.has(named) ? named : undefined;
    if (flag(item.is_deleted)) {
      if (known !== undefined) {
        removed.add(known);
        changed.delete(known);
      }
      return;
    }
    const base = { ...values, badgeId: form.badgeId, isDeleted: false };
    if (known !== undefined) changed.set(known, { ...changed.get(known), ...base });
    else added.push({ ...base, badgeFormId: form.id, eventId: form.eventId });
  });
  const count = live.length - removed.size + added.length;
  if (count > MAX_BADGE_FIELDS)
    throw unprocessable(`A badge form holds at most ${MAX_BADGE_FIELDS} fields; this one would hold ${count}`, pointer);

  if (removed.size > 0)
    await ctx.db
      .update(f)
      .set({ deletedAt: new Date(), isDeleted: true })
      .where(inArray(f.id, [...removed]));
  if (changed.size > 0)
    await updateFields(
      ctx,
      [...changed].map(([id, values]) => ({ ...byId.get(id)!, ...values })),
    );
  if (added.length > 0) await ctx.db.insert(f).values(added as (typeof f.$inferInsert)[]);
  // The fields the request did not name move to the form's new badge with it.
  if (moves)
    await ctx.db
      .update(f)
      .set({ badgeId: form.badgeId })
      .where(and(eq(f.badgeFormId, form.id), eq(f.badgeId, form.formerBadgeId!), isNull(f.deletedAt)));
}

/** The updated rows in one statement: each row's every written column, from a JSON list of the rows. */
async function updateFields(ctx: Ctx, rows: (typeof f.$inferSelect)[]) {
  const columns = ['badgeId', ...Object.values(WRITTEN).map((w) => w.column)] as (keyof typeof f.$inferSelect)[];
  const list = rows.map((row) => Object.fromEntries([['id', row.id], ...columns.map((c) => [f[c].name, row[c]])]));
  const types = columns.map((c) => sql.raw(`"${f[c].name}" ${f[c].getSQLType()}`));
  await ctx.db.execute(sql`update ${f} set ${sql.join(
    columns.map((c) => sql`${sql.raw(`"${f[c].name}"`)} = v.${sql.raw(`"${f[c].name}"`)}`),
    sql`, `,
  )}
    from jsonb_to_recordset(${JSON.stringify(list)}::jsonb) as v(id integer, ${sql.join(types, sql`, `)})
    where ${f.id} = v.id`);
}
