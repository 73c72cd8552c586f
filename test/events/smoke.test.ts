import t from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import { buildWorld } from '../helpers/events.js';

t.test('the world builds and reads back', async (t) => {
  const { app } = await buildTestApp(t);
  const world = await buildWorld(app);
  const res = await call(app, { url: `/v1/events/${world.published.identifier}?include=social-links,event-copyright,sessions.speakers`, token: world.cast.owner.token });
  t.equal(res.status, 200);

  const anon = await call(app, { url: `/v1/events/${world.draft.event}` });
  t.equal(anon.status, 404);
  const sp = await call(app, { url: `/v1/speakers/${world.published.speaker}` });
  t.equal(sp.status, 200);
  t.notOk('email' in sp.body.data.attributes);
  const sp2 = await call(app, { url: `/v1/speakers/${world.published.speaker}`, token: world.cast.speaker.token });
  t.ok('email' in sp2.body.data.attributes);
});
