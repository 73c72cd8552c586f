import { extname } from 'node:path';
import AdmZip from 'adm-zip';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import mime from 'mime-types';
import { speakersSessions } from '../../db/schema/index.js';
import { safeFetch, type FetchLimits } from '../net/safe-fetch.js';
import { FILES, FORMAT_VERSION, linksOf, modelOf, ordered, snake, type MediaFlag } from './format.js';

export type MediaFlags = Record<MediaFlag, boolean>;

type Row = Record<string, unknown>;

const plain = (value: unknown) => (value instanceof Date ? value.toISOString() : value);

/**
 * A record as the archive holds it: snake_case fields (stored ones), relationships as `<name>_id`. A reference to a
 * record of the event that is not in the archive (deleted) is null, as the API shows it.
 */
function recordOf(type: string, row: Row, exported: Map<string, Set<unknown>>): Row {
  const model = modelOf(type);
  const record: Row = { id: row.id };
  // Computed attributes (an event's schedule URLs) are this server's view of the record, not part of it: left out.
  const computed = new Set(model.computed.map(([key]) => key));
  for (const [wire, key] of model.readable) if (!computed.has(key)) record[snake(wire)] = plain(row[key]);
  for (const link of linksOf(model)) {
    const id = row[link.column] ?? null;
    record[link.field] = link.file && !exported.get(link.file)?.has(id) ? null : id;
  }
  return record;
}

/** Bytes of a media URL: our own storage read directly, anything else through the SSRF-safe fetch. */
async function mediaBytes(app: FastifyInstance, url: string, limits: FetchLimits) {
  const located = await app.storage.locate(url);
  if (located) return { body: await located.backend.read(located.key, limits.maxBytes), contentType: undefined };
  return safeFetch(url, limits);
}

/**
 * The export archive of an event: one JSON file per resource (fields in the fixed order, then
 * alphabetically), `meta.json`, and with a flag set the matching media files, their fields rewritten
 * to archive paths. A media file that cannot be fetched keeps its URL (the export does not fail).
 */
export async function buildExport(
  app: FastifyInstance,
  eventId: number,
  flags: MediaFlags,
  limits: FetchLimits & { rootUrl: string },
): Promise<Buffer> {
  const zip = new AdmZip();
  const exported = new Map<string, Set<unknown>>();
  for (const file of FILES) {
    const model = modelOf(file.type);
    const scope = file.name === 'event' ? eq(model.id, eventId) : eq(model.columns.eventId as PgColumn, eventId);
    const rows = (await app.db
      .select(model.selection)
      .from(model.table)
      .where(and(scope, model.live))
      .orderBy(asc(model.id))) as Row[];
    const records = rows.map((row) => recordOf(file.type, row, exported));
    exported.set(file.name, new Set(records.map((r) => r.id)));
    if (file.name === 'sessions' && records.length > 0) {
      const links = await app.db
        .select()
        .from(speakersSessions)
        .where(
          inArray(
            speakersSessions.sessionId,
            records.map((r) => r.id as number),
          ),
        )
        .orderBy(asc(speakersSessions.speakerId));
      const speakers = exported.get('speakers')!;
      for (const record of records) {
        record.speaker_ids = links
          .filter((l) => l.sessionId === record.id && speakers.has(l.speakerId))
          .map((l) => l.speakerId);
      }
    }
    for (const record of records) {
      for (const { field, flag, folder } of file.media) {
        const url = record[field];
        if (!flags[flag] || typeof url !== 'string') continue;
        const fetched = await mediaBytes(app, url, limits).catch((err: unknown) => {
          app.log.warn({ err, url }, 'export: media file not fetched');
          return undefined;
        });
        if (!fetched) continue;
        const ext =
          extname(new URL(url).pathname)
            .replace(/[^A-Za-z0-9.]/g, '')
            .slice(0, 10) || `.${mime.extension(fetched.contentType ?? '') || 'bin'}`;
        const path = `${folder}/${file.name === 'event' ? field.replace(/_url$/, '') : `${file.type}_${record.id}_${field.replace(/_url$/, '')}`}${ext}`;
        zip.addFile(path, fetched.body);
        record[field] = path;
      }
    }
    if (file.name === 'event') {
      if (!records[0]) throw new Error(`event ${eventId} does not exist`);
      zip.addFile('event.json', Buffer.from(JSON.stringify(ordered(records[0], file.order), null, 2)));
    } else {
      zip.addFile(
        `${file.name}.json`,
        Buffer.from(
          JSON.stringify(
            records.map((r) => ordered(r, file.order)),
            null,
            2,
          ),
        ),
      );
    }
  }
  const meta = {
    root_url: limits.rootUrl,
    exported_at: new Date().toISOString(),
    format_version: FORMAT_VERSION,
    media: flags,
  };
  zip.addFile('meta.json', Buffer.from(JSON.stringify(meta, null, 2)));
  return zip.toBuffer();
}
