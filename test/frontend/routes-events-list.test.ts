/**
 * open-event-frontend `app/routes/events/list.js:27-93`: "My events" is
 * `authManager.currentUser.query('events', {filter, 'page[size]', 'page[number]'})` (ember-data-has-many-query:
 * a GET of the `links.related` of the user's `events` relationship with the query), one tab per state:
 * live (published, not ended), past and draft, each with `include: 'general-statistics,roles.role,roles.user,tickets'`.
 * Every event the user holds a role in, once; the statistics of those the user owns, organizes or coorganizes.
 */
import t from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import { create, createCast, eventAttributes } from '../helpers/events.js';
import { frontEnd, listening } from '../helpers/front-end-client.js';

const { app } = await buildTestApp(t);
const cast = await createCast(app);
const base = await listening(app);
const now = () => new Date().toISOString();

/** An event of `cast.owner`, with `cast.organizer` as organizer and coorganizer both. */
const event = (name: string, more: Record<string, unknown> = {}) =>
  create(
    app,
    cast.owner.token,
    'events',
    'event',
    { ...eventAttributes(name), ...more },
    {
      organizers: { data: [{ type: 'user', id: cast.organizer.id }] },
      coorganizers: { data: [{ type: 'user', id: cast.organizer.id }] },
    },
  );
// Next month, whenever this runs: live (published, not ended).
const live = await event('Live', {
  'starts-at': new Date(Date.now() + 30 * 86_400_000).toISOString(),
  'ends-at': new Date(Date.now() + 31 * 86_400_000).toISOString(),
});
const past = await event('Past', { 'starts-at': '2020-01-01T09:00:00Z', 'ends-at': '2020-01-02T09:00:00Z' });
const draft = await event('Draft', { state: 'draft' });
const theirs = await create(app, cast.other.token, 'events', 'event', eventAttributes('Not mine'));

const TABS: Record<string, unknown[]> = {
  live: [
    { name: 'state', op: 'eq', val: 'published' },
    {
      or: [
        { name: 'starts-at', op: 'ge', val: now() },
        {
          and: [
            { name: 'starts-at', op: 'le', val: now() },
            { name: 'ends-at', op: 'gt', val: now() },
          ],
        },
      ],
    },
  ],
  past: [
    { name: 'ends-at', op: 'lt', val: now() },
    { name: 'state', op: 'eq', val: 'published' },
  ],
  draft: [{ name: 'state', op: 'eq', val: 'draft' }],
};

t.test("each tab lists the user's events of that state, once, whatever roles the user holds", async (t) => {
  for (const [user, role] of [
    [cast.owner, 'owner'],
    [cast.organizer, 'organizer and coorganizer'],
  ] as const) {
    const client = frontEnd(base, user.token);
    const me = await client.adapter('GET', `/v1/users/${user.id}`);
    const related = me.body.data.relationships.events.links.related as string;
    t.equal(related, `/v1/users/${user.id}/events`, `${role}: the relationship the route queries`);
    const ids = async (tab: string) => {
      const res = await client.adapter('GET', related, {
        query: { filter: TABS[tab], 'page[size]': 10, 'page[number]': 1 },
      });
      t.equal(res.status, 200);
      return res.body.data.map((e: { id: string }) => e.id);
    };
    t.strictSame(await ids('live'), [live], `${role}: live`);
    t.strictSame(await ids('past'), [past], `${role}: past`);
    t.strictSame(await ids('draft'), [draft], `${role}: draft`);
  }
  t.notOk([live, past, draft].includes(theirs));
});

t.test("another user's events are theirs alone", async (t) => {
  const res = await frontEnd(base, cast.other.token).adapter('GET', `/v1/users/${cast.owner.id}/events`);
  t.equal(res.status, 403);
  const own = await frontEnd(base, cast.other.token).adapter('GET', `/v1/users/${cast.other.id}/events`);
  t.strictSame(
    own.body.data.map((e: { id: string }) => e.id),
    [theirs],
  );
});

t.test('the include the route sends: statistics of the events the user manages, roles, tickets', async (t) => {
  // A track organizer of the live event sees it listed, without its statistics.
  const added = await call(app, {
    method: 'POST',
    url: `/v1/events/${live}/relationships/track-organizers`,
    token: cast.owner.token,
    body: { data: [{ type: 'user', id: cast.speaker.id }] },
  });
  t.equal(added.status, 200);
  await create(
    app,
    cast.owner.token,
    'sessions',
    'session',
    { title: 'Keynote', state: 'accepted' },
    {
      event: { data: { type: 'event', id: live } },
    },
  );
  await create(
    app,
    cast.owner.token,
    'tickets',
    'ticket',
    { name: 'Entry', quantity: 10, 'sales-starts-at': now(), 'sales-ends-at': '2031-01-01T00:00:00Z' },
    { event: { data: { type: 'event', id: live } } },
  );
  const include = 'general-statistics,roles.role,roles.user,tickets';
  for (const [user, who, sees] of [
    [cast.owner, 'owner', true],
    [cast.organizer, 'organizer', true],
    [cast.speaker, 'track organizer', false],
  ] as const) {
    const res = await frontEnd(base, user.token).adapter('GET', `/v1/users/${user.id}/events`, {
      query: { include, filter: TABS.live, 'page[size]': 10, 'page[number]': 1 },
    });
    t.equal(res.status, 200, `${who}: 200`);
    const [event] = res.body.data;
    t.equal(event.id, live);
    const included = (type: string) => res.body.included.filter((r: { type: string }) => r.type === type);
    t.strictSame(
      event.relationships['general-statistics'].data,
      sees ? { type: 'event-statistics-general', id: live } : null,
      `${who}: the statistics linked`,
    );
    t.strictSame(
      included('event-statistics-general').map((r: { id: string; attributes: Record<string, unknown> }) => [
        r.id,
        r.attributes.sessions,
        r.attributes['sessions-accepted'],
        r.attributes.sponsors,
      ]),
      sees ? [[live, 1, 1, 0]] : [],
      `${who}: the statistics included`,
    );
    t.equal(included('ticket').length, 1, `${who}: the ticket`);
    t.ok(included('users-events-roles').length > 0, `${who}: the roles`);
    t.ok(included('role').length > 0, `${who}: their role names`);
  }
});
