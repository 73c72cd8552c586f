/**
 * The permission matrix, writes on the records of an event (copyright, social links, rooms, sponsors,
 * tracks, session types, sessions, speakers, custom forms) and their relationships: every such route
 * the app serves, for every caller, against the outcome written once in permission-matrix.ts. Each
 * cell that deletes acts on a record made for it alone.
 */
import t from 'tap';
import { appWithRoutes, checkCoverage, runMatrix, type Recipe } from './matrix.js';
import { buildMatrixWorld } from './matrix-world.js';
import { document, freshTargets, KINDS, linkage, newRecord, next, toOne, update } from './matrix-writes.js';

const { app, routes } = await appWithRoutes(t);
const ALIASES: Record<string, string> = {
  'event-copyrights': 'event-copyright',
  'speakers-calls': 'speakers-call',
  taxes: 'tax',
};

t.test('every write route on event records has an entry', async (t) => checkCoverage(t, routes, 'v1-records'));

t.test('write routes on event records x callers', async (t) => {
  const w = await buildMatrixWorld(app);
  const p = w.world.published;
  const { eventFor, fresh, removeFresh } = freshTargets(app, w);

  const perKind = Object.entries(KINDS).flatMap(([path, kind]): [string, Recipe][] => {
    const rename: Recipe = () => update(kind.type, w.ids[path]!, { [kind.renames]: `Renamed ${next()}` });
    return [
      [`POST /v1/${path}`, async () => newRecord(path, await eventFor(path))],
      [`PATCH /v1/${path}/{id}`, rename],
      [`DELETE /v1/${path}/{id}`, removeFresh(path)],
      // Records never move between events: naming the same event is the write an organizer can make.
      [`PATCH /v1/${path}/{id}/relationships/event`, () => toOne('event', p.event)],
      // The reference's singular paths of the same records.
      ...(ALIASES[path]
        ? ([
            [`PATCH /v1/${ALIASES[path]}/{id}`, rename],
            [`DELETE /v1/${ALIASES[path]}/{id}`, removeFresh(path, ALIASES[path])],
          ] as [string, Recipe][])
        : []),
    ];
  });
  const speaker = () => newRecord('speakers', p.event);

  const RECIPES: Record<string, Recipe> = {
    ...Object.fromEntries(perKind),
    'PATCH /v1/sessions/{id}/relationships/track': () => toOne('track', p.track),
    'PATCH /v1/sessions/{id}/relationships/microlocation': () => toOne('microlocation', p.microlocation),
    'PATCH /v1/sessions/{id}/relationships/session-type': () => toOne('session-type', p.sessionType),
    'PATCH /v1/sessions/{id}/relationships/speakers': () => linkage('speaker', p.speaker),
    'POST /v1/sessions/{id}/relationships/speakers': () => linkage('speaker', p.speaker),
    'DELETE /v1/sessions/{id}/relationships/speakers': async () => ({
      path: `/v1/sessions/${await fresh('sessions', { speakers: linkage('speaker', p.speaker).document })}/relationships/speakers`,
      ...linkage('speaker', p.speaker),
    }),
    'POST /v1/sessions/{id}/speakers': speaker,
    'PATCH /v1/tickets/{id}/relationships/ticket-tags': () => linkage('ticket-tag', w.ids['ticket-tags']!),
    'POST /v1/tickets/{id}/relationships/ticket-tags': () => linkage('ticket-tag', w.ids['ticket-tags']!),
    'DELETE /v1/tickets/{id}/relationships/ticket-tags': async () => ({
      path: `/v1/tickets/${await fresh('tickets')}/relationships/ticket-tags`,
      ...linkage('ticket-tag', w.ids['ticket-tags']!),
    }),
    'PATCH /v1/ticket-tags/{id}/relationships/tickets': () => linkage('ticket', w.ids.tickets!),
    'POST /v1/ticket-tags/{id}/relationships/tickets': () => linkage('ticket', w.ids.tickets!),
    'DELETE /v1/ticket-tags/{id}/relationships/tickets': async () => ({
      path: `/v1/ticket-tags/${await fresh('ticket-tags', { tickets: linkage('ticket', w.ids.tickets!).document })}/relationships/tickets`,
      ...linkage('ticket', w.ids.tickets!),
    }),
    'POST /v1/custom-forms/{id}/custom-form-options': () => document('custom-form-option', { value: `M ${next()}` }),
    'PATCH /v1/microlocations/{id}/relationships/video-stream': () => toOne('video-stream', w.stream),
    'PATCH /v1/speakers/{id}/relationships/user': () => toOne('user', w.world.cast.speaker.id),
    'PATCH /v1/speakers/{id}/relationships/sessions': () => linkage('session', p.session),
    'POST /v1/speakers/{id}/relationships/sessions': () => linkage('session', p.session),
    'DELETE /v1/speakers/{id}/relationships/sessions': async () => ({
      path: `/v1/speakers/${await fresh('speakers', { sessions: linkage('session', p.session).document })}/relationships/sessions`,
      ...linkage('session', p.session),
    }),
  };
  await runMatrix(t, app, 'v1-records', w.ids, w.tokens, RECIPES);
});
