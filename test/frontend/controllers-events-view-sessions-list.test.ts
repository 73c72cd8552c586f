/**
 * The organizer dashboard's sessions list, open-event-frontend `app/routes/events/view/sessions/list.js:70-111`
 * and its rating column (`app/controllers/events/view/sessions/list.js:50-63,194-257`,
 * `templates/components/ui-table/cell/events/view/sessions/cell-rating.hbs`): sessions with
 * `include: 'speakers,feedbacks,session-type,track'`, the caller's feedbacks of the event
 * (`currentUser.query('feedbacks', {include: 'session', filter: session has event has identifier eq id})`),
 * then rating a session (`createRecord('feedback', {rating, session, comment: '', user})`), changing the
 * rating (`feedback.save()`) and clearing it (`feedback.destroyRecord()`).
 *
 * A feedback as ember-data serializes it: every attribute of `app/models/feedback.js:6-8` (`rating`,
 * default 0.0; `comment`; `deleted-at`, a moment: null when unset) and the belongsTo relationships that
 * are set (`user`, `event`, `session`, lines 10-12).
 */
import t from 'tap';
import { buildTestApp } from '../helpers/app.js';
import { buildWorld } from '../helpers/events.js';
import { frontEnd, listening } from '../helpers/front-end-client.js';

const { app } = await buildTestApp(t);
const world = await buildWorld(app);
const base = await listening(app);
const { event, identifier, session } = world.published;
const { organizer, coorganizer, other } = world.cast;

const sessionsList = (token: string) =>
  frontEnd(base, token).adapter('GET', `/v1/events/${identifier}/sessions`, {
    query: {
      include: 'speakers,feedbacks,session-type,track',
      filter: [],
      'page[size]': 25,
      'page[number]': 1,
      sort: '-submitted-at',
    },
  });
const myFeedbacks = (user: { id: string; token: string }) =>
  frontEnd(base, user.token).adapter('GET', `/v1/users/${user.id}/feedbacks`, {
    query: {
      include: 'session',
      filter: [
        {
          name: 'session',
          op: 'has',
          val: { name: 'event', op: 'has', val: { name: 'identifier', op: 'eq', val: identifier } },
        },
      ],
    },
  });
const feedbackBody = (user: string, rating: number, more: { id?: string; event?: string } = {}) => ({
  data: {
    type: 'feedback',
    ...(more.id ? { id: more.id } : {}),
    attributes: { rating, comment: '', 'deleted-at': null },
    relationships: {
      user: { data: { type: 'user', id: user } },
      session: { data: { type: 'session', id: session } },
      ...(more.event ? { event: { data: { type: 'event', id: more.event } } } : {}),
    },
  },
});
const averageOf = async () => {
  const res = await frontEnd(base, organizer.token).adapter('GET', `/v1/sessions/${session}`);
  return res.body.data.attributes['average-rating'] as number;
};

t.test('the list loads with its includes; nothing rated yet', async (t) => {
  const list = await sessionsList(organizer.token);
  t.equal(list.status, 200);
  const item = list.body.data.find((s: { id: string }) => s.id === session);
  t.same(item.relationships.feedbacks.data, []);
  t.equal(item.attributes['average-rating'], 0);
  const mine = await myFeedbacks(organizer);
  t.equal(mine.status, 200);
  t.same(mine.body.data, []);
});

