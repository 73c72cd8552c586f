import AdmZip from 'adm-zip';
import type { FastifyInstance } from 'fastify';
import type { Test } from 'tap';
import type { ImportWarning } from '../../src/transfer/repairs/warnings.js';
import { call } from './app.js';
import { multipart } from './images.js';
import { taskAnswer } from './service.js';

/** An archive's entries by name: JSON values, or text and bytes written as they are. */
export type Entries = Record<string, unknown>;
/** Changes one entry before the archive is written (its method, attributes, ...). */
export type ZipTweak = (entry: AdmZip.IZipEntry) => void;
/** An archive's entries in order, each with an optional tweak: [name, content (as in Entries), tweak?]. */
export type EntryList = [name: string, content: unknown, tweak?: ZipTweak][];

/**
 * A zip of the entries (JSON values serialised; strings and buffers as they are). Names are written
 * verbatim: adm-zip's addFile would clean `..`, `/` and `\` and give a name ending in `/` a folder's
 * attributes, so every entry is added as a plain file under a placeholder name and then renamed.
 */
export function zipOf(entries: EntryList): Buffer;
export function zipOf(entries: Entries): Buffer;
export function zipOf(entries: Entries | EntryList): Buffer {
  const zip = new AdmZip();
  const list = Array.isArray(entries) ? entries : Object.entries(entries);
  for (const [i, [name, value, tweak]] of list.entries()) {
    zip.addFile(
      `entry${i}`,
      Buffer.isBuffer(value) ? value : Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)),
    );
    const entry = zip.getEntry(`entry${i}`)!;
    entry.entryName = name;
    tweak?.(entry);
  }
  return zip.toBuffer();
}

/** Sends an archive to `POST /v1/events/import/json` (with `query`, e.g. `?strict=true`); answers the task URL. */
export async function startImport(
  t: Test,
  app: FastifyInstance,
  token: string,
  zip: Buffer,
  query = '',
): Promise<string> {
  const { payload, headers } = multipart([['file', 'event.zip', zip]]);
  const res = await app.inject({
    method: 'POST',
    url: `/v1/events/import/json${query}`,
    payload,
    headers: { ...headers, authorization: `JWT ${token}` },
  });
  t.equal(res.statusCode, 200, 'the import is accepted');
  const body = res.json();
  t.match(body, { task_url: /^\/v1\/tasks\/[0-9a-f-]{36}$/ });
  t.strictSame(Object.keys(body), ['task_url'], 'the task URL only');
  return body.task_url as string;
}

export interface ImportResult {
  state: string;
  /** The new event's id (SUCCESS). */
  id: string;
  warnings: ImportWarning[];
  total: number;
  /** The failure message (FAILURE). */
  message?: string;
}

/** Imports the archive and waits for the task: its state, the new event and the warnings (or the failure message). */
export async function imported(
  t: Test,
  app: FastifyInstance,
  token: string,
  entries: Entries,
  query = '',
): Promise<ImportResult> {
  const res = await taskAnswer(app, await startImport(t, app, token, zipOf(entries), query), token);
  const { state, result } = res.body as {
    state: string;
    result: { id: string; message: string; warnings: { items: ImportWarning[]; total: number } };
  };
  if (state !== 'SUCCESS') return { state, id: '', warnings: [], total: 0, message: result.message };
  return { state, id: result.id, warnings: result.warnings.items, total: result.warnings.total };
}

export type Doc = {
  id: string;
  attributes: Record<string, unknown>;
  relationships: Record<string, { data?: unknown }>;
};

/** The event's records of one kind (and the included ones), read by `token`, in id order. */
export async function listOf(app: FastifyInstance, token: string, event: string, path: string, include = '') {
  const res = await call(app, {
    url: `/v1/events/${event}/${path}?sort=id&page[size]=100${include && `&include=${include}`}`,
    token,
  });
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return { data: res.body.data as Doc[], included: (res.body.included ?? []) as Doc[] };
}

/** Documents by an attribute (their name by default). */
export const byName = (docs: Doc[], field = 'name') =>
  Object.fromEntries(docs.map((d) => [d.attributes[field] as string, d]));

export const link = (type: string, id: string) => ({ type, id });

/** A warning as the task result lists it. */
export const warning = (
  file: string,
  id: string | number | null,
  field: string | null,
  value: unknown,
  action: string,
): ImportWarning => ({
  file,
  id,
  field,
  value,
  action,
});
