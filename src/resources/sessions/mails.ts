/**
 * The mails of a session's state changes as the reference words them (app/api/helpers/system_mails.py,
 * `MailType.SESSION_STATE_CHANGE`), served by `GET /v1/sessions/mails`: the front end's notify dialog
 * (app/components/modals/session-notify-modal.js) shows the one of the session's state for the organizer
 * to edit. Placeholders in braces are the reference's.
 */
import { Type, type Static } from '@sinclair/typebox';
import { SESSION_STATES, type SessionState } from './states.js';

const paragraphs = (...lines: string[]) => lines.join('<br/><br/>');

const Mail = Type.Object(
  {
    subject: Type.String({ description: 'the subject, with {placeholders}' }),
    message: Type.String({ description: 'the HTML body, paragraphs separated by <br/><br/>, with {placeholders}' }),
  },
  { additionalProperties: false },
);

// Every state a session may be in has a mail: the reference's (pending to withdrawn), submitted (this service's),
// and draft. The reference has no draft mail, and its front end's notify dialog, present on every row of an
// organizer's session list, fails on a draft's row; here it offers a reminder to send the proposal in.

export const SessionMails = Type.Object(
  {
    recipient: Type.Literal('Speaker', { description: 'who the mails are for' }),
    ...Object.fromEntries(SESSION_STATES.map((state) => [state, Mail])),
  },
  {
    $id: 'SessionMails',
    additionalProperties: false,
    description:
      "the mail of each session state a session's speakers are told about (for a draft: a reminder to send it in)",
  },
);

export const SESSION_MAILS = {
  recipient: 'Speaker',
  draft: {
    subject: 'Your proposal for {event_name} titled {session_name} has not been submitted yet',
    message: paragraphs(
      'Hello,',
      'This is an automatic message from {app_name}.',
      'Your session {session_name} for {event_name} is still a draft: the event organizers and review team will only review it once you submit it.',
      'You can complete and submit it on the session page {session_cfs_link}. You need to be logged in to view it.',
      'More details about the event are on the event page at {event_link}.',
      'Thank you.<br/>{frontend_link}',
    ),
  },
  pending: {
    subject: 'Your speaker submission for {event_name} titled {session_name}',
    message: paragraphs(
      'Hello,',
      'This is an automatic message from {app_name}.',
      'We have received your submission {session_name} for {event_name}',
      'Your proposal will be reviewed by the event organizers and review team. The current status of your session is now "Pending".',
      'You can also check the status and details of your submission on the session page {session_cfs_link}. You need to be logged in to view it.',
      'More details about the event are on the event page at {event_link}.',
      'Thank you.<br/>{frontend_link}',
    ),
  },
  // Not in the reference, which has no submitted state: its pending mail, for this service's state of a
  // proposal sent for review (its speaker's move out of draft).
  submitted: {
    subject: 'Your speaker submission for {event_name} titled {session_name}',
    message: paragraphs(
      'Hello,',
      'This is an automatic message from {app_name}.',
      'We have received your submission {session_name} for {event_name}',
      'Your proposal will be reviewed by the event organizers and review team. The current status of your session is now "Submitted".',
      'You can also check the status and details of your submission on the session page {session_cfs_link}. You need to be logged in to view it.',
      'More details about the event are on the event page at {event_link}.',
      'Thank you.<br/>{frontend_link}',
    ),
  },
  accepted: {
    subject: 'Accepted! Congratulations Your submission for {event_name} titled {session_name} has been Accepted',
    message: paragraphs(
      'Hello,',
      'This is an automatic message from {app_name}.',
      'Your session status for the submission {session_name} for {event_name} was changed to "Accepted". Congratulations!',
      'Your proposal will be scheduled by the event organizers and review team. Please (re)confirm your participation with the organizers of the event, if required.',
      'You can also check the status and details of your submission on the session page {session_cfs_link}. You need to be logged in to view it.',
      'More details about the event are on the event page at {event_link}.',
      'Thank you.<br/>{frontend_link}',
    ),
  },
  confirmed: {
    subject: 'Confirmed! Congratulations Your submission for {event_name} titled {session_name} has been Confirmed',
    message: paragraphs(
      'Hello,',
      'This is an automatic message from {app_name}.',
      'Your session status for the submission {session_name} for {event_name} was changed to "Confirmed". Congratulations!',
      'Your proposal will be scheduled by the event organizers and review team. Please inform the event organizers in case there are any changes to your participation.',
      'You can also check the status and details of your submission on the session page {session_cfs_link}. You need to be logged in to view it.',
      'More details about the event are on the event page at {event_link}.',
      'Thank you.<br/>{frontend_link}',
    ),
  },
  rejected: {
    subject: 'Not Accepted. Your submission for {event_name} titled {session_name} was not accepted',
    message: paragraphs(
      'Hello,',
      'This is an automatic message from {app_name}.',
      'Unfortunately your submission {session_name} for {event_name} was not accepted. Your session status was changed to "Rejected".',
      'The status change was done by event organizers. If there are questions about this change please contact the organizers.',
      'You can also check the status and details of your submission on the session page {session_cfs_link}. You need to be logged in to view it.',
      'More details about the event are on the event page at {event_link}.',
      'Thank you.<br/>{frontend_link}',
    ),
  },
  canceled: {
    subject: 'Canceled! Your submission for {event_name} titled {session_name} has been Canceled',
    message: paragraphs(
      'Hello,',
      'This is an automatic message from {app_name}.',
      'Your session status for the submission {session_name} for {event_name} was changed to "Canceled".',
      'The status change was done by event organizers. If there are questions about this change please contact the organizers.',
      'You can also check the status and details of your submission on the session page {session_cfs_link}. You need to be logged in to view it.',
      'More details about the event are on the event page at {event_link}.',
      'Thank you.<br/>{frontend_link}',
    ),
  },
  withdrawn: {
    subject: 'Withdrawn! Your submission for {event_name} titled {session_name} has been Withdrawn',
    message: paragraphs(
      'Hello,',
      'This is an automatic message from {app_name}.',
      'Your session status for the submission {session_name} for {event_name} was changed to "Withdrawn".',
      'The status change was done by event organizers. If there are questions about this change please contact the organizers.',
      'You can also check the status and details of your submission on the session page {session_cfs_link}. You need to be logged in to view it.',
      'More details about the event are on the event page at {event_link}.',
      'Thank you.<br/>{frontend_link}',
    ),
  },
} as const satisfies Static<typeof SessionMails> & Record<SessionState, unknown>;
