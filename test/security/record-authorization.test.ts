/**
 * Holes of the reference event server that must stay absent here, each on a published and on a draft
 * event: a user whose e-mail equals a speaker's may not change that speaker; `get_trashed` reveals
 * nothing to anyone but administrators and `permanent` destroys nothing; the owner of another event (#2697) can neither change nor
 * delete an event's sessions, speakers and tracks, nor move records of their own into that event or
 * link them to its records. Every refusal leaves the tables as they were.
 */
import t from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import {
  buildWorld,
  create,
  eventAttributes,
  expectCell,
  rel,
  snapshotOf,
  type EventRecords,
} from '../helpers/events.js';
import { expectError, seedUser } from '../helpers/users.js';

const { app } = await buildTestApp(t);
const world = await buildWorld(app);
const { owner, admin } = world.cast;
const STATES = ['published', 'draft'] as const;
/** What a caller without a role in the event gets: 403, or 404 where the event is a draft they cannot see. */
const refusal = (state: (typeof STATES)[number]) => (state === 'draft' ? 404 : 403);
const records = snapshotOf(app, ['events', 'sessions', 'speakers', 'tracks', 'speakers_sessions']);

t.test('a user whose e-mail is the e-mail of a speaker may neither change nor delete that speaker', async (t) => {
  const namesake = await seedUser(app);
  for (const state of STATES) {
    const event = world[state].event;
    // The speaker carries the user's address but is linked to no user: only an e-mail rule would let them in.
    const speaker = await create(
      app,
      owner.token,
      'speakers',
      'speaker',
      { name: 'Namesake', email: namesake.email },
      { event: rel('event', event) },
    );
    const read = await call(app, { url: `/v1/speakers/${speaker}`, token: admin.token });
    t.equal(read.body.data.attributes.email, namesake.email, `${state}: the speaker's e-mail is the user's`);
    t.equal(read.body.data.relationships.user.data, null, `${state}: and no user is linked`);

    const before = await records();
    const label = (what: string) => `${what} /v1/speakers/{id} [${state}] by a user with the speaker's e-mail`;
    const patch = await call(app, {
      method: 'PATCH',
      url: `/v1/speakers/${speaker}`,
      token: namesake.token,
      body: { data: { type: 'speaker', id: speaker, attributes: { name: 'Hijacked', email: 'attacker@example.org' } } },
    });
    expectCell(t, patch, refusal(state), label('PATCH'));
    expectCell(
      t,
      await call(app, { method: 'DELETE', url: `/v1/speakers/${speaker}`, token: namesake.token }),
      refusal(state),
      label('DELETE'),
    );
    const link = await call(app, {
      method: 'PATCH',
      url: `/v1/speakers/${speaker}/relationships/user`,
      token: namesake.token,
      body: { data: { type: 'user', id: namesake.id } },
    });
    expectCell(t, link, refusal(state), label('PATCH relationships/user of'));
    t.same(await records(), before, `${state}: nothing changed`);
  }
});

t.test(
  'get_trashed and permanent: deleted records stay hidden from all but administrators and are never destroyed',
  async (t) => {
    // One record of each kind deleted by its owner, for the admin and the owner to go looking for.
    const gone = await create(app, owner.token, 'events', 'event', eventAttributes('Deleted Summit'));
    const of = { event: rel('event', world.published.event) };
    const goneSession = await create(app, owner.token, 'sessions', 'session', { title: 'Deleted talk' }, of);
    const goneSpeaker = await create(app, owner.token, 'speakers', 'speaker', { name: 'Deleted speaker' }, of);
    for (const url of [`/v1/events/${gone}`, `/v1/sessions/${goneSession}`, `/v1/speakers/${goneSpeaker}`]) {
      const res = await call(app, { method: 'DELETE', url, token: owner.token });
      t.equal(res.status, 200, `DELETE ${url}`);
    }
    const deleted: Record<string, string> = { events: gone, sessions: goneSession, speakers: goneSpeaker };

    for (const [path, id] of Object.entries(deleted)) {
      // The reference answered get_trashed to anyone; here the owner is refused, even for the event's own records.
      for (const url of [`/v1/${path}?get_trashed=true`, `/v1/${path}/${id}?get_trashed=true`]) {
        expectError(t, await call(app, { url, token: owner.token }), 403, { parameter: 'get_trashed' });
        expectError(t, await call(app, { url }), 401);
        expectError(t, await call(app, { url: url.replace('true', '1'), token: admin.token }), 400, {
          parameter: 'get_trashed',
        });
      }
      const trashed = await call(app, { url: `/v1/${path}/${id}?get_trashed=true`, token: admin.token });
      t.equal(trashed.status, 200, `${path}: the administrator reads the deleted record with get_trashed`);
      t.type(trashed.body.data.attributes['deleted-at'], 'string', `${path}: deleted-at set`);
      for (const caller of [owner, admin]) {
        const who = caller === admin ? 'admin' : 'owner';
        const list = await call(app, { url: `/v1/${path}?page[size]=100`, token: caller.token });
        t.equal(list.status, 200);
        t.notOk(
          list.body.data.some((r: { id: string }) => r.id === id),
          `${path}: the deleted record is not listed for the ${who}`,
        );
        t.equal(
          (await call(app, { url: `/v1/${path}/${id}`, token: caller.token })).status,
          404,
          `${path}: the deleted record is 404 for the ${who}`,
        );
      }
    }

    // DELETE takes no query parameters: `permanent` is not one, so the delete is the soft one it always is.
    const survivors: Record<string, string> = {
      events: await create(app, owner.token, 'events', 'event', eventAttributes('Short-lived Summit')),
      sessions: await create(app, owner.token, 'sessions', 'session', { title: 'Short-lived talk' }, of),
      speakers: await create(app, owner.token, 'speakers', 'speaker', { name: 'Short-lived speaker' }, of),
    };
    for (const [path, id] of Object.entries(survivors)) {
      const res = await call(app, { method: 'DELETE', url: `/v1/${path}/${id}?permanent=true`, token: admin.token });
      t.equal(res.status, 200, `DELETE /v1/${path}/{id}?permanent=true`);
      t.equal(
        (await call(app, { url: `/v1/${path}/${id}`, token: admin.token })).status,
        404,
        `${path}: gone from reads`,
      );
    }
    const rows = await app.sql<{ kind: string; id: number; deleted: boolean }[]>`
    select 'events' as kind, id, deleted_at is not null as deleted from events where id in ${app.sql([gone, survivors.events!].map(Number))}
    union all select 'sessions', id, deleted_at is not null from sessions where id in ${app.sql([goneSession, survivors.sessions!].map(Number))}
    union all select 'speakers', id, deleted_at is not null from speakers where id in ${app.sql([goneSpeaker, survivors.speakers!].map(Number))}
    order by 1, 2`;
    t.equal(rows.length, 6, 'every deleted row is still in its table');
    t.ok(
      rows.every((r) => r.deleted),
      'each with deleted_at set',
    );
  },
);

