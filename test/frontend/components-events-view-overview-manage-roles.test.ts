/**
 * open-event-frontend `app/components/events/view/overview/manage-roles.js:21-45`: the owner invites an
 * address to a role (`roleInvites.createRecord({})`, `roleName` set from the chosen role, `save()`), the
 * invitee gets a mail with a link to the front end's `/role-invites?token=…` page, and that page
 * (`app/routes/role-invites.js:15-30`) posts the token to `/role_invites/user`, then, logged in with the
 * invited address, to `/role_invites/accept-invite` and goes to the event's dashboard by `event_identifier`.
 * The dashboard lists the invites (`app/routes/events/view/index.js:20-25`: related `role-invites`
 * with `include=role`, related `roles` with `include=user,role`), and `manage-roles.js:90-99` deletes a role.
 */
import { createHash } from 'node:crypto';
import t from 'tap';
import { linkIn, nthMailTo } from '../helpers/auth.js';
import { create, createCast, eventAttributes } from '../helpers/events.js';
import { frontEnd, FRONTEND_ORIGIN } from '../helpers/front-end-client.js';
import { readableByFrontEnd, startForFrontEnd } from '../helpers/front-end-auth.js';

const { apiHost, smtp, app } = await startForFrontEnd(t);
const cast = await createCast(app);
const event = await create(app, cast.owner.token, 'events', 'event', eventAttributes('Roles Summit', 'draft'));

/**
 * A new role invite as ember-data serializes it: every attribute of app/models/role-invite.js:9-16 (email,
 * hash, status default 'pending', created-at default now, role-name), the event and the chosen role.
 */
const inviteBody = (email: string, role: string) => ({
  data: {
    type: 'role-invite',
    attributes: { email, hash: null, status: 'pending', 'created-at': new Date().toISOString(), 'role-name': role },
    relationships: { event: { data: { type: 'event', id: event } }, role: { data: { type: 'role', id: role } } },
  },
});

