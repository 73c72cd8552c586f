/**
 * Numbers and booleans sent as strings, as the reference's documented requests send them (open-event-server's
 * API Blueprint, "Create Event": "latitude": "1.23456789", "is-map-shown": "true"; its marshmallow schemas take
 * both forms). A string that is exactly a number (or exactly "true"/"false") is stored as the number (boolean)
 * and answered as one, under the attribute's own bounds; anything else is the same 422 at the attribute.
 */
import t from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import { buildWorld, eventAttributes, rel } from '../helpers/events.js';

const at = (name: string) => `/data/attributes/${name}`;

t.test('numbers and booleans as strings', async (t) => {
  const { app } = await buildTestApp(t);
  const world = await buildWorld(app);
  const token = world.cast.owner.token;
  const event = world.published.event;
  const of = { event: rel('event', event) };

  t.test(
    'Create Event and Update Event: coordinates and flags as strings are stored as numbers and booleans',
    async (t) => {
      const created = await call(app, {
        method: 'POST',
        url: '/v1/events',
        token,
        body: {
          data: {
            type: 'event',
            attributes: {
              ...eventAttributes('Quoted Conf'),
              latitude: '12.5',
              longitude: '-1.23456789',
              'is-map-shown': 'false',
              'is-sponsors-enabled': 'true',
              'is-sessions-speakers-enabled': 'true',
              'is-tax-enabled': 'false',
              'can-pay-by-paypal': 'true',
              'can-pay-onsite': 'false',
              'has-owner-info': 'true',
              'is-featured': 'false',
            },
          },
        },
      });
      t.equal(created.status, 201, JSON.stringify(created.body.errors));
      const id = created.body.data.id as string;
      t.match(created.body.data.attributes, {
        latitude: 12.5,
        longitude: -1.23456789,
        'is-map-shown': false,
        'is-sponsors-enabled': true,
        'is-sessions-speakers-enabled': true,
        'is-tax-enabled': false,
        'can-pay-by-paypal': true,
        'can-pay-onsite': false,
        'has-owner-info': true,
      });
      const [row] = await app.sql<{ latitude: number; is_map_shown: boolean }[]>`
      select latitude, is_map_shown from events where id = ${Number(id)}`;
      t.same(row, { latitude: 12.5, is_map_shown: false }, 'stored as a number and a boolean');

      const patched = await call(app, {
        method: 'PATCH',
        url: `/v1/events/${id}`,
        token,
        body: { data: { type: 'event', id, attributes: { latitude: '-90', 'is-map-shown': 'true' } } },
      });
      t.equal(patched.status, 200);
      t.match(patched.body.data.attributes, { latitude: -90, 'is-map-shown': true });

      const featured = await call(app, {
        method: 'PATCH',
        url: `/v1/events/${id}`,
        token,
        body: { data: { type: 'event', id, attributes: { 'is-featured': 'true' } } },
      });
      t.equal(featured.status, 403, 'an admin flag as "true" is still the administrators\' to set');
    },
  );

  /** [path, type, attribute, string, stored, extra attributes on create]. */
  const ACCEPTED: [string, string, string, string, number, Record<string, unknown>][] = [
    ['microlocations', 'microlocation', 'latitude', '12.5', 12.5, { name: 'Hall' }],
    ['microlocations', 'microlocation', 'longitude', '1e2', 100, { name: 'Hall' }],
    ['microlocations', 'microlocation', 'floor', '-2', -2, { name: 'Basement' }],
    ['sponsors', 'sponsor', 'level', '3', 3, { name: 'ACME' }],
    ['taxes', 'tax', 'rate', '12.5', 12.5, { name: 'VAT' }],
  ];

  for (const [path, type, attribute, text, stored, extra] of ACCEPTED)
    t.test(`${type} ${attribute} "${text}" is stored as ${stored}`, async (t) => {
      const created = await call(app, {
        method: 'POST',
        url: `/v1/${path}`,
        token,
        body: {
          data: { type, attributes: { ...extra, [attribute]: text }, relationships: of },
        },
      });
      t.equal(created.status, 201, JSON.stringify(created.body.errors));
      t.equal(created.body.data.attributes[attribute], stored, 'answered as a JSON number');
      const id = created.body.data.id as string;
      const read = await call(app, { url: `/v1/${path}/${id}`, token });
      t.equal(read.body.data.attributes[attribute], stored, 'read back as the number');
      const patched = await call(app, {
        method: 'PATCH',
        url: `/v1/${path}/${id}`,
        token,
        body: { data: { type, id, attributes: { [attribute]: '0' } } },
      });
      t.equal(patched.status, 200);
      t.equal(patched.body.data.attributes[attribute], 0);
    });

  t.test('feedback rating "4.5" is stored as 4.5; "4.3" is rounded as 4.3 is', async (t) => {
    const created = await call(app, {
      method: 'POST',
      url: '/v1/feedbacks',
      token: world.cast.other.token,
      body: { data: { type: 'feedback', attributes: { rating: '4.5', comment: 'Good' }, relationships: of } },
    });
    t.equal(created.status, 201, JSON.stringify(created.body.errors));
    t.equal(created.body.data.attributes.rating, 4.5);
    const id = created.body.data.id as string;
    const patched = await call(app, {
      method: 'PATCH',
      url: `/v1/feedbacks/${id}`,
      token: world.cast.other.token,
      body: { data: { type: 'feedback', id, attributes: { rating: '4.3' } } },
    });
    t.equal(patched.status, 200);
    t.equal(patched.body.data.attributes.rating, 4.5, 'rounded to the nearest half');
    const refused = await call(app, {
      method: 'PATCH',
      url: `/v1/feedbacks/${id}`,
      token: world.cast.other.token,
      body: { data: { type: 'feedback', id, attributes: { rating: '6' } } },
    });
    t.equal(refused.status, 422, 'a string above the bounds');
    t.equal(refused.body.errors[0].source.pointer, at('rating'));
  });

  /** [path, type, id, attribute, value, what]: each a 422 at the attribute, nothing changed. */
  const REFUSED: [string, string, string, string, unknown, string][] = [
    ['events', 'event', event, 'latitude', 'abc', 'not a number'],
    ['events', 'event', event, 'latitude', ' 12.5', 'a number with a blank'],
    ['events', 'event', event, 'latitude', '12.5°', 'a number with a unit'],
    ['events', 'event', event, 'latitude', '', 'an empty string'],
    ['events', 'event', event, 'latitude', '0x10', 'a hexadecimal number'],
    ['events', 'event', event, 'latitude', 'NaN', 'NaN'],
    ['events', 'event', event, 'latitude', '91', 'a string above the bounds'],
    ['events', 'event', event, 'longitude', '-180.5', 'a string below the bounds'],
    ['events', 'event', event, 'longitude', '1e999', 'a string beyond any number'],
    ['events', 'event', event, 'is-map-shown', 'yes', 'a boolean as a word'],
    ['events', 'event', event, 'has-owner-info', 'False', 'a boolean in the wrong case'],
    ['microlocations', 'microlocation', world.published.microlocation, 'floor', '1.5', 'a fraction for an integer'],
    ['microlocations', 'microlocation', world.published.microlocation, 'floor', '99999999999', 'beyond int4'],
    ['sponsors', 'sponsor', world.published.sponsor, 'level', '-1', 'a string below the bounds'],
    ['sponsors', 'sponsor', world.published.sponsor, 'level', 'abc', 'not a number'],
  ];

  for (const [path, type, id, attribute, value, what] of REFUSED)
    t.test(`${type} ${attribute} ${JSON.stringify(value)} (${what}) -> 422`, async (t) => {
      const before = await call(app, { url: `/v1/${path}/${id}`, token });
      const res = await call(app, {
        method: 'PATCH',
        url: `/v1/${path}/${id}`,
        token,
        body: { data: { type, id, attributes: { [attribute]: value } } },
      });
      t.equal(res.status, 422);
      t.equal(res.body.errors[0].source.pointer, at(attribute));
      const after = await call(app, { url: `/v1/${path}/${id}`, token });
      t.equal(after.body.data.attributes[attribute], before.body.data.attributes[attribute], 'unchanged');
    });
});
