/**
 * open-event-frontend:app/components/modals/session-notify-modal.js:29-62: the notify dialog of the
 * organizers' sessions list loads `/sessions/mails` once through the loader and shows
 * `mails[sessionState]`: its subject, and its message with `<br/>` turned into line breaks. The mails are
 * the reference's (app/api/helpers/system_mails.py, MailType.SESSION_STATE_CHANGE), plus one for this
 * service's submitted state and one for drafts: the dialog is on every row of the list, a draft's too, and the
 * reference had no draft mail (its front end failed on a draft's row).
 */
import t from 'tap';
import { buildTestApp } from '../helpers/app.js';
import { frontEnd, listening } from '../helpers/front-end-client.js';
import { seedUser } from '../helpers/users.js';

const { app } = await buildTestApp(t);
const base = await listening(app);

/** The reference's withdrawn mail, word for word. */
const WITHDRAWN = {
  subject: 'Withdrawn! Your submission for {event_name} titled {session_name} has been Withdrawn',
  message:
    'Hello,<br/><br/>This is an automatic message from {app_name}.<br/><br/>Your session status for the submission ' +
    '{session_name} for {event_name} was changed to "Withdrawn".<br/><br/>The status change was done by event ' +
    'organizers. If there are questions about this change please contact the organizers.<br/><br/>You can also ' +
    'check the status and details of your submission on the session page {session_cfs_link}. You need to be logged ' +
    'in to view it.<br/><br/>More details about the event are on the event page at {event_link}.<br/><br/>' +
    'Thank you.<br/>{frontend_link}',
};

t.test('the mails by state, as the dialog reads them', async (t) => {
  const res = await frontEnd(base).loader('GET', '/v1/sessions/mails');
  t.equal(res.status, 200);
  t.equal(res.headers.get('content-type'), 'application/json; charset=utf-8');
  t.equal(res.headers.get('access-control-allow-origin'), '*');
  const mails = res.body as Record<string, { subject: string; message: string }> & { recipient: string };
  t.strictSame(Object.keys(mails), [
    'recipient',
    'draft',
    'pending',
    'submitted',
    'accepted',
    'confirmed',
    'rejected',
    'canceled',
    'withdrawn',
  ]);
  t.equal(mails.recipient, 'Speaker');
  t.strictSame(mails.withdrawn, WITHDRAWN);
  t.equal(
    mails.accepted.subject,
    'Accepted! Congratulations Your submission for {event_name} titled {session_name} has been Accepted',
  );
  t.equal(
    mails.rejected.subject,
    'Not Accepted. Your submission for {event_name} titled {session_name} was not accepted',
  );
  t.match(mails.submitted.message, 'The current status of your session is now "Submitted".');
  t.match(mails.draft.subject, 'has not been submitted yet');
  // The dialog's state is the session's (cell-notify.hbs: @sessionState={{@extraRecords.status}}): every
  // state of its lists has a mail, shown with line breaks for <br/>.
  for (const state of ['draft', 'pending', 'submitted', 'accepted', 'confirmed', 'rejected', 'canceled', 'withdrawn']) {
    const shown = mails[state]!.message.replace(/<br\/>/g, '\n');
    t.ok(shown.startsWith('Hello,\n\nThis is an automatic message from {app_name}.'), `${state}: shown`);
    t.notOk(shown.includes('<'), `${state}: no other markup`);
  }
  const signedIn = await frontEnd(base, (await seedUser(app)).token).loader('GET', '/v1/sessions/mails');
  t.strictSame(signedIn.body, res.body, 'the same for anyone');
});

t.test('the route takes no parameters of its own', async (t) => {
  t.equal((await frontEnd(base).loader('GET', '/v1/sessions/mails?cache=true')).status, 200);
  const res = await frontEnd(base).loader('GET', '/v1/sessions/mails?state=accepted');
  t.equal(res.status, 400);
  t.match(res.body.errors[0], { status: '400', source: { parameter: 'state' } });
});
