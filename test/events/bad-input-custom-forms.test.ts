/**
 * Bad input to custom forms (POST /v1/custom-forms, POST /v1/events/{id}/custom-forms, PATCH, GET,
 * DELETE and the lists), sent by the event's owner: each a 4xx error document with the expected
 * status and source, and nothing written. The flexible booleans accept JSON booleans and the strings
 * "true"/"false", and nothing else; responses carry JSON booleans.
 */
import t, { type Test } from 'tap';
import { buildTestApp, call, type Call } from '../helpers/app.js';
import { buildWorld, create, expectRefused, rel, snapshotOf, type RefusedCase } from '../helpers/events.js';
import { expectError } from '../helpers/users.js';

/** [what, method and url and body, status, pointer when one is expected]. */
type Case = RefusedCase<Omit<Call, 'token'>>;

const at = (name: string) => `/data/attributes/${name}`;
const BOOLEANS = ['is-required', 'is-included', 'is-fixed', 'is-public', 'is-complex', 'is-allow-edit'];
const NOT_BOOLEANS: unknown[] = ['yes', 1, 0, 'True', 'FALSE', ' true', 'on', null, ['true']];

/** [attribute, value, what]: refused with 422 at that attribute on create and update. */
const WRONG: [string, unknown, string, string?][] = [
  ['form', 'ticket', 'an unknown form'],
  ['form', 'Speaker', 'a form in the wrong case'],
  ['form', null, 'form cleared'],
  ['type', 'color', 'an unknown type'],
  ['type', 'TEXT', 'a type in the wrong case'],
  ['type', '', 'an empty type'],
  ['type', null, 'type cleared'],
  ['field-identifier', '', 'an empty identifier'],
  ['field-identifier', 'f'.repeat(256), 'over maxLength 255'],
  ['field-identifier', 42, 'a number'],
  ['field-identifier', 'a\u0000b', 'a NUL character'],
  ['name', 'n'.repeat(256), 'over maxLength 255'],
  ['description', 'd'.repeat(10_001), 'over maxLength 10,000'],
  ['position', -1, 'a negative position'],
  ['position', 1.5, 'a fractional position'],
  ['position', '1', 'a position as a string'],
  ['position', 2147483648, 'a position beyond int32'],
  ['form-id', 'f'.repeat(256), 'a form-id over 255 characters'],
  ['min', 1.5, 'a fractional min'],
  ['max', '10', 'a max as a string'],
  ['min', 2147483648, 'a min beyond int32'],
  ['translations', { fr: 'Taille' }, 'translations as an object'],
  [
    'translations',
    [{ name: 'Taille', language_code: 'fr', note: 'x' }],
    'a translation with an extra member',
    at('translations/0/note'),
  ],
  ['translations', [{ name: 3, language_code: 'fr' }], 'a translation name as a number', at('translations/0/name')],
  ['translations', Array.from({ length: 51 }, () => ({ name: 'x', language_code: 'fr' })), '51 translations'],
  [
    'translations',
    [{ name: 'x', language_code: 'l'.repeat(36) }],
    'a language code over 35 characters',
    at('translations/0/language_code'),
  ],
  ['main-language', 'l'.repeat(36), 'a main-language over 35 characters'],
  ...BOOLEANS.flatMap((name) =>
    NOT_BOOLEANS.map((v): [string, unknown, string, string?] => [name, v, `${JSON.stringify(v)} as a boolean`]),
  ),
  ['required', true, 'an unknown attribute'],
];

