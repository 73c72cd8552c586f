/**
 * open-event-frontend:app/mixins/ember-table-route.js: the tables of the dashboards build their filter
 * and sort here. A search adds `{name: kebabCase(field), op: 'ilike', val: '%term%'}` per field, several
 * fields inside one `{or: [...]}` (lines 33-59); the sort is the clicked column's kebab-cased value path,
 * `-` for descending (lines 61-68; the header: open-event-frontend:app/components/tables/headers/sort.js:26).
 * The functions below are those lines in TypeScript; the requests are those of the routes that use them.
 */
import t from 'tap';
import { buildTestApp } from '../helpers/app.js';
import { create, createCast, createEvent, fillEvent, rel } from '../helpers/events.js';
import { frontEnd, listening } from '../helpers/front-end-client.js';

interface Params {
  search?: string;
  sort_by?: string;
  sort_dir?: 'ASC' | 'DSC';
  page?: number;
  per_page?: number;
}

/** open-event-frontend:app/utils/text.ts:21-26 */
const kebabCase = (s: string) =>
  s
    .replace(/([a-z])([A-Z])/g, '$1-$2')
    .replace(/[\s_]+/g, '-')
    .toLowerCase();

/** ember-table-route.js:33-59 (removeObject of a new object removes nothing). */
function applySearchFilters(options: unknown[], params: Params, searchFields: string | string[]) {
  const fields = Array.isArray(searchFields) ? searchFields : [searchFields];
  let filters = options;
  if (fields.length > 1) {
    filters = [];
    options.push({ or: filters });
  }
  for (const field of fields) {
    if (params.search) filters.push({ name: kebabCase(field), op: 'ilike', val: `%${params.search}%` });
  }
  return options;
}

/** ember-table-route.js:61-68 */
function applySortFilters(query: Record<string, unknown>, params: Params) {
  if (params.sort_by) query.sort = (params.sort_dir === 'DSC' ? '-' : '') + params.sort_by;
  else delete query.sort;
  return query;
}

const { app } = await buildTestApp(t);
const base = await listening(app);
const cast = await createCast(app);
const { id: event, identifier } = await createEvent(app, cast, 'Table Conf', 'published');
const records = await fillEvent(app, cast, event);
const organizer = frontEnd(base, cast.organizer.token);
const of = { event: rel('event', event) };

/** A speaker of the event in a session of that state. */
async function speakerIn(name: string, organisation: string, state: string) {
  const speaker = await create(
    app,
    cast.owner.token,
    'speakers',
    'speaker',
    { name, email: `${name.toLowerCase()}@example.com`, organisation },
    of,
  );
  await create(
    app,
    cast.owner.token,
    'sessions',
    'session',
    { title: `${name}'s talk`, state },
    { ...of, speakers: { data: [{ type: 'speaker', id: speaker }] } },
  );
  return speaker;
}
// fillEvent's Ada (no organisation) speaks at an accepted session.
const adam = await speakerIn('Adam', 'Zeta Labs', 'accepted');
const adaline = await speakerIn('Adaline', 'Acme', 'accepted');
await speakerIn('Adalene', 'Mid Corp', 'draft');
await speakerIn('Bob', 'Acme', 'accepted');
for (const [name, level] of [
  ['Acre', 3],
  ['Acorn', 2],
  ['Zebra', 1],
] as const) {
  await create(app, cast.owner.token, 'sponsors', 'sponsor', { name, level }, of);
}

// The dashboard's routes query the event record (loaded by identifier) through its relationship links.
const shown = await organizer.adapter('GET', `/v1/events/${identifier}`);
const related = (name: string) => new URL(shown.body.data.relationships[name].links.related, base).pathname;

