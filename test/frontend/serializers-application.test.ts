/**
 * open-event-frontend:app/serializers/application.js: every save sends every attribute the model
 * declares (only front-end readOnly ones are left out, lines 16-21), changed or not, with unset
 * values as null (open-event-frontend:app/transforms/moment.js:12-17 for dates; strings alike), and
 * every belongsTo that is set (lines 30-35), the event by its numeric id
 * (open-event-frontend:app/mixins/event-relation.js:8-21). A track (open-event-frontend:app/models/track.js)
 * declares name, color, description, fontColor and position: `font-color` is read-only here, derived
 * from the colour, so each save sends it back as it was read.
 */
import t from 'tap';
import { buildTestApp } from '../helpers/app.js';
import { createCast, createEvent, fillEvent } from '../helpers/events.js';
import { frontEnd, listening } from '../helpers/front-end-client.js';

const { app } = await buildTestApp(t);
const base = await listening(app);
const cast = await createCast(app);
const { id: event, identifier } = await createEvent(app, cast, 'Serializer Conf', 'published');
const { track } = await fillEvent(app, cast, event);
const organizer = frontEnd(base, cast.organizer.token);

/** The track as the dashboard loads it: the event's tracks, all of them (open-event-frontend:app/routes/events/view/index.js:27). */
async function loadTrack() {
  const shown = await organizer.adapter('GET', `/v1/events/${identifier}`);
  const tracks = await organizer.adapter(
    'GET',
    new URL(shown.body.data.relationships.tracks.links.related, base).pathname,
    { query: { 'page[size]': 0 } },
  );
  return tracks.body.data.find((r: { id: string }) => r.id === track);
}

/** The serializer's document for a track: every declared attribute in model order, and its event. */
const serialized = (
  id: string | undefined,
  a: { name: string; color: string; description: string | null; fontColor: string | null; position: number },
) => ({
  data: {
    ...(id ? { id } : {}),
    attributes: {
      name: a.name,
      color: a.color,
      description: a.description,
      'font-color': a.fontColor,
      position: a.position,
    },
    relationships: { event: { data: { type: 'event', id: event } } },
    type: 'track',
  },
});

t.test(
  'a full-attribute PATCH carrying font-color as read saves the changes, and the server derives font-color again',
  async (t) => {
    const read = await loadTrack();
    t.strictSame(read.attributes, {
      name: 'Web',
      color: '#a04b23',
      'font-color': '#ffffff',
      description: null,
      position: 0,
      'deleted-at': null,
    });
    // The organizer renames the track and picks a light colour; the model still holds the font colour it read.
    const edited = {
      name: 'Web & Mobile',
      color: '#ffee88',
      description: null,
      fontColor: read.attributes['font-color'],
      position: 0,
    };
    const res = await organizer.adapter('PATCH', `/v1/tracks/${track}`, { body: serialized(track, edited) });
    t.equal(res.status, 200);
    t.match(res.body.data.attributes, { name: 'Web & Mobile', color: '#ffee88', 'font-color': '#000000' });
    const again = await loadTrack();
    t.equal(again.attributes['font-color'], '#000000', 'derived from the new colour');
  },
);

t.test('a PATCH that changes font-color is refused, pointing at it, and nothing is written', async (t) => {
  const before = await loadTrack();
  const edited = {
    name: 'Renamed',
    color: before.attributes.color,
    description: 'new',
    fontColor: '#123456',
    position: 1,
  };
  const res = await organizer.adapter('PATCH', `/v1/tracks/${track}`, { body: serialized(track, edited) });
  t.equal(res.status, 422);
  t.match(res.body.errors, [
    {
      status: '422',
      source: { pointer: '/data/attributes/font-color' },
      detail: 'font-color is read-only: leave it out or send it back unchanged',
    },
  ]);
  t.strictSame(await loadTrack(), before);
});

t.test(
  'a new track sends font-color as null, and the server sets it (open-event-frontend:app/mixins/event-wizard.js:127)',
  async (t) => {
    // createRecord('track') (open-event-frontend:app/components/forms/wizard/sessions-speakers-step.js:342): color and
    // position from the model's defaults, the name typed in, the rest unset.
    const res = await organizer.adapter('POST', '/v1/tracks', {
      body: serialized(undefined, {
        name: 'Keynotes',
        color: '#1a2b3c',
        description: null,
        fontColor: null,
        position: 0,
      }),
    });
    t.equal(res.status, 201);
    t.match(res.body.data.attributes, { name: 'Keynotes', 'font-color': '#ffffff' });
    const chosen = await organizer.adapter('POST', '/v1/tracks', {
      body: serialized(undefined, {
        name: 'Mine',
        color: '#1a2b3c',
        description: null,
        fontColor: '#000000',
        position: 0,
      }),
    });
    t.equal(chosen.status, 422);
    t.match(chosen.body.errors[0], {
      source: { pointer: '/data/attributes/font-color' },
      detail: /read-only \(the server sets it\)/,
    });
  },
);
