/**
 * open-event-frontend `app/mixins/event-wizard.js:127-138`: the wizard's sessions-and-speakers step
 * saves the event's `tracks`, `microlocations` and `customForms` records, each `item.save()` of the
 * whole record as ember-data serialises it; the custom fields an organizer adds come from
 * `app/components/forms/wizard/custom-form-input.ts:164-181`.
 */
import t, { type Test } from 'tap';
import { buildTestApp } from '../helpers/app.js';
import { buildWorld } from '../helpers/events.js';
import { frontEnd, listening } from '../helpers/front-end-client.js';

const { app } = await buildTestApp(t);
const world = await buildWorld(app);
const base = await listening(app);
const { cast, published } = world;
const event = { data: { type: 'event', id: published.event } };
const organizer = frontEnd(base, cast.organizer.token);

/** Creates with POST, then saves the record read back with `change` applied, as ember-data does. */
async function createThenSave(
  t: Test,
  path: string,
  type: string,
  attributes: Record<string, unknown>,
  change: Record<string, unknown>,
) {
  const created = await organizer.adapter('POST', `/v1/${path}`, {
    body: { data: { type, attributes, relationships: { event } } },
  });
  t.equal(created.status, 201, `${type} created: ${JSON.stringify(created.body?.errors)}`);
  const { id, attributes: read } = created.body.data;
  const names = Object.keys(attributes);
  const back = Object.fromEntries(names.map((n) => [n, read[n] ?? null]));
  const saved = await organizer.adapter('PATCH', `/v1/${path}/${id}`, {
    body: { data: { type, id, attributes: { ...back, ...change }, relationships: { event } } },
  });
  t.equal(saved.status, 200, `${type} saved: ${JSON.stringify(saved.body?.errors)}`);
  return { created: created.body.data, saved: saved.body.data };
}

t.test('a room: app/models/microlocation.ts:6-15', async (t) => {
  const attributes = {
    name: 'Main hall',
    floor: null,
    latitude: null,
    'hidden-in-scheduler': false,
    longitude: null,
    position: 0,
    'is-chat-enabled': false,
    'is-global-event-room': false,
  };
  const { created, saved } = await createThenSave(t, 'microlocations', 'microlocation', attributes, {
    'is-chat-enabled': true,
    'is-global-event-room': true,
  });
  t.match(created.attributes, { 'is-chat-enabled': false, 'is-global-event-room': false });
  t.match(saved.attributes, { 'is-chat-enabled': true, 'is-global-event-room': true }, 'stored');
});

t.test('a track: app/models/track.js:7-11; font-color is computed and sent back as read', async (t) => {
  const attributes = { name: 'Web', color: '#ffee00', description: null, 'font-color': null, position: 0 };
  const { created, saved } = await createThenSave(t, 'tracks', 'track', attributes, { color: '#102030' });
  t.equal(created.attributes['font-color'], '#000000', 'dark text on a light colour');
  t.equal(saved.attributes['font-color'], '#ffffff', 'the old font-color sent back is ignored; the new colour decides');
  const forced = await organizer.adapter('PATCH', `/v1/tracks/${created.id}`, {
    body: { data: { type: 'track', id: created.id, attributes: { 'font-color': '#123456' } } },
  });
  t.equal(forced.status, 422, 'another font-color is refused');
  t.same(forced.body.errors[0].source, { pointer: '/data/attributes/font-color' });
});

t.test('a custom field: app/models/custom-form.js:67-83 (formID is sent as form-id)', async (t) => {
  // custom-form-input.ts:164-181, with the model's defaults for the rest.
  const attributes = {
    'field-identifier': 'shirt-size',
    form: 'speaker',
    type: 'select',
    name: 'Shirt size',
    'is-required': false,
    'is-public': false,
    'is-included': true,
    'is-fixed': false,
    position: null,
    'is-complex': true,
    description: 'text',
    'form-id': '',
    min: 0,
    max: 10,
    translations: [
      { name: 'Taille', code: 'fr', language_code: 'fr', isDeleted: false },
      { id: '3', form_id: '', name: 'Größe', code: 'de', language_code: 'de', isDeleted: true },
    ],
    'main-language': 'en',
    'is-allow-edit': false,
  };
  const created = await organizer.adapter('POST', '/v1/custom-forms', {
    body: { data: { type: 'custom-form', attributes, relationships: { event } } },
  });
  t.equal(created.status, 201, JSON.stringify(created.body?.errors));
  t.match(created.body.data.attributes, {
    'is-complex': true,
    'form-id': '',
    min: 0,
    max: 10,
    'main-language': 'en',
    'is-allow-edit': false,
  });
  t.same(
    created.body.data.attributes.translations,
    [{ name: 'Taille', code: 'fr', language_code: 'fr', isDeleted: false }],
    'deleted translations dropped',
  );
  const id = created.body.data.id;
  const saved = await organizer.adapter('PATCH', `/v1/custom-forms/${id}`, {
    body: {
      data: {
        type: 'custom-form',
        id,
        attributes: {
          ...attributes,
          translations: created.body.data.attributes.translations,
          position: 0,
          min: 1,
          max: 3,
          'is-allow-edit': true,
        },
        relationships: { event },
      },
    },
  });
  t.equal(saved.status, 200, JSON.stringify(saved.body?.errors));
  t.match(saved.body.data.attributes, { min: 1, max: 3, 'is-allow-edit': true });
  const bounds = await organizer.adapter('PATCH', `/v1/custom-forms/${id}`, {
    body: { data: { type: 'custom-form', id, attributes: { min: 5 } } },
  });
  t.equal(bounds.status, 422, 'min above the stored max');
  t.same(bounds.body.errors[0].source, { pointer: '/data/attributes/max' });
});
