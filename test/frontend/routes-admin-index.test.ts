/**
 * open-event-frontend `app/routes/admin/index.js:8-29`: the admin dashboard is `hash()` of five
 * `queryRecord`s with `filterOptions: {name: 'id', op: 'eq', val: 1}`, at the URLs the adapters
 * `app/adapters/admin-statistics-{event,user,mail,session,group}.js` build
 * (`/v1/admin/statistics/{events,users,mails,sessions,groups}`); one failure fails the page. The
 * models `app/models/admin-statistics-*.js` read the counts.
 */
import t from 'tap';
import { buildTestApp } from '../helpers/app.js';
import { buildWorld } from '../helpers/events.js';
import { frontEnd, listening } from '../helpers/front-end-client.js';

const { app } = await buildTestApp(t);
const world = await buildWorld(app);
const base = await listening(app);
const filterOptions = { name: 'id', op: 'eq', val: 1 };

/** The attributes each front-end model reads, by the type it is stored under. */
const MODELS: Record<string, [string, string[]]> = {
  events: ['admin-statistics-event', ['draft', 'published', 'past']],
  users: [
    'admin-statistics-user',
    [
      'super-admin',
      'admin',
      'verified',
      'unverified',
      'owner',
      'organizer',
      'coorganizer',
      'attendee',
      'track-organizer',
    ],
  ],
  mails: ['admin-statistics-mail', ['one-day', 'three-days', 'seven-days', 'thirty-days']],
  sessions: ['admin-statistics-session', ['confirmed', 'accepted', 'submitted', 'draft', 'rejected', 'pending']],
  groups: ['admin-statistics-group', ['groups', 'followers', 'group-events']],
};

t.test('the dashboard loads: every statistic answers its record with the counts its model reads', async (t) => {
  const admin = frontEnd(base, world.cast.admin.token);
  const answers = await Promise.all(
    Object.keys(MODELS).map((name) =>
      admin.adapter('GET', `/v1/admin/statistics/${name}`, { query: { filterOptions } }),
    ),
  );
  for (const [i, [name, [type, attributes]]] of Object.entries(MODELS).entries()) {
    const res = answers[i]!;
    t.equal(res.status, 200, `${name}: 200`);
    t.equal(res.headers.get('access-control-allow-origin'), '*', `${name}: readable from the front end's origin`);
    t.match(res.body.data, { type, id: '1' }, `${name}: the one record`);
    t.strictSame(
      Object.keys(res.body.data.attributes).sort(),
      [...attributes].sort(),
      `${name}: the attributes its model reads`,
    );
    for (const attribute of attributes)
      t.type(res.body.data.attributes[attribute], 'number', `${name}.${attribute} is a count`);
  }
  t.match(answers[0]!.body.data.attributes, { draft: 1, published: 1 }, "buildWorld's two events");
});

t.test('anyone but an administrator is refused, as the dashboard route is', async (t) => {
  const other = frontEnd(base, world.cast.other.token);
  t.equal((await other.adapter('GET', '/v1/admin/statistics/users', { query: { filterOptions } })).status, 403);
  t.equal(
    (await frontEnd(base).adapter('GET', '/v1/admin/statistics/users', { query: { filterOptions } })).status,
    401,
  );
});
