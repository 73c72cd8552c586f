/** What planning an import makes and shares: the planned records, the environment, the context of the archive read so far. */
import type { AttributeSpec, Model } from '../../jsonapi/index.js';
import type { ArchiveFile } from '../format.js';
import type { WarningInput, Warnings } from '../repairs/warnings.js';
import type { SourceFile, SourceRecord, Sources } from '../sources.js';

type Json = Record<string, unknown>;

/** A record ready to be written: its column values, and its references to other records of the archive by old id. */
export interface PlannedRecord {
  /** The old id's key: how the archive's other records refer to this one. */
  key?: string;
  values: Json;
  /** To-one references: the column, the file of the target and the target's old id. */
  refs: { column: string; file: string; key: string }[];
  /** A session's speakers, by their old ids. */
  speakers: string[];
}

export interface PlannedFile {
  file: ArchiveFile;
  records: PlannedRecord[];
}

/** Everything an import writes, read and repaired before its transaction starts. */
export interface Plan {
  event: PlannedRecord;
  /** The other files, in the order they are written. */
  files: PlannedFile[];
}

/** The admin-managed lists an event is filed under. */
export type EventListing = 'event-topic' | 'event-type' | 'event-sub-topic';

export interface PlanEnv {
  warnings: Warnings;
  /**
   * Stores a media file of the archive (a path such as `images/logo.png`): its URL, with a note when
   * the path named the file only loosely; null when the archive has none.
   */
  media(path: string): Promise<{ url: string; note?: string } | null>;
  /** The id of this service's live topic, type or sub-topic with this id or name (a sub-topic: of `topic` when given). */
  listed(type: EventListing, idOrName: number | string, topic?: number): Promise<number | undefined>;
}

/** What reading the records of an archive knows as it goes. */
export interface Context {
  sources: Sources;
  env: PlanEnv;
  zone: string;
  /** Old ids of the records planned so far, by file. */
  planned: Map<string, Set<string>>;
  /** Lengths (minutes) of the sessions of each session type, by the type's old id. */
  sessionLengths?: Map<string, number[]>;
}

/** The attributes an import may set on a resource: writable ones with a column. */
export const writable = (model: Model) =>
  Object.entries(model.spec.attributes).filter(([, a]) => !a.readOnly && !a.writeOnly && a.column) as [
    string,
    AttributeSpec,
  ][];

/** A warning about a record of a source file. */
export const warnAbout =
  (env: PlanEnv, source: SourceFile, record: SourceRecord) =>
  (input: Omit<WarningInput, 'file' | 'id'>, strictAccepts = false) =>
    env.warnings.add({ file: record.from ?? source.entry, id: record.id, ...input }, { strictAccepts });

export type Warn = ReturnType<typeof warnAbout>;