t.test('invite, mail, accept: the invitee holds the role and sees the draft', async (t) => {
  const owner = frontEnd(apiHost, cast.owner.token);
  // add-user-role-modal lists findAll('role') (app/routes/events/view/settings/options.js:41).
  const roles = await owner.adapter('GET', '/v1/roles');
  t.equal(roles.status, 200);
  t.strictSame(roles.body.data.map((r: { id: string }) => r.id).sort(), [
    'coorganizer',
    'moderator',
    'organizer',
    'owner',
    'registrar',
    'track_organizer',
  ]);
  t.equal(
    roles.body.data.find((r: { id: string }) => r.id === 'track_organizer').attributes['title-name'],
    'Track Organizer',
  );

  const invited = await owner.adapter('POST', '/v1/role-invites', {
    body: inviteBody(cast.other.email, 'track_organizer'),
  });
  t.equal(invited.status, 201);
  readableByFrontEnd(t, invited, 'invite');
  t.match(invited.body.data.attributes, { email: cast.other.email, status: 'pending', 'role-name': 'track_organizer' });
  t.notOk('hash' in invited.body.data.attributes, 'the token is never returned');
  t.strictSame(invited.body.data.relationships.role.data, { type: 'role', id: 'track_organizer' });

  const mail = await nthMailTo(smtp, cast.other.email);
  t.match(mail.parsed.subject, /Track Organizer of Roles Summit/);
  const { url, token } = linkIn(mail, '/role-invites');
  t.equal(`${url.origin}${url.pathname}`, `${FRONTEND_ORIGIN}/role-invites`);

  // role-invites.js:21: who is invited, asked without a login.
  const who = await frontEnd(apiHost).loader('POST', '/v1/role_invites/user', { data: { token } });
  t.strictSame(who.body, { email: cast.other.email });
  // Another account may not take the role.
  const stranger = await frontEnd(apiHost, cast.speaker.token).loader('POST', '/v1/role_invites/accept-invite', {
    data: { token },
  });
  t.equal(stranger.status, 403);

  const invitee = frontEnd(apiHost, cast.other.token);
  t.equal((await invitee.adapter('GET', `/v1/events/${event}`)).status, 404, 'a draft is hidden before');
  const accepted = await invitee.loader('POST', '/v1/role_invites/accept-invite', { data: { token } });
  t.equal(accepted.status, 200);
  const identifier = (await owner.adapter('GET', `/v1/events/${event}`)).body.data.attributes.identifier;
  t.match(accepted.body, {
    email: cast.other.email,
    event: Number(event),
    event_identifier: identifier,
    role: 'track_organizer',
  });
  t.equal(
    (await invitee.loader('POST', '/v1/role_invites/accept-invite', { data: { token } })).status,
    200,
    'accepting again is harmless',
  );

  t.equal((await invitee.adapter('GET', `/v1/events/${event}`)).status, 200, 'the team sees the draft');
  const rename = { data: { type: 'event', id: event, attributes: { name: 'Mine now' } } };
  t.equal((await invitee.adapter('PATCH', `/v1/events/${event}`, { body: rename })).status, 403, 'but changes nothing');
  const me = await invitee.adapter('GET', `/v1/users/${cast.other.id}`, {
    query: { include: 'track-organizer-events' },
  });
  t.match(me.body.data.attributes, {
    'is-user-track-organizer': true,
    'is-user-organizer': false,
    'is-user-owner': false,
    'is-verified': true,
  });
  t.strictSame(me.body.data.relationships['track-organizer-events'].data, [{ type: 'event', id: event }]);

  // The dashboard (events/view/index.js:20-25).
  const invites = await owner.adapter('GET', `/v1/events/${event}/role-invites`, { query: { include: 'role' } });
  t.strictSame(
    invites.body.data.map((i: { attributes: { status: string } }) => i.attributes.status),
    ['accepted'],
  );
  t.equal(invites.body.included[0].attributes['title-name'], 'Track Organizer');
  const held = await owner.adapter('GET', `/v1/events/${event}/roles`, { query: { include: 'user,role' } });
  const pairs = held.body.data.map(
    (r: { relationships: { user: { data: { id: string } }; role: { data: { id: string } } } }) =>
      `${r.relationships.role.data.id}:${r.relationships.user.data.id}`,
  );
  t.strictSame(pairs.sort(), [`owner:${cast.owner.id}`, `track_organizer:${cast.other.id}`].sort());

  // manage-roles.js:93 eventRole.destroyRecord(): the owner removes the role; the owner's own stays.
  const roleOf = (name: string) =>
    held.body.data.find(
      (r: { relationships: { role: { data: { id: string } } } }) => r.relationships.role.data.id === name,
    ).id;
  t.equal((await owner.adapter('DELETE', `/v1/users-events-roles/${roleOf('owner')}`)).status, 403);
  t.equal(
    (await invitee.adapter('DELETE', `/v1/users-events-roles/${roleOf('track_organizer')}`)).status,
    403,
    'not by the holder',
  );
  t.equal((await owner.adapter('DELETE', `/v1/users-events-roles/${roleOf('track_organizer')}`)).status, 200);
  t.equal((await invitee.adapter('GET', `/v1/events/${event}`)).status, 404, 'the draft is hidden again');
});