t.test(
  "the organizer's speakers of one state, searched and sorted (open-event-frontend:app/routes/events/view/speakers/list.js:27-67)",
  async (t) => {
    const params: Params = { search: 'ada', sort_by: kebabCase('organisation'), sort_dir: 'DSC' };
    const filterOptions = applySearchFilters(
      [{ name: 'sessions', op: 'any', val: { name: 'state', op: 'eq', val: 'accepted' } }],
      params,
      'name',
    );
    const query = applySortFilters(
      {
        include: 'sessions',
        filter: filterOptions,
        'page[size]': params.per_page || 25,
        'page[number]': params.page || 1,
      },
      params,
    );
    t.strictSame(query.sort, '-organisation');
    const res = await organizer.adapter('GET', related('speakers'), { query });
    t.equal(res.status, 200);
    // Descending puts the speaker without an organisation first.
    t.strictSame(
      res.body.data.map((s: { id: string }) => s.id),
      [records.speaker, adam, adaline],
    );
    t.equal(res.body.meta.count, 3);
    t.ok(
      res.body.included.every((r: { type: string }) => r.type === 'session'),
      'their sessions included',
    );
  },
);

t.test(
  '"without session" compares a to-many relationship with null: the speakers linked to no session (speakers/list.js:43-50)',
  async (t) => {
    const alone = await create(
      app,
      cast.owner.token,
      'speakers',
      'speaker',
      { name: 'Eve', email: 'eve@example.com' },
      of,
    );
    const filterOptions = applySearchFilters([{ name: 'sessions', op: 'eq', val: null }], {}, 'name');
    const query = { include: 'sessions', filter: filterOptions, 'page[size]': 25, 'page[number]': 1 };
    const res = await organizer.adapter('GET', related('speakers'), { query });
    t.equal(res.status, 200);
    const speakers = res.body.data as { id: string; relationships: { sessions: { data: unknown[] } } }[];
    t.strictSame(
      speakers.map((s) => s.id),
      [alone],
      'the speaker without a session, alone',
    );
    t.ok(
      speakers.every((s) => s.relationships.sessions.data.length === 0),
      'each listed speaker has no session',
    );
    t.notOk(
      speakers.some((s) => s.id === records.speaker),
      'the speaker of the session is not listed',
    );
  },
);

t.test(
  "the dashboard's sponsors, searched, sorted and paged (open-event-frontend:app/routes/events/view/index.js:10-19)",
  async (t) => {
    const params: Params = { search: 'ac', sort_by: kebabCase('name'), sort_dir: 'ASC', per_page: 1, page: 2 };
    const query = applySortFilters(
      {
        filter: applySearchFilters([], params, 'name'),
        'page[size]': params.per_page || 10,
        'page[number]': params.page || 1,
      },
      params,
    );
    const res = await organizer.adapter('GET', related('sponsors'), { query });
    t.equal(res.status, 200);
    // ilike matches fillEvent's ACME, Acorn and Acre; by name, the second page of one.
    t.strictSame(
      res.body.data.map((s: { attributes: { name: string } }) => s.attributes.name),
      ['Acorn'],
    );
    t.equal(res.body.meta.count, 3);
  },
);

t.test(
  'several search fields become one "or", kebab-cased (open-event-frontend:app/routes/admin/users/list.js:82-92)',
  async (t) => {
    const params: Params = { search: cast.other.email, sort_by: kebabCase('createdAt'), sort_dir: 'DSC' };
    const filterOptions = applySearchFilters([{ name: 'deleted-at', op: 'eq', val: null }], params, [
      'firstName',
      'lastName',
      'email',
    ]);
    t.strictSame(
      (filterOptions[1] as { or: { name: string }[] }).or.map((c) => c.name),
      ['first-name', 'last-name', 'email'],
    );
    const query = applySortFilters(
      { include: 'events', get_trashed: true, filter: filterOptions, 'page[size]': 10, 'page[number]': 1 },
      params,
    );
    const res = await frontEnd(base, cast.admin.token).adapter('GET', '/v1/users', { query });
    t.equal(res.status, 200);
    t.strictSame(
      res.body.data.map((u: { id: string }) => u.id),
      [cast.other.id],
    );
  },
);
