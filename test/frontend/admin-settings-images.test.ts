/**
 * open-event-frontend app/routes/admin/settings/images.js (`queryRecord('speaker-image-size', 1)` and
 * `queryRecord('event-image-size', 1)`), its controller's saveImages (`eventImageSize.save()` then
 * `speakerImageSize.save()`: every attribute of app/models/event-image-size.js and speaker-image-size.js, as read
 * or as typed, `type` included), and the system images page (app/controllers/admin/content/system-images/list.js:
 * a sub-topic without a placeholder gets `createRecord('custom-placeholder', {name, eventSubTopic})`, which
 * app/components/modals/change-image-modal.js saves with the uploaded image; saved again, it is PATCHed as read).
 */
import t from 'tap';
import { buildTestApp } from '../helpers/app.js';
import { create, rel } from '../helpers/events.js';
import { frontEnd, listening } from '../helpers/front-end-client.js';
import { seedUser } from '../helpers/users.js';

const { app } = await buildTestApp(t);
const base = await listening(app);
const token = (await seedUser(app, { admin: true })).token;
const admin = frontEnd(base, token);

t.test('the images page: both records read, changed and saved back whole', async (t) => {
  const event = await admin.adapter('GET', '/v1/event-image-sizes');
  const speaker = await admin.adapter('GET', '/v1/speaker-image-sizes');
  t.equal(event.status, 200);
  t.equal(speaker.status, 200);
  const typed = { ...event.body.data.attributes, 'full-width': 1600, 'full-quality': 75, 'icon-aspect': false };
  const saved = await admin.adapter('PATCH', `/v1/event-image-sizes/${event.body.data.id}`, {
    body: { data: { id: event.body.data.id, type: 'event-image-size', attributes: typed } },
  });
  t.equal(saved.status, 200, JSON.stringify(saved.body.errors ?? ''));
  t.strictSame(saved.body.data.attributes, typed, 'the answer is what was typed');
  const speakerTyped = { ...speaker.body.data.attributes, 'small-size-width-height': 64, 'icon-size-quality': null };
  const speakerSaved = await admin.adapter('PATCH', `/v1/speaker-image-sizes/${speaker.body.data.id}`, {
    body: { data: { id: speaker.body.data.id, type: 'speaker-image-size', attributes: speakerTyped } },
  });
  t.equal(speakerSaved.status, 200, JSON.stringify(speakerSaved.body.errors ?? ''));
  const [row] = await app.sql`select full_width, full_quality, icon_aspect from image_sizes where type = 'event-image'`;
  t.strictSame({ ...row }, { full_width: 1600, full_quality: 75, icon_aspect: false });
  // A size emptied in the form goes out as null: it is cleared (the image jobs use the default).
  const emptied = await admin.adapter('PATCH', `/v1/event-image-sizes/${event.body.data.id}`, {
    body: { data: { id: event.body.data.id, type: 'event-image-size', attributes: { ...typed, 'logo-width': null } } },
  });
  t.equal(emptied.status, 200);
  // A quality typed out of range is refused with the member named, as the form shows it.
  const refused = await admin.adapter('PATCH', `/v1/event-image-sizes/${event.body.data.id}`, {
    body: { data: { id: event.body.data.id, type: 'event-image-size', attributes: { ...typed, 'full-quality': 120 } } },
  });
  t.equal(refused.status, 422);
  t.equal(refused.body.errors[0].source.pointer, '/data/attributes/full-quality');
});

t.test('the system images page: a placeholder created for a sub-topic, then saved again as read', async (t) => {
  const topic = await create(app, token, 'event-topics', 'event-topic', { name: 'Science' });
  const subTopic = await create(
    app,
    token,
    'event-sub-topics',
    'event-sub-topic',
    { name: 'Robotics' },
    { 'event-topic': rel('event-topic', topic) },
  );
  const page = await admin.adapter('GET', `/v1/event-topics/${topic}`, { query: { include: 'event-sub-topics' } });
  t.equal(page.status, 200);
  const none = await admin.adapter('GET', `/v1/event-sub-topics/${subTopic}/custom-placeholder`);
  t.equal(none.status, 200);
  t.equal(none.body.data, null, 'no placeholder yet: the page makes one');
  const attributes = {
    origin: 'the lab',
    'thumbnail-image-url': null,
    name: 'Robotics',
    copyright: 'CC-BY',
    'original-image-url': 'https://example.com/robots.jpg',
    'icon-image-url': null,
    'large-image-url': null,
  };
  const created = await admin.adapter('POST', '/v1/custom-placeholders', {
    body: {
      data: {
        type: 'custom-placeholder',
        attributes,
        relationships: { 'event-sub-topic': { data: { type: 'event-sub-topic', id: subTopic } } },
      },
    },
  });
  t.equal(created.status, 201, JSON.stringify(created.body.errors ?? ''));
  const id = created.body.data.id as string;
  const linked = await admin.adapter('GET', `/v1/event-sub-topics/${subTopic}/custom-placeholder`);
  t.equal(linked.body.data.id, id, 'the sub-topic shows it');
  const again = await admin.adapter('PATCH', `/v1/custom-placeholders/${id}`, {
    body: {
      data: {
        id,
        type: 'custom-placeholder',
        attributes: { ...created.body.data.attributes, copyright: 'CC0' },
        relationships: { 'event-sub-topic': { data: { type: 'event-sub-topic', id: subTopic } } },
      },
    },
  });
  t.equal(again.status, 200, JSON.stringify(again.body.errors ?? ''));
  t.equal(again.body.data.attributes.copyright, 'CC0');
});
