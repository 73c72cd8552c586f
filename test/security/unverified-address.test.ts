/**
 * An address grants nothing until its account has verified it. An organiser types a speaker's address
 * (`app/components/forms/session-speaker-form.js` of open-event-frontend) and invites co-speakers by address;
 * anyone may register that address (app/controllers/register.js) without holding it. Before verifying, that
 * account must not act as the speaker: read the session, its invitees' addresses, send invite mails in the
 * event's name, join the event's streams, or answer an invite to the address. After verifying, it does all that.
 */
import t from 'tap';
import { linkIn, mailsTo, nthMailTo } from '../helpers/auth.js';
import { buildWorld, create, rel } from '../helpers/events.js';
import { frontEnd } from '../helpers/front-end-client.js';
import { simpleAuth, startForFrontEnd } from '../helpers/front-end-auth.js';

const { apiHost, app, smtp } = await startForFrontEnd(t);
/** The setup's answers are checked before the tests start (tap takes no assertion between top-level awaits). */
const ok = (answer: { status: number; body: unknown }, status: number) => {
  if (answer.status !== status) throw new Error(`setup: ${answer.status} ${JSON.stringify(answer.body)}`);
};
const world = await buildWorld(app);
const { event } = world.published;
const { owner } = world.cast;
const typed = `typed-${process.pid}@example.org`;
const password = 'not my address';

// The organiser's records: a speaker by address only, their submitted (pending, so not public) session, a
// pending co-speaker invite on it, and an invitation of the typed address to the event's public session.
const speaker = await create(
  app,
  owner.token,
  'speakers',
  'speaker',
  { name: 'Typed', email: typed },
  {
    event: rel('event', event),
  },
);
/** A talk of the typed speaker's, in `state`. */
const talk = (title: string, state: string) =>
  create(
    app,
    owner.token,
    'sessions',
    'session',
    { title, state },
    { event: rel('event', event), speakers: { data: [{ type: 'speaker', id: speaker }] } },
  );
const session = await talk('Submitted talk', 'pending');
// An accepted talk of theirs too: its speakers may join the event's streams (app/api/events.py has_streams).
await talk('Accepted talk', 'accepted');
const inviteBody = (email: string, sessionId: string) => ({
  data: {
    type: 'speaker-invite',
    attributes: { email, status: 'pending', 'created-at': new Date().toISOString() },
    relationships: { event: rel('event', event), session: rel('session', sessionId) },
  },
});
const organiser = frontEnd(apiHost, owner.token);
const coSpeaker = await organiser.adapter('POST', '/v1/speaker-invites', {
  body: inviteBody(`co-${process.pid}@example.org`, session),
});
ok(coSpeaker, 201);
const toTyped = await organiser.adapter('POST', '/v1/speaker-invites', {
  body: inviteBody(typed, world.published.session),
});
ok(toTyped, 201);

// Someone registers the typed address as the front end does, and logs in without opening the mailed link.
const registered = await frontEnd(apiHost).adapter('POST', '/v1/users', {
  body: { data: { type: 'user', attributes: { email: typed, password, 'was-registered-with-order': false } } },
});
ok(registered, 201);
const login = await simpleAuth(`${apiHost}/auth/session`, { username: typed, password });
ok(login, 200);
const claimer = frontEnd(apiHost, login.body.access_token);
const victim = `victim-${process.pid}@example.org`;

t.test('unverified, the address is no speaker, invitee or guest', async (t) => {
  t.equal((await claimer.adapter('GET', `/v1/sessions/${session}`)).status, 404, 'the submitted session is hidden');
  t.equal(
    (await claimer.adapter('GET', `/v1/sessions/${session}/speaker-invites`)).status,
    404,
    "the invitees' addresses are hidden",
  );
  const all = await claimer.adapter('GET', '/v1/speaker-invites');
  t.equal(all.status, 200);
  t.same(all.body.data, [], 'no invite is listed, not even the one to the address');
  const sent = await claimer.adapter('POST', '/v1/speaker-invites', { body: inviteBody(victim, session) });
  t.equal(sent.status, 404, 'no invite mail in the event name');
  const onPublic = await claimer.adapter('POST', '/v1/speaker-invites', {
    body: inviteBody(victim, world.published.session),
  });
  t.equal(onPublic.status, 403, 'not on the public session either');
  t.equal(mailsTo(smtp, victim).length, 0);
  t.same(
    (await claimer.adapter('GET', `/v1/events/${event}/has-streams`)).body,
    { exists: false, can_access: false },
    'no guest of the streams as a speaker',
  );
  const answer = await claimer.loader('GET', `/v1/speaker-invites/${toTyped.body.data.id}/accept-invite`);
  t.equal(answer.status, 403, 'the invitee is told to verify first');
  t.match(answer.body.errors[0].detail, /Verify your email address/);
});

t.test('verified, the same login is the speaker', async (t) => {
  // The address has two mails: the invitation and the verification link.
  await nthMailTo(smtp, typed, 2);
  const mail = mailsTo(smtp, typed).find((m) => m.parsed.subject?.startsWith('Confirm your email address'))!;
  const { token } = linkIn(mail, '/verify');
  t.equal((await claimer.loader('POST', '/v1/auth/verify-email', { data: { token } })).status, 200);
  t.equal((await claimer.adapter('GET', `/v1/sessions/${session}`)).status, 200, 'the session is theirs');
  const invites = await claimer.adapter('GET', `/v1/sessions/${session}/speaker-invites`);
  t.equal(invites.status, 200);
  t.same(
    invites.body.data.map((i: { id: string }) => i.id),
    [coSpeaker.body.data.id],
  );
  t.same(
    (await claimer.adapter('GET', '/v1/speaker-invites')).body.data.map((i: { id: string }) => i.id).sort(),
    [coSpeaker.body.data.id, toTyped.body.data.id].sort(),
  );
  const sent = await claimer.adapter('POST', '/v1/speaker-invites', { body: inviteBody(victim, session) });
  t.equal(sent.status, 201, 'a speaker invites co-speakers');
  await nthMailTo(smtp, victim);
  t.same(
    (await claimer.adapter('GET', `/v1/events/${event}/has-streams`)).body,
    { exists: false, can_access: true },
    'a guest of the streams as the speaker of an accepted talk',
  );
});
