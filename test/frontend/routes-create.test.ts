/**
 * open-event-frontend:app/routes/create.js:30-47: the event wizard opens on a `hash()` of
 * `store.query('event-type', {sort: 'name'})` and `store.query('event-topic', {sort: 'name', include:
 * 'event-sub-topics'})`; the basic details step offers the chosen topic's sub-topics
 * (app/components/forms/wizard/basic-details-step.js:94-109, the topic's `subTopics`, serialized as
 * `event-sub-topics`: app/serializers/event-topic.js). Both lists are public: anyone may load them.
 */
import t from 'tap';
import { buildTestApp } from '../helpers/app.js';
import { create, createCast, rel } from '../helpers/events.js';
import { frontEnd, listening } from '../helpers/front-end-client.js';

const { app } = await buildTestApp(t);
const cast = await createCast(app);
const base = await listening(app);
const admin = cast.admin.token;
const topic = (name: string) => create(app, admin, 'event-topics', 'event-topic', { name });
const sub = (name: string, of: string) =>
  create(app, admin, 'event-sub-topics', 'event-sub-topic', { name }, { 'event-topic': rel('event-topic', of) });

const science = await topic('Science & Technology');
const arts = await topic('Arts');
const robotics = await sub('Robotics', science);
const ai = await sub('Artificial Intelligence', science);
const painting = await sub('Painting', arts);
const types = {
  seminar: await create(app, admin, 'event-types', 'event-type', { name: 'Seminar' }),
  conference: await create(app, admin, 'event-types', 'event-type', { name: 'Conference' }),
};

t.test("the wizard's two loads, as a signed-in user with no role", async (t) => {
  const user = frontEnd(base, cast.other.token);
  const [typeList, topicList] = await Promise.all([
    user.adapter('GET', '/v1/event-types', { query: { sort: 'name' } }),
    user.adapter('GET', '/v1/event-topics', { query: { sort: 'name', include: 'event-sub-topics' } }),
  ]);
  t.equal(typeList.status, 200);
  t.strictSame(
    typeList.body.data.map((d: { id: string; type: string; attributes: { name: string; slug: string } }) => [
      d.type,
      d.id,
      d.attributes.name,
      d.attributes.slug,
    ]),
    [
      ['event-type', types.conference, 'Conference', 'conference'],
      ['event-type', types.seminar, 'Seminar', 'seminar'],
    ],
  );
  t.equal(topicList.status, 200);
  t.strictSame(
    topicList.body.data.map((d: { id: string }) => d.id),
    [arts, science],
  );
  const linked = (d: { relationships: Record<string, { data: { id: string }[] }> }) =>
    d.relationships['event-sub-topics']!.data.map((r) => r.id).sort();
  t.strictSame(linked(topicList.body.data[0]), [painting]);
  t.strictSame(linked(topicList.body.data[1]), [robotics, ai].sort());
  t.strictSame(
    topicList.body.included
      .map(
        (r: {
          type: string;
          id: string;
          attributes: { name: string; slug: string };
          relationships: Record<string, { data: unknown }>;
        }) => [r.type, r.id, r.attributes.slug, r.relationships['event-topic']!.data],
      )
      .sort(),
    [
      ['event-sub-topic', robotics, 'robotics', { type: 'event-topic', id: science }],
      ['event-sub-topic', ai, 'artificial-intelligence', { type: 'event-topic', id: science }],
      ['event-sub-topic', painting, 'painting', { type: 'event-topic', id: arts }],
    ].sort(),
  );
});

t.test(
  'anonymous visitors load them too (the explore page: app/routes/explore/events.js findAll event-type)',
  async (t) => {
    const visitor = frontEnd(base);
    t.equal((await visitor.adapter('GET', '/v1/event-types')).body.meta.count, 2);
    const subs = await visitor.adapter('GET', `/v1/event-topics/${science}/event-sub-topics`, {
      query: { sort: 'name' },
    });
    t.strictSame(
      subs.body.data.map((d: { id: string }) => d.id),
      [ai, robotics],
    );
    const one = await visitor.adapter('GET', `/v1/event-sub-topics/${painting}`, { query: { include: 'event-topic' } });
    t.equal(one.body.included[0].attributes.name, 'Arts');
  },
);

t.test("the lists are the administrators': others may not add to them", async (t) => {
  const user = frontEnd(base, cast.owner.token);
  const refused = await user.adapter('POST', '/v1/event-types', {
    body: { data: { type: 'event-type', attributes: { name: 'Party' } } },
  });
  t.equal(refused.status, 403);
  const sneaky = await user.adapter('POST', '/v1/event-sub-topics', {
    body: {
      data: {
        type: 'event-sub-topic',
        attributes: { name: 'Sculpture' },
        relationships: { 'event-topic': rel('event-topic', arts) },
      },
    },
  });
  t.equal(sneaky.status, 403);
  t.equal((await frontEnd(base).adapter('GET', '/v1/event-types')).body.meta.count, 2, 'nothing written');
});
