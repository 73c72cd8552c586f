/** A record's links to other records of the archive, however the archive names them. */
import type { Model } from '../../jsonapi/index.js';
import { linksOf } from '../format.js';
import { idKey } from '../repairs/ids.js';
import { isEmpty, type SourceRecord } from '../sources.js';
import type { Context, PlannedRecord, Warn } from './context.js';

type Json = Record<string, unknown>;

/** Fields of the archive that name records (of the archive, or users of another server) rather than hold values. */
export const LINK_FIELDS: Record<string, string[]> = {
  session: ['speakers', 'speaker_ids'],
  speaker: ['sessions', 'session_ids'],
  track: ['sessions', 'session_ids'],
  event: ['social_links', 'event_copyright', 'tax', 'speakers_call', 'owner', 'creator', 'user'],
};

/** Old ids listed by another file's records (a track's or a speaker's `sessions`), by the listed id. */
export function listedBy(ctx: Context, fileName: string): Map<string, string[]> {
  const listed = new Map<string, string[]>();
  const kept = ctx.planned.get(fileName);
  for (const record of ctx.sources.files.get(fileName)?.records ?? []) {
    if (record.key === undefined || !kept?.has(record.key)) continue;
    const list = (record.fields.get('sessions') ?? record.fields.get('session_ids'))?.value;
    for (const item of Array.isArray(list) ? list : []) {
      const key = idKey(item);
      if (key !== undefined) listed.set(key, [...(listed.get(key) ?? []), record.key]);
    }
  }
  return listed;
}

/** A reference names a record: an id, or an object with one (`{"id": null, "name": null}` names nobody). */
const namesOne = (value: unknown) =>
  !isEmpty(value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json).id : value);

/** To-one references of a record to records of the archive (its own field, else the list of the target naming it). */
export function refsOf(
  ctx: Context,
  model: Model,
  warn: Warn,
  record: SourceRecord,
  listedIn: Record<string, Map<string, string[]>>,
) {
  const refs: PlannedRecord['refs'] = [];
  for (const link of linksOf(model)) {
    if (!link.file) continue;
    const field = record.fields.get(link.field) ?? record.fields.get(link.field.replace(/_id$/, ''));
    const given = field && namesOne(field.value) ? field : undefined;
    const key = given
      ? idKey(given.value)
      : record.key !== undefined
        ? listedIn[link.file]?.get(record.key)?.[0]
        : undefined;
    if (given && key === undefined) warn({ field: given.name, value: given.value, action: 'not an id: not linked' });
    else if (key !== undefined && !ctx.planned.get(link.file)?.has(key)) {
      warn({
        field: given?.name ?? link.field,
        value: given?.value ?? key,
        action: `no such record in ${link.file}: not linked`,
      });
    } else if (key !== undefined) refs.push({ column: link.column, file: link.file, key });
  }
  return refs;
}

/** A session's speakers: its own list (`speaker_ids`, `speakers` as ids or objects) and the speakers listing it. */
export function speakersOf(ctx: Context, warn: Warn, record: SourceRecord, listing: Map<string, string[]>): string[] {
  const field = record.fields.get('speaker_ids') ?? record.fields.get('speakers');
  const own = field && Array.isArray(field.value) ? field.value.filter(namesOne).map(idKey) : [];
  if (field && field.value !== null && !Array.isArray(field.value))
    warn({ field: field.name, value: field.value, action: 'not a list: not linked' });
  const known = ctx.planned.get('speakers') ?? new Set();
  const unknown = own.filter((k) => k === undefined || !known.has(k));
  if (unknown.length > 0) {
    warn({
      field: field!.name,
      value: unknown.map((k) => k ?? null),
      action: `no such record in speakers: ${unknown.length === 1 ? 'that speaker is' : 'those speakers are'} not linked`,
    });
  }
  const listed = record.key === undefined ? [] : (listing.get(record.key) ?? []);
  return [...new Set([...own, ...listed].filter((k): k is string => k !== undefined && known.has(k)))];
}
