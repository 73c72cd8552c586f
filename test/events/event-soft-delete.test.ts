/** DELETE /v1/events/{id}: the event and every record under it vanish from every read; nothing else does. */
import t from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import { buildWorld, createEvent, fillEvent } from '../helpers/events.js';
import { expectError } from '../helpers/users.js';

const { app } = await buildTestApp(t);
const world = await buildWorld(app);
const { cast } = world;
const pub = world.published;
const ids = (res: { body: { data: { id: string }[] } }) =>
  res.body.data.map((d) => d.id).sort((a, b) => Number(a) - Number(b));

t.test('a deleted event and all its records vanish from every read; nothing else does', async (t) => {
  const token = cast.owner.token;
  const gone = await createEvent(app, cast, 'Doomed', 'published', world.topic);
  const records = await fillEvent(app, cast, gone.id);
  const del = await call(app, { method: 'DELETE', url: `/v1/events/${gone.id}`, token });
  t.equal(del.status, 200);

  for (const who of [cast.owner.token, cast.admin.token, undefined]) {
    t.equal((await call(app, { url: `/v1/events/${gone.id}`, token: who })).status, 404, 'event detail');
    t.equal((await call(app, { url: `/v1/events/${gone.identifier}`, token: who })).status, 404, 'by identifier');
    t.equal((await call(app, { url: `/v1/events/${gone.id}/sessions`, token: who })).status, 404, 'its lists');
  }
  const paths: [string, string][] = [
    ['event-copyrights', records.copyright],
    ['social-links', records.socialLink],
    ['microlocations', records.microlocation],
    ['sponsors', records.sponsor],
    ['tracks', records.track],
    ['session-types', records.sessionType],
    ['sessions', records.session],
    ['speakers', records.speaker],
    ['custom-forms', records.customForm],
  ];
  for (const [path, id] of paths) {
    expectError(t, await call(app, { url: `/v1/${path}/${id}`, token: cast.admin.token }), 404, {
      detail: 'Object not found.',
    });
    const list = await call(app, { url: `/v1/${path}?page[size]=100`, token: cast.admin.token });
    t.notOk(ids(list).includes(id), `${path}: gone from the list`);
  }
  const events = await call(app, { url: '/v1/events?page[size]=100', token: cast.admin.token });
  t.notOk(ids(events).includes(gone.id), 'gone from /v1/events');
  const topicEvents = await call(app, { url: `/v1/event-topics/${world.topic}/events`, token: cast.admin.token });
  t.same(ids(topicEvents), [pub.event, world.draft.event], "gone from the topic's events");
  const topic = await call(app, { url: `/v1/event-topics/${world.topic}?include=events`, token: cast.admin.token });
  t.same(
    topic.body.included.map((r: { id: string }) => r.id).sort(),
    [pub.event, world.draft.event].sort(),
    'and from includes',
  );
  const mine = await call(app, { url: `/v1/users/${cast.speaker.id}/speakers`, token: cast.admin.token });
  t.same(ids(mine), [pub.speaker, world.draft.speaker], "the speaker's user keeps only live speakers");
  const included = await call(app, { url: `/v1/users/${cast.speaker.id}?include=speakers`, token: cast.admin.token });
  t.notOk(
    included.body.included.some((r: { id: string }) => r.id === records.speaker),
    'nor includes them',
  );
  const created = await call(app, { url: `/v1/users/${cast.owner.id}/sessions?page[size]=100`, token });
  t.notOk(ids(created).includes(records.session), "gone from the creator's sessions");

  t.equal(
    (await call(app, { method: 'DELETE', url: `/v1/events/${gone.id}`, token })).status,
    404,
    'deleting twice: 404',
  );
  const late = await call(app, {
    method: 'POST',
    url: '/v1/tracks',
    token,
    body: {
      data: {
        type: 'track',
        attributes: { name: 'Late', color: '#000000' },
        relationships: { event: { data: { type: 'event', id: gone.id } } },
      },
    },
  });
  expectError(t, late, 404, { detail: `Related event "${gone.id}" not found` });
  const edit = await call(app, {
    method: 'PATCH',
    url: `/v1/tracks/${records.track}`,
    token,
    body: { data: { type: 'track', id: records.track, attributes: { name: 'Revived' } } },
  });
  expectError(t, edit, 404, { detail: 'Object not found.' });
  const [row] = await app.sql<
    { deleted_at: Date | null }[]
  >`select deleted_at from events where id = ${Number(gone.id)}`;
  t.ok(row?.deleted_at, 'the event row is kept, marked deleted');
  const [{ n }] = await app.sql<
    { n: number }[]
  >`select count(*)::int as n from sessions where event_id = ${Number(gone.id)}`;
  t.equal(n, 1, 'its records are kept');

  const event = await call(app, { url: `/v1/events/${pub.event}?include=sessions,speakers,tracks`, token: undefined });
  t.equal(event.status, 200, 'the other events are untouched');
  t.same(event.body.included.map((r: { id: string }) => r.id).sort(), [pub.session, pub.speaker, pub.track].sort());
  for (const user of [cast.owner, cast.speaker, cast.organizer])
    t.equal((await call(app, { url: `/v1/users/${user.id}`, token: user.token })).status, 200, 'the users stay');
});
