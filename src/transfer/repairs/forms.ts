import { parseJson } from './json.js';
import type { Warnings } from './warnings.js';

type Json = Record<string, unknown>;

/**
 * The form settings of the older Open Event format: one record holding `session_form` and
 * `speaker_form`, each a JSON text (or object) of `{field: {include, require}}`.
 */
const OLD_FORMS: Record<string, string> = {
  session_form: 'session',
  speaker_form: 'speaker',
  attendee_form: 'attendee',
};
const keyOf = (name: string) => name.replace(/-/g, '_').toLowerCase();

export const isOldFormRecord = (record: Json) => Object.keys(record).some((k) => keyOf(k) in OLD_FORMS);

/** The field identifiers of this service (the reference's camelCase ones) for the old snake_case names. */
const IDENTIFIERS: Record<string, string> = {
  photo: 'photoUrl',
  slides: 'slidesUrl',
  video: 'videoUrl',
  audio: 'audioUrl',
};
const identifierOf = (name: string) =>
  IDENTIFIERS[name] ?? name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
const typeOf = (identifier: string) =>
  identifier === 'email' ? 'email' : identifier === 'photoUrl' ? 'image' : 'text';
const flag = (value: unknown) => value === 1 || value === true || value === '1' || value === 'true';

/** The custom form fields an old form settings record stands for (no ids: nothing refers to them). */
export function formFieldsOf(record: Json, entry: string, warnings: Warnings): Json[] {
  const fields: Json[] = [];
  for (const [key, value] of Object.entries(record)) {
    const form = OLD_FORMS[keyOf(key)];
    if (!form) continue;
    const parsed = typeof value === 'string' ? parseJson(value) : { value };
    const settings = 'value' in parsed ? parsed.value : undefined;
    if (settings === null || typeof settings !== 'object' || Array.isArray(settings)) {
      warnings.add({
        file: entry,
        id: (record.id as number) ?? null,
        field: key,
        value,
        action: 'not readable form settings: dropped',
      });
      continue;
    }
    const made = Object.entries(settings as Record<string, unknown>).map(([name, s]) => {
      const { include, require } = (s ?? {}) as { include?: unknown; require?: unknown };
      const identifier = identifierOf(name);
      return {
        form,
        field_identifier: identifier,
        type: typeOf(identifier),
        is_included: flag(include),
        is_required: flag(require),
      };
    });
    warnings.add({
      file: entry,
      id: (record.id as number) ?? null,
      field: key,
      action: `the older form settings format: read as ${made.length} ${form} form field${made.length === 1 ? '' : 's'}`,
    });
    fields.push(...made);
  }
  return fields;
}