t.test(
  'the owner of another event can neither change, delete, move into nor link to the records of an event (#2697)',
  async (t) => {
    const intruder = await seedUser(app);
    const own = await create(app, intruder.token, 'events', 'event', eventAttributes('Intruder Con'));
    const of = { event: rel('event', own) };
    const ownTrack = await create(app, intruder.token, 'tracks', 'track', { name: 'Mine', color: '#112233' }, of);
    const ownSpeaker = await create(app, intruder.token, 'speakers', 'speaker', { name: 'Mallory' }, of);
    const ownSession = await create(app, intruder.token, 'sessions', 'session', { title: 'My talk' }, of);
    const mine: Record<string, string> = { sessions: ownSession, speakers: ownSpeaker, tracks: ownTrack };
    const KINDS: [string, string, keyof EventRecords, string][] = [
      ['sessions', 'session', 'session', 'title'],
      ['speakers', 'speaker', 'speaker', 'name'],
      ['tracks', 'track', 'track', 'name'],
    ];

    for (const state of STATES) {
      const r = world[state];
      const before = await records();
      const label = (what: string) => `${what} [${state}] by the owner of another event`;
      for (const [path, type, key, renames] of KINDS) {
        const id = r[key];
        const patch = await call(app, {
          method: 'PATCH',
          url: `/v1/${path}/${id}`,
          token: intruder.token,
          body: { data: { type, id, attributes: { [renames]: 'Taken over' } } },
        });
        expectCell(t, patch, refusal(state), label(`PATCH /v1/${path}/{id}`));
        expectCell(
          t,
          await call(app, { method: 'DELETE', url: `/v1/${path}/${id}`, token: intruder.token }),
          refusal(state),
          label(`DELETE /v1/${path}/{id}`),
        );

        // Their own record, moved into the event: a record never changes events, whoever asks.
        const moved = await call(app, {
          method: 'PATCH',
          url: `/v1/${path}/${mine[path]}`,
          token: intruder.token,
          body: { data: { type, id: mine[path], relationships: { event: rel('event', r.event) } } },
        });
        expectError(t, moved, 422, { pointer: '/data/relationships/event' });
        const movedByRelationship = await call(app, {
          method: 'PATCH',
          url: `/v1/${path}/${mine[path]}/relationships/event`,
          token: intruder.token,
          body: { data: { type: 'event', id: r.event } },
        });
        t.equal(movedByRelationship.status, 422, label(`PATCH /v1/${path}/{own id}/relationships/event -> 422`));
      }

      // Their own records, linked to the event's: a link names only records of the record's own event.
      // A record of a published event is named but not theirs to link (422); a draft's is not even found (404).
      const links: [string, string, unknown][] = [
        ['PATCH', `/v1/sessions/${ownSession}/relationships/track`, { data: { type: 'track', id: r.track } }],
        ['POST', `/v1/sessions/${ownSession}/relationships/speakers`, { data: [{ type: 'speaker', id: r.speaker }] }],
        ['POST', `/v1/speakers/${ownSpeaker}/relationships/sessions`, { data: [{ type: 'session', id: r.session }] }],
        ['PATCH', `/v1/speakers/${ownSpeaker}/relationships/sessions`, { data: [{ type: 'session', id: r.session }] }],
      ];
      for (const [method, url, body] of links) {
        const res = await call(app, { method: method as 'POST' | 'PATCH', url, token: intruder.token, body });
        const route = url.replace(/^\/v1\/(\w+)\/\d+/, '/v1/$1/{own id}');
        expectCell(t, res, state === 'draft' ? 404 : 422, label(`${method} ${route} to a record of the event`));
      }
      t.same(await records(), before, `${state}: nothing changed`);
    }

    // The same requests on their own event's records succeed: the refusals above come from the event, not the request.
    const fine = await call(app, {
      method: 'PATCH',
      url: `/v1/sessions/${ownSession}`,
      token: intruder.token,
      body: {
        data: {
          type: 'session',
          id: ownSession,
          attributes: { title: 'Still mine' },
          relationships: { track: rel('track', ownTrack) },
        },
      },
    });
    t.equal(fine.status, 200, 'their own session can be changed');
    t.equal(
      (await call(app, { method: 'DELETE', url: `/v1/speakers/${ownSpeaker}`, token: intruder.token })).status,
      200,
      'their own speaker can be deleted',
    );
  },
);
