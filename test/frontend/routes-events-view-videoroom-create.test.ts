/**
 * open-event-frontend:app/routes/events/view/videoroom/create.js:35-39 makes
 * `createRecord('video-stream', {name: room?.name || event?.name, rooms: [room].filter(Boolean), event})`: a stream
 * of one room (`?room=`) or the event's own stream (`?event=`). The form (app/components/forms/events/view/videoroom-form.js:
 * 249-250, 285, 305) sets `url` and `extra`, the organizer types a password and notes, and `stream.save()` (line 472) sends
 * the untyped attrs that were set (app/models/video-stream.ts:29-37; unset ones are undefined and left out) with `rooms`
 * and `event` (app/serializers/video-stream.ts:4-7), `rooms` dropped when empty (lines 12-16) and `event` only when set
 * (app/serializers/application.js:30-35).
 */
import t from 'tap';
import { buildTestApp } from '../helpers/app.js';
import { createCast, createEvent, fillEvent } from '../helpers/events.js';
import { frontEnd, listening } from '../helpers/front-end-client.js';

const { app } = await buildTestApp(t);
const base = await listening(app);
const cast = await createCast(app);
const { id: event } = await createEvent(app, cast, 'Video Conf', 'published');
const records = await fillEvent(app, cast, event);
const organizer = frontEnd(base, cast.organizer.token);

t.test('a stream of one room, with Jitsi options (videoroom/create?room=)', async (t) => {
  const body = {
    data: {
      type: 'video-stream',
      attributes: {
        name: 'Room 1',
        url: 'https://meet.example.org/eventyay/video-conf-stream-ab12',
        password: 'letmein',
        'additional-information': 'Dial-in: +49 30 1234',
        extra: { jitsi_options: { muteOnStart: true, hideCamOnStart: false } },
      },
      relationships: { rooms: { data: [{ type: 'microlocation', id: records.microlocation }] } },
    },
  };
  const res = await organizer.adapter('POST', '/v1/video-streams', { body });
  t.equal(res.status, 201);
  const id = res.body.data.id;
  t.match(res.body.data.attributes, {
    name: 'Room 1',
    password: 'letmein',
    extra: { jitsi_options: { muteOnStart: true, hideCamOnStart: false } },
    'is-chat-enabled': false,
    'is-global-event-room': false,
    'chat-room-name': `Room-1-${id}`,
  });
  t.equal(res.body.data.relationships.event.data, null, "a stream of rooms is not the event's own");
  // The room list (app/routes/events/view/videoroom/list.js:28-38) reads each room's stream.
  const rooms = await organizer.adapter('GET', `/v1/events/${event}/microlocations`, {
    query: { include: 'video-stream', 'page[size]': 25, 'page[number]': 1 },
  });
  const room = rooms.body.data.find((r: { id: string }) => r.id === records.microlocation);
  t.strictSame(room.relationships['video-stream'].data, { type: 'video-stream', id });
  const linked = await organizer.adapter('GET', `/v1/video-streams/${id}/rooms`);
  t.strictSame(
    linked.body.data.map((r: { id: string }) => r.id),
    [records.microlocation],
  );
  // The edit form saves the record as read back (the read-only chat-room-name unchanged), moving nothing.
  const saved = await organizer.adapter('PATCH', `/v1/video-streams/${id}`, {
    body: {
      data: {
        id,
        type: 'video-stream',
        attributes: { ...res.body.data.attributes, name: 'Room 1 live' },
        relationships: body.data.relationships,
      },
    },
  });
  t.equal(saved.status, 200);
  t.equal(saved.body.data.attributes.name, 'Room 1 live');
  // A YouTube stream (videoroom-form.js:305): autoplay and loop.
  const youtube = await organizer.adapter('PATCH', `/v1/video-streams/${id}`, {
    body: {
      data: {
        id,
        type: 'video-stream',
        attributes: { url: 'https://www.youtube.com/watch?v=abc', extra: { autoplay: true, loop: false } },
      },
    },
  });
  t.match(youtube.body.data.attributes.extra, { autoplay: true, loop: false });
});

t.test("the event's own stream (videoroom/create?event=): rooms left out, the event named", async (t) => {
  const res = await organizer.adapter('POST', '/v1/video-streams', {
    body: {
      data: {
        type: 'video-stream',
        attributes: {
          name: 'Video Conf',
          url: 'https://meet.example.org/b/video-conf',
          extra: {
            bbb_options: { record: true, autoStartRecording: false, muteOnStart: true, endCurrentMeeting: false },
          },
        },
        relationships: { event: { data: { type: 'event', id: event } } },
      },
    },
  });
  t.equal(res.status, 201);
  const shown = await frontEnd(base).adapter('GET', `/v1/events/${event}`, { query: { include: 'video-stream' } });
  t.strictSame(shown.body.data.relationships['video-stream'].data, { type: 'video-stream', id: res.body.data.id });
});

t.test('a signed-in stranger creates no stream; deleting a stream frees its rooms', async (t) => {
  const stranger = frontEnd(base, cast.other.token);
  const res = await stranger.adapter('POST', '/v1/video-streams', {
    body: {
      data: {
        type: 'video-stream',
        attributes: { name: 'Mine', url: 'https://meet.example.org/mine' },
        relationships: { rooms: { data: [{ type: 'microlocation', id: records.microlocation }] } },
      },
    },
  });
  t.equal(res.status, 403);
  const streams = await organizer.adapter('GET', '/v1/video-streams', { query: { 'page[size]': 0 } });
  t.equal(streams.body.meta.count, 2, "the room's stream and the event's own");
  t.ok(
    streams.body.data.every((s: { attributes: Record<string, unknown> }) => typeof s.attributes.url === 'string'),
    'an organizer sees the urls in lists too',
  );
  const ofRoom = await organizer.adapter('GET', `/v1/microlocations/${records.microlocation}/video-stream`);
  const gone = await organizer.adapter('DELETE', `/v1/video-streams/${ofRoom.body.data.id}`);
  t.equal(gone.status, 200);
  const room = await organizer.adapter('GET', `/v1/microlocations/${records.microlocation}`);
  t.equal(room.body.data.relationships['video-stream'].data, null, 'the room streams nowhere now');
});
