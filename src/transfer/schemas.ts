/** The request and answer schemas of the export, import and task routes (src/transfer/routes.ts). */
import { Type, type TObject } from '@sinclair/typebox';
import { SESSION_STATES } from '../resources/sessions/states.js';
import type { Format } from '../schedule/documents.js';
import { WARNINGS_KEPT } from './repairs/warnings.js';

export const ExportRequest = Type.Object(
  {
    image: Type.Optional(
      Type.Boolean({ description: 'include images (logo, event image, speaker photos, sponsor logos)' }),
    ),
    video: Type.Optional(Type.Boolean({ description: 'include session videos' })),
    audio: Type.Optional(Type.Boolean({ description: 'include session audio' })),
    document: Type.Optional(Type.Boolean({ description: 'include session slides' })),
  },
  { $id: 'ExportRequest', additionalProperties: false },
);
/** The body of a CSV export that filters by state, as the reference's newer front end posts it (`{"status"}`). */
const csvRequest = ($id: string, states: string[], description: string) =>
  Type.Object(
    {
      status: Type.Optional(
        Type.Union(
          ['all', ...states].map((state) => Type.Literal(state)),
          { description },
        ),
      ),
    },
    { $id, additionalProperties: false },
  );
export const SessionsCsvRequest = csvRequest(
  'SessionsCsvRequest',
  [...SESSION_STATES],
  'only the sessions in this state',
);
export const SpeakersCsvRequest = csvRequest(
  'SpeakersCsvRequest',
  [...SESSION_STATES, 'without_session'],
  'only the speakers of a session in this state, or of none (`without_session`)',
);
/** The CSV exports whose POST takes such a body. */
export const CSV_REQUESTS: Record<string, TObject> = {
  sessions: SessionsCsvRequest,
  speakers: SpeakersCsvRequest,
};
/** The schedule exports the reference offers, and the document (src/schedule) each is. */
export const SCHEDULE_EXPORTS: Record<'ical' | 'xcal' | 'pentabarf', Format> = {
  ical: 'ics',
  xcal: 'xcal',
  pentabarf: 'xml',
};
export type ScheduleExport = keyof typeof SCHEDULE_EXPORTS;
export const ImportRequest = Type.Object(
  { file: Type.String({ format: 'binary', description: 'the zip archive' }) },
  // Streamed by the handler, never parsed into a body: the schema documents the form only.
  { $id: 'ImportRequest', 'x-streamed': true },
);
export const TaskStarted = Type.Object(
  { task_url: Type.String({ description: 'poll it for the state and the result' }) },
  { $id: 'TaskStarted', additionalProperties: false },
);
export const ImportQuery = Type.Object(
  {
    strict: Type.Optional(
      Type.Boolean({
        default: false,
        description:
          '`true` refuses the archive at its first problem (the task ends FAILURE with it) instead of repairing it or ' +
          'leaving out what cannot be read; fields this service has no place for are still only warned',
      }),
    ),
  },
  { additionalProperties: false },
);
export const ImportWarning = Type.Object(
  {
    file: Type.String({ description: 'the file of the archive, as named there (`sessions`, `forms`, `tracks.json`)' }),
    id: Type.Union([Type.String(), Type.Number(), Type.Null()], {
      description: 'the id of the record in the archive; null for a whole file',
    }),
    field: Type.Union([Type.String(), Type.Null()], {
      description: 'the field as named in the archive; null for a whole record or file',
    }),
    value: Type.Unknown({ description: 'the value as found (texts over 200 characters cut); null when there is none' }),
    action: Type.String({
      description: 'what was done: the value as read, or why it was left out, or why the record was dropped',
    }),
  },
  { $id: 'ImportWarning', additionalProperties: false, description: 'one repair or omission of an import' },
);
const ImportWarnings = Type.Object(
  {
    total: Type.Integer({ minimum: 0, description: 'how many warnings the import gave' }),
    items: Type.Array(Type.Ref(ImportWarning), {
      maxItems: WARNINGS_KEPT,
      description: `the first ${WARNINGS_KEPT}, in the order they arose`,
    }),
  },
  {
    description: 'what the import repaired or did not carry over (absent on imports finished before warnings existed)',
  },
);

export const TaskDocument = Type.Object(
  {
    state: Type.Union(
      ['WAITING', 'SUCCESS', 'FAILED', 'FAILURE'].map((s) => Type.Literal(s)),
      {
        description: 'WAITING while it runs; SUCCESS; FAILED (export, app build) or FAILURE (import)',
      },
    ),
    status: Type.Union([Type.String(), Type.Null()], {
      description: 'progress while waiting, e.g. `Importing sessions (9/9)`',
    }),
    result: Type.Union(
      [
        Type.Object({ download_url: Type.String() }, { description: 'a finished export or app build' }),
        Type.Object(
          { event_name: Type.String(), id: Type.String(), url: Type.String(), warnings: Type.Optional(ImportWarnings) },
          { description: 'a finished import' },
        ),
        Type.Object({ __error: Type.Literal(true), message: Type.String() }, { description: 'a failed task' }),
        Type.Null(),
      ],
      { description: 'null while waiting' },
    ),
  },
  { $id: 'TaskDocument', additionalProperties: false },
);
