/**
 * What a ticket holder answered in the attendee form, by the form's field identifier (`firstname`, `jobTitle`,
 * `age_group`, or an event's own complex field): the PDF exports list the answers, badges print them and their QR
 * codes hold them. Only the form's fields are read this way, never the holder's bookkeeping (notes, check-in times,
 * the ticket PDF's address).
 */
import { DateTime } from 'luxon';
import type { attendees } from '../../../db/schema/index.js';

export type AttendeeRow = typeof attendees.$inferSelect;

/** The attendee form's fixed fields, as the holder record keeps them. */
const FORM_FIELDS: (keyof AttendeeRow)[] = [
  'firstname',
  'lastname',
  'email',
  'city',
  'state',
  'country',
  'address',
  'jobTitle',
  'phone',
  'company',
  'taxBusinessInfo',
  'billingAddress',
  'homeAddress',
  'shippingAddress',
  'workAddress',
  'workPhone',
  'website',
  'blog',
  'twitter',
  'facebook',
  'github',
  'instagram',
  'linkedin',
  'gender',
  'ageGroup',
  'birthDate',
  'acceptReceiveEmails',
  'acceptVideoRecording',
  'acceptShareDetails',
  'isConsentOfRefundPolicy',
  'nativeLanguage',
  'fluentLanguage',
  'homeWiki',
  'isConsentFormField',
  'isConsentFormFieldPhoto',
  'isConsentFormFieldEmail',
  'wikiScholarship',
  'identifier',
];

/** A field identifier as compared: letter case, `_` and `-` aside (`job_title`, `jobTitle` and `job-title` agree). */
const folded = (identifier: string) => identifier.replace(/[_-]/g, '').toLowerCase();

const COLUMNS = new Map(FORM_FIELDS.map((key) => [folded(key), key]));

/** The holder's full name: first and last name. */
export const fullName = (row: Pick<AttendeeRow, 'firstname' | 'lastname'>) =>
  [row.firstname, row.lastname]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(' ');

/** A stored answer as text: yes or no, a date, a number or the text itself; empty for none. */
function text(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (value instanceof Date) return DateTime.fromJSDate(value, { zone: 'UTC' }).toISODate() ?? '';
  return String(value);
}

/**
 * The holder's answer to the field `identifier` as text (empty when there is none): one of the form's fixed fields,
 * `name` or `fullname` for the first and last name, or else the answer to the event's complex field so named.
 */
export function answerOf(row: AttendeeRow, identifier: string): string {
  const key = folded(identifier);
  if (key === 'name' || key === 'fullname') return fullName(row);
  const column = COLUMNS.get(key);
  if (column) return text(row[column]);
  const complex = row.complexFieldValues;
  if (complex && typeof complex === 'object' && !Array.isArray(complex))
    return text((complex as Record<string, unknown>)[identifier]);
  return '';
}
