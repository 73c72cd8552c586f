/**
 * open-event-frontend app/routes/public/cfs/index.js:21-39: the call for speakers page reads
 * event.speakersCall (the event loaded with include=...speakers-call, app/routes/public.js:17) and
 * compares its privacy and hash with the link's hash; an event without a call has a null linkage.
 */
import t from 'tap';
import { create, createCast, createEvent, rel } from '../helpers/events.js';
import { frontEnd } from '../helpers/front-end-client.js';
import { startForFrontEnd } from '../helpers/front-end-auth.js';
import { speakersCallAttributes } from '../helpers/ticket-bodies.js';

const { apiHost, app } = await startForFrontEnd(t);
const cast = await createCast(app);
const open = await createEvent(app, cast, 'Open CfS', 'published');
const none = await createEvent(app, cast, 'No CfS', 'published');
const draft = await createEvent(app, cast, 'Draft CfS', 'draft');
const hash = 'a3f0e9a2-4d7f-4a7e-9b0a-2f6b1f3c8d55';
await create(
  app,
  cast.owner.token,
  'speakers-calls',
  'speakers-call',
  speakersCallAttributes({ privacy: 'private', hash }),
  { event: rel('event', open.id) },
);
await create(app, cast.owner.token, 'speakers-calls', 'speakers-call', speakersCallAttributes(), {
  event: rel('event', draft.id),
});

t.test('the CfS reads privacy and hash of the event speakers call', async (t) => {
  const res = await frontEnd(apiHost).adapter('GET', `/v1/events/${open.identifier}`, {
    query: { include: 'speakers-call' },
  });
  t.equal(res.status, 200);
  const link = res.body.data.relationships['speakers-call'].data;
  const call = res.body.included.find(
    (r: { type: string; id: string }) => r.type === 'speakers-call' && r.id === link.id,
  );
  t.match(call.attributes, { privacy: 'private', hash });
  const related = await frontEnd(apiHost).adapter('GET', `/v1/events/${open.id}/speakers-call`, {
    query: { public: true },
  });
  t.equal(related.body.data.attributes.privacy, 'private', 'the related link answers the same record');
});

t.test("no call: a null linkage; a draft event's call does not exist for strangers", async (t) => {
  const res = await frontEnd(apiHost).adapter('GET', `/v1/events/${none.identifier}`, {
    query: { include: 'speakers-call' },
  });
  t.same(res.body.data.relationships['speakers-call'].data, null);
  const list = await frontEnd(apiHost).adapter('GET', '/v1/speakers-calls', { query: { 'page[size]': 0 } });
  t.equal(list.body.data.length, 1, "only the published event's call is listed");
  const drafted = await frontEnd(apiHost, cast.other.token).adapter('GET', `/v1/events/${draft.id}/speakers-call`);
  t.equal(drafted.status, 404);
});