t.test('bad input to custom forms', async (t) => {
  const { app } = await buildTestApp(t);
  const { cast, published: pub, draft } = await buildWorld(app);
  const token = cast.owner.token;
  const of = { event: rel('event', pub.event) };
  // A second field of the speaker form, so that renaming the first onto it conflicts.
  await create(app, token, 'custom-forms', 'custom_form', { form: 'speaker', 'field-identifier': 'diet' }, of);
  // And a field of the attendee form named like the speaker form's `shirt`, so that moving that one conflicts.
  await create(app, token, 'custom-forms', 'custom_form', { form: 'attendee', 'field-identifier': 'shirt' }, of);
  const snapshot = snapshotOf(app, ['custom_forms']);
  const before = await snapshot();
  const each = (t: Test, cases: Case[]) =>
    expectRefused(t, cases, (request) => call(app, { ...request, token }), snapshot, before);

  t.test('POST /v1/custom-forms and /v1/events/{id}/custom-forms', async (t) => {
    const valid = { form: 'attendee', 'field-identifier': 'company', type: 'text' };
    const make = (
      attributes: Record<string, unknown>,
      relationships: Record<string, unknown> = of,
      extra = {},
      url = '/v1/custom-forms',
    ) => ({
      method: 'POST' as const,
      url,
      body: { data: { type: 'custom_form', attributes, relationships, ...extra } },
    });
    const viaEvent = (
      event: string,
      attributes: Record<string, unknown>,
      relationships: Record<string, unknown> = {},
    ) => make(attributes, relationships, {}, `/v1/events/${event}/custom-forms`);
    await each(t, [
      ['malformed JSON', { method: 'POST', url: '/v1/custom-forms', body: '{"data":{"type":"custom_form"' }, 400],
      [
        'wrong content type',
        { method: 'POST', url: '/v1/custom-forms', body: '{}', headers: { 'content-type': 'application/json' } },
        415,
      ],
      [
        'type is wrong',
        {
          method: 'POST',
          url: '/v1/custom-forms',
          body: { data: { type: 'custom_forms', attributes: valid, relationships: of } },
        },
        409,
        '/data/type',
      ],
      [
        'type in camelCase',
        {
          method: 'POST',
          url: '/v1/custom-forms',
          body: { data: { type: 'customForm', attributes: valid, relationships: of } },
        },
        409,
        '/data/type',
      ],
      ['client-generated id', make(valid, of, { id: '9' }), 403, '/data/id'],
      ['form missing', make({ ...valid, form: undefined }), 422, at('form')],
      ['field-identifier missing', make({ ...valid, 'field-identifier': undefined }), 422, at('field-identifier')],
      [
        'attributes missing',
        { method: 'POST', url: '/v1/custom-forms', body: { data: { type: 'custom_form', relationships: of } } },
        422,
        '/data/attributes',
      ],
      ['event missing', make(valid, {}), 422, '/data/relationships/event'],
      ['event that does not exist', make(valid, { event: rel('event', '424242') }), 404],
      [
        'event of the wrong type',
        make(valid, { event: rel('custom_form', pub.event) }),
        409,
        '/data/relationships/event/data/type',
      ],
      [
        'unknown relationship',
        make(valid, { ...of, speaker: rel('speaker', pub.speaker) }),
        422,
        '/data/relationships/speaker',
      ],
      [
        'duplicate field-identifier in the form',
        make({ form: 'speaker', 'field-identifier': 'shirt' }),
        409,
        at('field-identifier'),
      ],
      [
        'duplicate through the event path',
        viaEvent(pub.identifier, { form: 'speaker', 'field-identifier': 'diet' }),
        409,
        at('field-identifier'),
      ],
      [
        'another event than the path',
        viaEvent(pub.event, valid, { event: rel('event', draft.event) }),
        409,
        '/data/relationships/event',
      ],
      ['an event path that does not exist', viaEvent('99999999999', valid), 404],
      ['an identifier path that does not exist', viaEvent('zzzzzzzz', valid), 404],
      ...WRONG.map(
        ([name, value, what, pointer]): Case => [
          `${name}: ${what}`,
          make({ ...valid, [name]: value }),
          422,
          pointer ?? at(name),
        ],
      ),
      ['max below min', make({ ...valid, min: 9, max: 8 }), 422, at('max')],
      ...WRONG.slice(0, 3).map(
        ([name, value, what]): Case => [
          `via the event path, ${name}: ${what}`,
          viaEvent(pub.event, { ...valid, [name]: value }),
          422,
          at(name),
        ],
      ),
    ]);
  });

  t.test('PATCH /v1/custom-forms/{id}', async (t) => {
    const id = pub.customForm;
    const change = (attributes: Record<string, unknown>, relationships?: Record<string, unknown>) => ({
      method: 'PATCH' as const,
      url: `/v1/custom-forms/${id}`,
      body: { data: { type: 'custom_form', id, attributes, ...(relationships ? { relationships } : {}) } },
    });
    const url = `/v1/custom-forms/${id}`;
    await each(t, [
      ['malformed JSON', { method: 'PATCH', url, body: '{"data":{"id":' }, 400],
      [
        'id of another form field',
        { method: 'PATCH', url, body: { data: { type: 'custom_form', id: draft.customForm, attributes: {} } } },
        409,
        '/data/id',
      ],
      [
        'id is a number',
        { method: 'PATCH', url, body: { data: { type: 'custom_form', id: Number(id), attributes: {} } } },
        422,
        '/data/id',
      ],
      [
        'id missing',
        { method: 'PATCH', url, body: { data: { type: 'custom_form', attributes: {} } } },
        422,
        '/data/id',
      ],
      [
        'type is wrong',
        { method: 'PATCH', url, body: { data: { type: 'form', id, attributes: {} } } },
        409,
        '/data/type',
      ],
      [
        'field-identifier of another field of the form',
        change({ 'field-identifier': 'diet' }),
        409,
        at('field-identifier'),
      ],
      ['moved to a form that has the identifier', change({ form: 'attendee' }), 409, at('field-identifier')],
      ['field-identifier cleared', change({ 'field-identifier': null }), 422, at('field-identifier')],
      ['event moved', change({}, { event: rel('event', draft.event) }), 422, '/data/relationships/event'],
      ...WRONG.map(
        ([name, value, what, pointer]): Case => [
          `${name}: ${what}`,
          change({ [name]: value }),
          422,
          pointer ?? at(name),
        ],
      ),
      ['min above the stored max (10)', change({ min: 11 }), 422, at('max')],
    ]);
  });

  t.test('ids in paths and list queries', async (t) => {
    for (const id of ['abc', '99999999999', '0', '-1', '424242']) {
      expectError(t, await call(app, { url: `/v1/custom-forms/${id}`, token }), 404, { detail: 'Object not found.' });
      const body = { data: { type: 'custom_form', id, attributes: { name: 'x' } } };
      expectError(t, await call(app, { method: 'PATCH', url: `/v1/custom-forms/${id}`, token, body }), 404);
      expectError(t, await call(app, { method: 'DELETE', url: `/v1/custom-forms/${id}`, token }), 404);
    }
    const f = (filter: unknown) => `filter=${encodeURIComponent(JSON.stringify(filter))}`;
    const queries: [string, string][] = [
      ['sort=bogus', 'sort'],
      ['sort=fieldIdentifier', 'sort'],
      [f([{ name: 'bogus', op: 'eq', val: 1 }]), 'filter'],
      [f([{ name: 'is-required', op: 'eq', val: 'yes' }]), 'filter'],
      [f([{ name: 'position', op: 'gt', val: 'first' }]), 'filter'],
      ['fields[custom_form]=bogus', 'fields[custom_form]'],
    ];
    for (const [query, parameter] of queries) {
      expectError(t, await call(app, { url: `/v1/custom-forms?${query}`, token }), 400, { parameter });
      expectError(t, await call(app, { url: `/v1/events/${pub.event}/custom-forms?${query}`, token }), 400, {
        parameter,
      });
    }
    t.same(await snapshot(), before, 'nothing written');
  });

  // Runs last: these requests are valid and write.
  t.test('"true" and "false" are accepted and answered as JSON booleans', async (t) => {
    const count = async () => (await app.sql<{ n: number }[]>`select count(*)::int as n from custom_forms`)[0]!.n;
    const n = await count();
    const flags = { 'is-required': 'true', 'is-included': 'false', 'is-fixed': true, 'is-public': false };
    const res = await call(app, {
      method: 'POST',
      url: '/v1/custom-forms',
      token,
      body: {
        data: {
          type: 'custom-form',
          attributes: { form: 'session', 'field-identifier': 'shirt', ...flags },
          relationships: of,
        },
      },
    });
    t.equal(res.status, 201, 'the dasherized type, string booleans, and an identifier used by another form');
    t.match(res.body.data, {
      type: 'custom_form',
      attributes: { 'is-required': true, 'is-included': false, 'is-fixed': true, 'is-public': false },
    });
    t.equal(await count(), n + 1);
    const id = res.body.data.id as string;
    const flip = { 'is-required': 'false', 'is-included': 'true', 'is-fixed': false, 'is-public': 'true' };
    const patched = await call(app, {
      method: 'PATCH',
      url: `/v1/custom-forms/${id}`,
      token,
      body: { data: { type: 'custom_form', id, attributes: flip } },
    });
    t.equal(patched.status, 200);
    t.match(patched.body.data.attributes, {
      'is-required': false,
      'is-included': true,
      'is-fixed': false,
      'is-public': true,
    });
    const [row] =
      await app.sql`select is_required, is_included, is_fixed, is_public from custom_forms where id = ${Number(id)}`;
    t.same(row, { is_required: false, is_included: true, is_fixed: false, is_public: true }, 'stored as booleans');
    const elsewhere = await call(app, {
      method: 'POST',
      url: `/v1/events/${draft.event}/custom-forms`,
      token,
      body: { data: { type: 'custom_form', attributes: { form: 'speaker', 'field-identifier': 'diet' } } },
    });
    t.equal(elsewhere.status, 201, 'field identifiers are unique per event only');
    t.equal(await count(), n + 2);
  });
});
