/**
 * Speaker invites in open-event-frontend: a session's speaker (or organizer) adds an address in the session
 * form (`app/components/forms/session-speaker-form.js:470-500`: `createRecord('speaker-invite', {email,
 * session, event})`, saved after the session, `:437-445`); the invitee finds it on the call for speakers
 * page (`app/routes/public/cfs/index.js:56-73`: the event's `speakerInvites` with email eq and status eq
 * pending, `include: 'event,session'`), opens it (`app/routes/public/speaker-invite/view-session.js:13-20`:
 * `findRecord('speaker-invite', id, {include: 'session,event'})`, then its `session` with
 * `include: 'session-type,speakers,track,event,speaker-invites'`) and accepts or rejects it through the
 * loader (`app/controllers/public/speaker-invite/view-session.js:27,53`: GET `…/accept-invite`, `…/reject-invite`).
 *
 * A speaker invite as ember-data serializes it: `email`, `status` (default 'pending') and `created-at`
 * (default: now, in the browser's zone) from `app/models/speaker-invite.js:9-12`, and `event`, `session`.
 */
import t from 'tap';
import { eq } from 'drizzle-orm';
import { users } from '../../db/schema/index.js';
import { nthMailTo, mailsTo } from '../helpers/auth.js';
import { buildWorld, create, rel } from '../helpers/events.js';
import { frontEnd, FRONTEND_ORIGIN } from '../helpers/front-end-client.js';
import { startForFrontEnd } from '../helpers/front-end-auth.js';
import { seedUser } from '../helpers/users.js';

const { apiHost, app, smtp } = await startForFrontEnd(t);
const world = await buildWorld(app);
const { event, identifier, session } = world.published;
const { speaker, organizer, other, owner } = world.cast;
const invitee = await seedUser(app);
/** The account's address verified, as its verification link does. */
const verified = async <T extends { id: string }>(user: T) => {
  await app.db
    .update(users)
    .set({ isVerified: true })
    .where(eq(users.id, Number(user.id)));
  return user;
};

const inviteBody = (email: string, sessionId = session) => ({
  data: {
    type: 'speaker-invite',
    attributes: { email, status: 'pending', 'created-at': new Date().toISOString() },
    relationships: { event: rel('event', event), session: rel('session', sessionId) },
  },
});
const invite = (token: string, email: string, sessionId?: string) =>
  frontEnd(apiHost, token).adapter('POST', '/v1/speaker-invites', { body: inviteBody(email, sessionId) });
const cfsInvites = (user: { email: string; token: string }) =>
  frontEnd(apiHost, user.token).adapter('GET', `/v1/events/${identifier}/speaker-invites`, {
    query: {
      filter: [
        {
          and: [
            { name: 'email', op: 'eq', val: user.email },
            { name: 'status', op: 'eq', val: 'pending' },
          ],
        },
      ],
      include: 'event,session',
    },
  });

