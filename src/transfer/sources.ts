import { FILES, snake, type ArchiveFile } from './format.js';
import { parseJson } from './repairs/json.js';
import { formFieldsOf, isOldFormRecord } from './repairs/forms.js';
import { idKey, oldIdOrder } from './repairs/ids.js';
import { ImportError, type Warnings } from './repairs/warnings.js';
import type { EntryReader } from './zip.js';

type Json = Record<string, unknown>;

/** A field of an archive record: its name in this format (snake_case, renamed), and as the archive spells it. */
export interface SourceField {
  name: string;
  value: unknown;
}

/** A record of the archive, before any of its values is read. */
export interface SourceRecord {
  /** The old id as a key (`"12"` for 12 and "12"); undefined when the record has none that can be linked to. */
  key?: string;
  /** The old id as written, for warnings. */
  id: string | number | null;
  fields: Map<string, SourceField>;
  /** For a record nested in another file's record: that file and field (`sessions › track`). */
  from?: string;
}

/** One file of the archive (or the records nested elsewhere that stand in for it), deduplicated and in old-id order. */
export interface SourceFile {
  file: ArchiveFile;
  /** The archive entry it was read from (or, for nested records, the file that nests them). */
  entry: string;
  records: SourceRecord[];
}

export interface Sources {
  files: Map<string, SourceFile>;
}

/** A record's fields under this format's names: keys snake_cased, older names renamed where the new one is absent. */
function fieldsOf(file: ArchiveFile, record: Json): Map<string, SourceField> {
  const fields = new Map<string, SourceField>();
  const keys = Object.keys(record).map((key) => [key, snake(key)] as const);
  const present = new Set(keys.map(([, s]) => s));
  for (const [key, snaked] of keys) {
    const renamed = file.renamed?.[snaked];
    const name = renamed && !present.has(renamed) ? renamed : snaked;
    if (!fields.has(name)) fields.set(name, { name: key, value: record[key] });
  }
  return fields;
}

function sourceRecord(file: ArchiveFile, entry: string, record: Json, warnings: Warnings): SourceRecord {
  const fields = fieldsOf(file, record);
  const id = fields.get('id')?.value;
  const key = idKey(id);
  const shown = typeof id === 'string' || typeof id === 'number' ? id : null;
  if (key === undefined && id !== undefined && id !== null && id !== '' && file.name !== 'event') {
    warnings.add({
      file: entry,
      id: shown,
      field: 'id',
      value: id,
      action: 'not a number: the record is imported, but nothing can refer to it',
    });
  }
  return { key, id: shown, fields };
}

/** The parsed value of an entry: repaired JSON is warned; an unreadable file is refused if essential, else skipped. */
function parsedEntry(
  read: EntryReader,
  entry: string,
  maxBytes: number,
  essential: boolean,
  warnings: Warnings,
): unknown {
  const parsed = parseJson(read(maxBytes).toString('utf8'));
  if ('error' in parsed) {
    if (essential) throw new ImportError(`File ${entry} is not valid JSON`);
    warnings.add({
      file: entry,
      action: `not valid JSON (${parsed.error}), and it could not be repaired: the file is skipped`,
    });
    return undefined;
  }
  if (parsed.repaired)
    warnings.add({ file: entry, action: 'not valid JSON: repaired (a missing comma or quote, a cut-off end, ...)' });
  return parsed.value;
}

const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** The records a file's value holds: the event file one object, the others a list (also one wrapped in an object). */
function recordsIn(file: ArchiveFile, entry: string, value: unknown, warnings: Warnings): Json[] | undefined {
  if (file.name === 'event') {
    if (isObject(value)) return [value];
    if (Array.isArray(value) && isObject(value[0])) {
      if (value.length > 1)
        warnings.add({ file: entry, action: `a list of ${value.length} events: the first is imported` });
      return [value[0]];
    }
    throw new ImportError(`File ${entry} does not hold an event object`);
  }
  let list = value;
  if (isObject(value)) {
    const lists = Object.entries(value).filter(([, v]) => Array.isArray(v));
    if (lists.length === 1) {
      warnings.add({
        file: entry,
        field: lists[0]![0],
        action: 'the list is wrapped in an object: its records are read',
      });
      list = lists[0]![1];
    }
  }
  if (!Array.isArray(list)) {
    warnings.add({ file: entry, value: list, action: 'does not hold a list of records: the file is skipped' });
    return undefined;
  }
  return list.filter((record, i) => {
    if (isObject(record)) return true;
    warnings.add({ file: entry, field: `[${i}]`, value: record, action: 'not a record: dropped' });
    return false;
  });
}