t.test('rate, change the rating, a second organizer rates, clear', async (t) => {
  const created = await frontEnd(base, organizer.token).adapter('POST', '/v1/feedbacks', {
    body: feedbackBody(organizer.id, 5),
  });
  t.equal(created.status, 201, JSON.stringify(created.body));
  const fb = created.body.data;
  t.same(fb.relationships.event.data, { type: 'event', id: event }, "the session's event");
  t.equal(fb.attributes.rating, 5);
  t.equal(await averageOf(), 5);

  const mine = await myFeedbacks(organizer);
  t.same(
    mine.body.data.map((f: { id: string }) => f.id),
    [fb.id],
    "ratedSessions: the caller's feedbacks of the event",
  );
  t.ok(mine.body.included.some((r: { type: string; id: string }) => r.type === 'session' && r.id === session));
  const list = await sessionsList(organizer.token);
  const item = list.body.data.find((s: { id: string }) => s.id === session);
  t.same(item.relationships.feedbacks.data, [{ type: 'feedback', id: fb.id }]);
  t.ok(list.body.included.some((r: { type: string; id: string }) => r.type === 'feedback' && r.id === fb.id));

  // updateRating: the record as loaded, with the event linkage the response carried.
  const changed = await frontEnd(base, organizer.token).adapter('PATCH', `/v1/feedbacks/${fb.id}`, {
    body: feedbackBody(organizer.id, 4, { id: fb.id, event }),
  });
  t.equal(changed.status, 200, JSON.stringify(changed.body));
  t.equal(await averageOf(), 4);

  const second = await frontEnd(base, coorganizer.token).adapter('POST', '/v1/feedbacks', {
    body: feedbackBody(coorganizer.id, 2.8),
  });
  t.equal(second.status, 201);
  t.equal(second.body.data.attributes.rating, 3, 'rounded to a half');
  t.equal(await averageOf(), 3.5);
  const coList = await sessionsList(coorganizer.token);
  t.equal(
    coList.body.data.find((s: { id: string }) => s.id === session).relationships.feedbacks.data.length,
    2,
    "organizers see the event's feedback",
  );

  t.equal(
    (await frontEnd(base, organizer.token).adapter('POST', '/v1/feedbacks', { body: feedbackBody(organizer.id, 3) }))
      .status,
    409,
    'once per session',
  );
  t.equal(
    (
      await frontEnd(base, coorganizer.token).adapter('PATCH', `/v1/feedbacks/${fb.id}`, {
        body: feedbackBody(organizer.id, 1, { id: fb.id }),
      })
    ).status,
    403,
    "another's feedback",
  );

  const cleared = await frontEnd(base, organizer.token).adapter('DELETE', `/v1/feedbacks/${fb.id}`);
  t.equal(cleared.status, 200);
  t.equal(await averageOf(), 3);
  const again = await frontEnd(base, organizer.token).adapter('POST', '/v1/feedbacks', {
    body: feedbackBody(organizer.id, 1),
  });
  t.equal(again.status, 201, 'rated again after clearing');
  t.equal(await averageOf(), 2);
});

t.test('who may rate and read', async (t) => {
  const stranger = await frontEnd(base, other.token).adapter('POST', '/v1/feedbacks', {
    body: feedbackBody(other.id, 4),
  });
  t.equal(stranger.status, 403, "only the event's organizers rate its sessions");
  const impostor = await frontEnd(base, organizer.token).adapter('POST', '/v1/feedbacks', {
    body: feedbackBody(coorganizer.id, 4),
  });
  t.equal(impostor.status, 403, 'the author is the caller');
  const anonymous = await frontEnd(base).adapter('POST', '/v1/feedbacks', { body: feedbackBody(other.id, 4) });
  t.equal(anonymous.status, 401);
  const zero = await frontEnd(base, organizer.token).adapter('POST', '/v1/feedbacks', {
    body: feedbackBody(organizer.id, 0),
  });
  t.equal(zero.status, 422, 'a rating is 1 to 5 (the model default 0.0 is no rating)');

  const eventFeedback = await frontEnd(base, other.token).adapter('POST', '/v1/feedbacks', {
    body: {
      data: {
        type: 'feedback',
        attributes: { rating: 4, comment: 'Great', 'deleted-at': null },
        relationships: { event: { data: { type: 'event', id: event } } },
      },
    },
  });
  t.equal(eventFeedback.status, 201, 'anyone signed in rates a published event');
  t.same(eventFeedback.body.data.relationships.user.data, { type: 'user', id: other.id });
  const draft = await frontEnd(base, other.token).adapter('POST', '/v1/feedbacks', {
    body: {
      data: {
        type: 'feedback',
        attributes: { rating: 4 },
        relationships: { event: { data: { type: 'event', id: world.draft.event } } },
      },
    },
  });
  t.equal(draft.status, 404, 'not a draft');

  const theirs = await frontEnd(base, other.token).adapter('GET', '/v1/feedbacks');
  t.same(
    theirs.body.data.map((f: { id: string }) => f.id),
    [eventFeedback.body.data.id],
    'users read their own',
  );
  const list = await sessionsList(other.token);
  t.equal(list.status, 200);
  t.same(
    list.body.data.find((s: { id: string }) => s.id === session).relationships.feedbacks.data,
    [],
    "not the organizers' ratings",
  );
  t.equal((await frontEnd(base, other.token).adapter('GET', `/v1/users/${organizer.id}/feedbacks`)).status, 403);
  t.equal((await frontEnd(base).adapter('GET', '/v1/feedbacks')).status, 401);
});