t.test('refused invites: bad input, non-organizers, duplicates; declining; deleting', async (t) => {
  const owner = frontEnd(apiHost, cast.owner.token);
  const before = (await owner.adapter('GET', `/v1/events/${event}/role-invites`)).body.data.length;
  const bad = async (body: unknown, status: number, what: string) =>
    t.equal((await owner.adapter('POST', '/v1/role-invites', { body })).status, status, what);
  const good = inviteBody('someone@example.org', 'moderator');
  await bad({ data: { ...good.data, attributes: { ...good.data.attributes, email: 'not an address' } } }, 422, 'email');
  await bad(
    { data: { ...good.data, attributes: { ...good.data.attributes, email: `${'a'.repeat(250)}@example.org` } } },
    422,
    'email too long',
  );
  await bad(
    { data: { ...good.data, attributes: { ...good.data.attributes, 'role-name': 'king' } } },
    422,
    'unknown role name',
  );
  await bad(
    { data: { ...good.data, attributes: { ...good.data.attributes, 'role-name': 'organizer' } } },
    422,
    'role-name disagrees with role',
  );
  await bad(
    { data: { ...good.data, attributes: { ...good.data.attributes, status: 'accepted' } } },
    422,
    'a new invite is pending',
  );
  await bad(
    { data: { ...good.data, attributes: { ...good.data.attributes, hash: 'chosen' } } },
    422,
    "the token is the server's",
  );
  await bad({ data: { ...good.data, attributes: { ...good.data.attributes, colour: 'red' } } }, 422, 'unknown member');
  await bad(
    {
      data: {
        ...good.data,
        attributes: { ...good.data.attributes, 'role-name': null },
        relationships: { event: good.data.relationships.event, role: { data: { type: 'role', id: 'king' } } },
      },
    },
    404,
    'unknown role',
  );
  await bad(
    {
      data: {
        ...good.data,
        attributes: { ...good.data.attributes, 'role-name': null },
        relationships: { event: good.data.relationships.event },
      },
    },
    422,
    'no role',
  );
  t.equal((await owner.adapter('GET', `/v1/events/${event}/role-invites`)).body.data.length, before, 'nothing written');

  const organizer = frontEnd(apiHost, cast.coorganizer.token);
  t.equal(
    (await organizer.adapter('POST', '/v1/role-invites', { body: good })).status,
    404,
    'strangers do not see the draft',
  );

  const first = await owner.adapter('POST', '/v1/role-invites', { body: inviteBody('twice@example.org', 'registrar') });
  t.equal(first.status, 201);
  t.equal(
    (await owner.adapter('POST', '/v1/role-invites', { body: inviteBody('Twice@example.org', 'registrar') })).status,
    409,
  );
  t.equal(
    (
      await owner.adapter('PATCH', `/v1/role-invites/${first.body.data.id}`, {
        body: { data: { type: 'role-invite', id: first.body.data.id, attributes: { status: 'accepted' } } },
      })
    ).status,
    403,
    'an invite is never changed',
  );

  const resent = await owner.loader('POST', `/v1/role-invites/${first.body.data.id}/resend-invite`, {});
  t.match(resent.body, { success: true });
  const { token } = linkIn(await nthMailTo(smtp, 'twice@example.org', 2), '/role-invites');
  const declined = await frontEnd(apiHost).loader('POST', '/v1/role_invites/decline-invite', { data: { token } });
  t.equal(declined.status, 200);
  const read = await owner.adapter('GET', `/v1/role-invites/${first.body.data.id}`);
  t.equal(read.body.data.attributes.status, 'declined');
  t.equal(
    (await frontEnd(apiHost, cast.other.token).loader('POST', '/v1/role_invites/accept-invite', { data: { token } }))
      .status,
    403,
  );
  t.equal((await frontEnd(apiHost).loader('POST', '/v1/role_invites/user', { data: { token: 'nope' } })).status, 404);
  t.equal(
    (await owner.adapter('DELETE', `/v1/role-invites/${first.body.data.id}`)).status,
    200,
    'a declined invite is deleted',
  );
});