interface ReadFile {
  entry: string;
  raw: Json[];
  records: SourceRecord[];
}

/** One record per old id (the first), in ascending old-id order; repeats are warned, saying whether they differed. */
function deduplicated(entry: string, records: SourceRecord[], raw: Json[], warnings: Warnings): SourceRecord[] {
  const first = new Map<string, number>();
  const kept: SourceRecord[] = [];
  records.forEach((record, i) => {
    if (record.key === undefined) return void kept.push(record);
    const earlier = first.get(record.key);
    if (earlier === undefined) {
      first.set(record.key, i);
      return void kept.push(record);
    }
    const same = JSON.stringify(raw[earlier]) === JSON.stringify(raw[i]);
    warnings.add({
      file: entry,
      id: record.id,
      action: `the id appears twice (${same ? 'the same record again' : 'a different record'}): the first is kept, this one dropped`,
    });
  });
  return oldIdOrder(kept);
}

/** The archive entry of a file: its name or an alias, with or without `.json`. */
function entryOf(file: ArchiveFile, entries: Map<string, EntryReader>) {
  return [file.name, ...file.aliases].flatMap((n) => [`${n}.json`, n]).find((n) => entries.has(n));
}

/** Null, empty text, or a list or object of nothing else: no value at all. */
export const isEmpty = (value: unknown): boolean =>
  value === null ||
  value === undefined ||
  value === '' ||
  (typeof value === 'object' && Object.values(value).every(isEmpty));

/**
 * Records other files nest (a session's `track` object, the event's `social_links`) for a kind the
 * archive has no file of: one per old id, the first found; warned once per place. Only the event's
 * nested records need no id (nothing links to them). Where the file exists it is the whole truth: a
 * record nested elsewhere but missing from it may have been deleted.
 */
function nestedRecords(file: ArchiveFile, read: Map<string, ReadFile>, warnings: Warnings): SourceRecord[] {
  const seen = new Set<string>();
  const records: SourceRecord[] = [];
  for (const { file: holder, field } of file.nestedIn ?? []) {
    const source = read.get(holder);
    let name = field;
    const before = records.length;
    for (const record of source?.records ?? []) {
      const nested = record.fields.get(field);
      if (!nested) continue;
      name = nested.name;
      for (const object of [nested.value].flat().filter(isObject)) {
        if (isEmpty(object)) continue;
        const key = idKey(object.id);
        if (key === undefined ? holder !== 'event' : seen.has(key)) continue;
        if (key !== undefined) seen.add(key);
        records.push({
          ...sourceRecord(file, source!.entry, object, warnings),
          from: `${source!.entry} › ${nested.name}`,
        });
      }
    }
    const made = records.length - before;
    if (made > 0) {
      warnings.add({
        file: source!.entry,
        field: name,
        action: `no ${file.name} file: ${made} made from the objects nested here`,
      });
    }
  }
  return records;
}

/**
 * Reads the archive's files: each file under its name or an alias, JSON repaired where it can be
 * (a file that cannot be read is skipped, the event file is essential), records with this format's
 * field names, one per old id, in old-id order; the old custom forms format turned into form fields;
 * for a kind without a file, the records other files nest.
 */
export function readSources(entries: Map<string, EntryReader>, maxJsonBytes: number, warnings: Warnings): Sources {
  const read = new Map<string, ReadFile>();
  for (const file of FILES) {
    const entry = entryOf(file, entries);
    if (!entry) {
      if (file.name === 'event') throw new ImportError('The archive has no event file');
      continue;
    }
    const value = parsedEntry(entries.get(entry)!, entry, maxJsonBytes, file.name === 'event', warnings);
    const list = value === undefined ? undefined : recordsIn(file, entry, value, warnings);
    if (!list) continue;
    const raw =
      file.name === 'custom_forms'
        ? list.flatMap((r) => (isOldFormRecord(r) ? formFieldsOf(r, entry, warnings) : [r]))
        : list;
    read.set(file.name, { entry, raw, records: raw.map((r) => sourceRecord(file, entry, r, warnings)) });
  }
  const files = new Map<string, SourceFile>();
  for (const file of FILES) {
    const found = read.get(file.name);
    if (found)
      files.set(file.name, {
        file,
        entry: found.entry,
        records: deduplicated(found.entry, found.records, found.raw, warnings),
      });
    else {
      const nested = nestedRecords(file, read, warnings);
      if (nested.length > 0) files.set(file.name, { file, entry: nested[0]!.from!, records: oldIdOrder(nested) });
    }
  }
  return { files };
}