t.test('a speaker invites a co-speaker, who gets the mail, opens the invite and accepts it', async (t) => {
  const created = await invite(speaker.token, ` ${invitee.email} `);
  t.equal(created.status, 201, JSON.stringify(created.body));
  const id = created.body.data.id as string;
  t.match(created.body.data.attributes, { email: invitee.email, status: 'pending', 'created-at': String });

  const mail = await nthMailTo(smtp, invitee.email);
  t.match(mail.parsed.subject, /Invitation to speak at Open Summit/);
  t.ok(
    mail.parsed.text!.includes(`${FRONTEND_ORIGIN}/e/${identifier}/speaker-invite/${id}/session`),
    'the link to the invite page',
  );
  t.ok(mail.parsed.text!.includes(speaker.email), 'who invites');

  t.equal((await invite(speaker.token, invitee.email)).status, 409, 'one pending invite per address');
  t.equal((await invite(speaker.token, `ada-${event}@example.com`)).status, 409, 'not a current speaker');
  t.equal((await invite(other.token, 'someone@example.com')).status, 403, 'only its speakers and organizers');
  t.equal(mailsTo(smtp, 'someone@example.com').length, 0);

  // The address proves nothing until the invitee's account has verified it (anyone may register it).
  t.same((await cfsInvites(invitee)).body.data, [], 'not listed to an unverified account of the address');
  t.equal(
    (await frontEnd(apiHost, invitee.token).loader('GET', `/v1/speaker-invites/${id}/accept-invite`)).status,
    403,
    'the invitee must be verified',
  );
  await verified(invitee);

  const listed = await cfsInvites(invitee);
  t.equal(listed.status, 200);
  t.same(
    listed.body.data.map((i: { id: string }) => i.id),
    [id],
    'the call for speakers page lists it',
  );
  t.same(listed.body.included.map((r: { type: string }) => r.type).sort(), ['event', 'session']);
  t.same((await cfsInvites(other)).body.data, [], 'not to others');

  const found = await frontEnd(apiHost, invitee.token).adapter('GET', `/v1/speaker-invites/${id}`, {
    query: { include: 'session,event' },
  });
  t.equal(found.status, 200);
  const related = await frontEnd(apiHost, invitee.token).adapter('GET', `/v1/speaker-invites/${id}/session`, {
    query: { include: 'session-type,speakers,track,event,speaker-invites' },
  });
  t.equal(related.status, 200);
  t.same(
    related.body.data.relationships['speaker-invites'].data,
    [{ type: 'speaker-invite', id }],
    "the session's invites: the invitee's own",
  );
  t.equal(
    (await frontEnd(apiHost, other.token).adapter('GET', `/v1/speaker-invites/${id}`)).status,
    404,
    'hidden from strangers',
  );

  const accept = (token: string) => frontEnd(apiHost, token).loader('GET', `/v1/speaker-invites/${id}/accept-invite`);
  t.equal((await accept(speaker.token)).status, 403, 'only the invitee answers');
  t.equal((await accept(other.token)).status, 404);
  t.equal((await accept(invitee.token)).status, 422, 'with speaker details in the event');
  const mine = await create(
    app,
    owner.token,
    'speakers',
    'speaker',
    { name: 'Grace', email: invitee.email },
    { event: rel('event', event) },
  );

  const accepted = await accept(invitee.token);
  t.equal(accepted.status, 200, JSON.stringify(accepted.body));
  t.match(accepted.body, {
    email: invitee.email,
    event: Number(event),
    event_identifier: identifier,
    session: Number(session),
    speaker: Number(mine),
  });
  const now = await frontEnd(apiHost, invitee.token).adapter('GET', `/v1/sessions/${session}`, {
    query: { include: 'speakers,speaker-invites' },
  });
  t.ok(
    now.body.data.relationships.speakers.data.some((s: { id: string }) => s.id === mine),
    'a speaker of the session',
  );
  t.equal(now.body.included.find((r: { type: string }) => r.type === 'speaker-invite').attributes.status, 'accepted');
  t.equal((await accept(invitee.token)).status, 409, 'answered once');
  t.equal(
    (await frontEnd(apiHost, invitee.token).loader('GET', `/v1/speaker-invites/${id}/reject-invite`)).status,
    409,
  );
  t.equal(
    (await frontEnd(apiHost, speaker.token).adapter('DELETE', `/v1/speaker-invites/${id}`)).status,
    409,
    'an accepted invite stays',
  );
});

t.test('an organizer invites to a session not yet public, the invitee sees it and rejects', async (t) => {
  const draft = await create(
    app,
    owner.token,
    'sessions',
    'session',
    { title: 'Workshop' },
    { event: rel('event', event) },
  );
  const second = await verified(await seedUser(app));
  t.equal(
    (await frontEnd(apiHost, second.token).adapter('GET', `/v1/sessions/${draft}`)).status,
    404,
    'a draft session is hidden',
  );
  const created = await invite(organizer.token, second.email, draft);
  t.equal(created.status, 201);
  const id = created.body.data.id as string;
  await nthMailTo(smtp, second.email);
  t.equal(
    (await frontEnd(apiHost, second.token).adapter('GET', `/v1/speaker-invites/${id}/session`)).status,
    200,
    'the invitee sees the session',
  );
  const rejected = await frontEnd(apiHost, second.token).loader('GET', `/v1/speaker-invites/${id}/reject-invite`);
  t.equal(rejected.status, 200);
  t.same(rejected.body, { success: true, message: 'Speaker invite rejected successfully' });
  t.equal(
    (await frontEnd(apiHost, second.token).adapter('GET', `/v1/sessions/${draft}`)).status,
    404,
    'no longer once answered',
  );
  const seen = await frontEnd(apiHost, organizer.token).adapter('GET', `/v1/speaker-invites/${id}`);
  t.equal(seen.body.data.attributes.status, 'rejected');
  const again = await invite(organizer.token, second.email, draft);
  t.equal(again.status, 201, 'invited again after a rejection');
  // deleteSpeakerInvite (session-speaker-form.js:503-508): a pending invite is withdrawn.
  t.equal(
    (await frontEnd(apiHost, second.token).adapter('DELETE', `/v1/speaker-invites/${again.body.data.id}`)).status,
    403,
    'not by the invitee',
  );
  t.equal(
    (await frontEnd(apiHost, organizer.token).adapter('DELETE', `/v1/speaker-invites/${again.body.data.id}`)).status,
    200,
  );
  t.equal(
    (
      await frontEnd(apiHost, organizer.token).adapter('PATCH', `/v1/speaker-invites/${id}`, {
        body: { data: { type: 'speaker-invite', id, attributes: { status: 'accepted' } } },
      })
    ).status,
    403,
    'answers go through accept-invite',
  );
});