t.test('an owner invite transfers the event; the previous owner stays an organizer', async (t) => {
  const owner = frontEnd(apiHost, cast.owner.token);
  const mine = await create(app, cast.owner.token, 'events', 'event', eventAttributes('Handed over'));
  const body = inviteBody(cast.organizer.email, 'owner');
  body.data.relationships.event.data.id = mine;
  t.equal((await owner.adapter('POST', '/v1/role-invites', { body })).status, 201);
  const { token } = linkIn(await nthMailTo(smtp, cast.organizer.email), '/role-invites');
  t.equal(
    (
      await frontEnd(apiHost, cast.organizer.token).loader('POST', '/v1/role_invites/accept-invite', {
        data: { token },
      })
    ).status,
    200,
  );
  const read = await owner.adapter('GET', `/v1/events/${mine}`, { query: { include: 'owner,organizers' } });
  t.strictSame(read.body.data.relationships.owner.data, { type: 'user', id: cast.organizer.id });
  t.strictSame(read.body.data.relationships.organizers.data, [{ type: 'user', id: cast.owner.id }]);
});

t.test('the mailed token is kept as its SHA-256 only, expires, and a resend replaces it', async (t) => {
  const owner = frontEnd(apiHost, cast.owner.token);
  const invitee = frontEnd(apiHost, cast.coorganizer.token);
  const mine = await create(app, cast.owner.token, 'events', 'event', eventAttributes('Expiring invites'));
  const body = inviteBody(cast.coorganizer.email, 'organizer');
  body.data.relationships.event.data.id = mine;
  const invited = await owner.adapter('POST', '/v1/role-invites', { body });
  t.equal(invited.status, 201);
  const id = Number(invited.body.data.id);
  const first = linkIn(await nthMailTo(smtp, cast.coorganizer.email), '/role-invites');
  const stored = async () =>
    (
      await app.sql<{ hash: string; created_at: Date; left: number }[]>`
        select hash, created_at, extract(epoch from expires_at - now())::float8 as left from role_invites where id = ${id}`
    )[0]!;
  const row = await stored();
  t.not(row.hash, first.token, 'the token itself is not stored');
  t.equal(row.hash, createHash('sha256').update(first.token).digest('hex'), 'its SHA-256 is');
  t.ok(row.left > 86400 - 120 && row.left <= 86400, `valid for INVITE_EXPIRES_IN (a day) from the mail: ${row.left} s`);
  const mail = (await nthMailTo(smtp, cast.coorganizer.email)).parsed.text ?? '';
  t.match(mail, 'within 1 day', 'the mail says how long the link works');

  // Thirty days later (the reference kept such an invite good for ever): the link answers 410 naming the expiry,
  // and the role is not granted.
  await app.sql`update role_invites set created_at = now() - interval '30 days',
                expires_at = now() - interval '29 days' where id = ${id}`;
  for (const path of ['/v1/role_invites/accept-invite', '/v1/role_invites/user', '/v1/role_invites/decline-invite']) {
    const late = await invitee.loader('POST', path, { data: { token: first.token } });
    t.equal(late.status, 410, `${path}: gone`);
    t.match(late.body.errors[0].detail, /expired at \d{4}-\d\d-\d\dT.*send the invite again/, `${path}: says so`);
  }
  const afterExpiry = await owner.adapter('GET', `/v1/events/${mine}/roles`, { query: { include: 'user' } });
  t.notOk(
    afterExpiry.body.data.some(
      (r: { relationships: { user: { data: { id: string } } } }) =>
        r.relationships.user.data.id === cast.coorganizer.id,
    ),
    'no role from an expired link',
  );
  t.equal((await owner.adapter('GET', `/v1/role-invites/${id}`)).body.data.attributes.status, 'pending');

  // The organizers send it again: a new link, good for a day, and the old one no longer names the invite.
  t.match((await owner.loader('POST', `/v1/role-invites/${id}/resend-invite`, {})).body, { success: true });
  const second = linkIn(await nthMailTo(smtp, cast.coorganizer.email, 2), '/role-invites');
  t.not(second.token, first.token);
  t.equal((await invitee.loader('POST', '/v1/role_invites/user', { data: { token: first.token } })).status, 404);
  const accepted = await invitee.loader('POST', '/v1/role_invites/accept-invite', { data: { token: second.token } });
  t.equal(accepted.status, 200);
  t.equal(accepted.body.role, 'organizer');
});
