import { and, eq, isNull, sql } from 'drizzle-orm';
import { emailNotifications, messageSettings, users } from '../db/schema/index.js';
import type { Db } from './db.js';

/** A user's per-event choices of the mails it receives (the reference's email_notifications). */
export type NotificationChoice = 'afterTicketPurchase' | 'newPaper' | 'sessionAcceptReject' | 'sessionSchedule';

/**
 * One kind of mail an administrator switches on or off (the reference's MailType, app/api/helpers/system_mails.py):
 * the message setting's action, the actions of the mails this service sends under it, and what the admin page shows.
 */
export interface MessageAction {
  action: string;
  mails: string[];
  recipient: string;
  subject: string;
  message: string;
  /**
   * Mails a user cannot do without (the link that proves an address, the one that resets a lost password): always
   * sent. The reference lets an administrator switch them off, which locks out whoever registers or forgets a password.
   */
  always?: boolean;
  /** The recipient's per-event choice that also decides it (the mail names its event). */
  choice?: NotificationChoice;
}

/** Every kind of mail the service sends, in the order the admin page lists them (the seeds of migration 0034). */
export const MESSAGE_ACTIONS: MessageAction[] = [
  {
    action: 'event_role',
    mails: ['role-invite'],
    recipient: 'User',
    subject: 'Invitation to be {role} of {event} at {app_name}',
    message: 'Hello,<br/><br/>You have been invited to be {role} of {event}. Accept the invitation at {link}.',
  },
  {
    action: 'speaker_invite',
    mails: ['speaker-invite'],
    recipient: 'User',
    subject: 'Invitation to speak at {event}',
    message: 'Hello,<br/><br/>You have been invited to speak at {event} about {session}. Answer at {link}.',
  },
  {
    action: 'ticket_purchased',
    mails: ['ticket-purchased', 'receipt'],
    recipient: 'User',
    subject: 'See you at {event} on {date} ({invoice_number})',
    message: 'Hello {name},<br/><br/>Thank you for your order: your tickets and the invoice are attached.',
    choice: 'afterTicketPurchase',
  },
  {
    action: 'ticket_purchased_attendee',
    mails: ['ticket-purchased-attendee', 'receipt-attendee'],
    recipient: 'Attendee',
    subject: 'Your tickets for {event} on {date} ({invoice_number})',
    message: 'Hello {name},<br/><br/>{buyer} ordered tickets for you: they are attached.',
    choice: 'afterTicketPurchase',
  },
  {
    action: 'ticket_purchased_organizer',
    mails: ['ticket-purchased-organizer'],
    recipient: 'Owner, Organizer, Coorganizer',
    subject: 'New order for {event} on {date} by {buyer} ({invoice_number})',
    message: 'Hello,<br/><br/>{buyer} ordered tickets for {event}: {tickets}.',
    choice: 'afterTicketPurchase',
  },
  {
    action: 'event_exported',
    mails: ['export-done'],
    recipient: 'User',
    subject: 'Event {event_name} has been exported',
    message: 'Hello,<br/><br/>The export of {event_name} is ready: download it at {download_url}.',
  },
  {
    action: 'event_export_fail',
    mails: ['export-failed'],
    recipient: 'User',
    subject: 'Export of event {event_name} failed',
    message: 'Hello,<br/><br/>The export of {event_name} failed: {error_text}.',
  },
  {
    action: 'event_imported',
    mails: ['import-done'],
    recipient: 'User',
    subject: 'Event {event_name} has been imported',
    message: 'Hello,<br/><br/>{event_name} has been imported: see it at {event_url}.',
  },
  {
    action: 'event_import_fail',
    mails: ['import-failed'],
    recipient: 'User',
    subject: 'Import of event failed',
    message: 'Hello,<br/><br/>The import of your event failed: {error_text}.',
  },
  {
    action: 'user_confirmation',
    mails: ['verify-email'],
    recipient: 'User',
    subject: 'Confirm your email address for {app_name}',
    message: 'Hello,<br/><br/>Please confirm that {email} is your address at {app_name} by opening {link}.',
    always: true,
  },
  {
    action: 'password_reset',
    mails: ['reset-password'],
    recipient: 'User',
    subject: 'Reset your password for {app_name}',
    message:
      'Hello,<br/><br/>Someone asked to reset the password of {email} at {app_name}: choose a new one at {link}.',
    always: true,
  },
  {
    action: 'password_change',
    mails: ['password-changed'],
    recipient: 'User',
    subject: 'Your password for {app_name} was changed',
    message:
      'Hello,<br/><br/>The password of {email} at {app_name} was just changed, and your other logins were ended.',
  },
  {
    action: 'app_generated',
    mails: ['app-ready'],
    recipient: 'User',
    subject: 'Your app "{app_name}" is ready',
    message: 'Hello,<br/><br/>Your app {app_name} is built: download it at {download_url}.',
  },
  {
    action: 'app_generation_fail',
    mails: ['app-failed'],
    recipient: 'User',
    subject: 'Your app {app_name} could not be built',
    message: 'Hello,<br/><br/>Your app {app_name} could not be built: {error_text}. The build log is attached.',
  },
];

const byMail = new Map(MESSAGE_ACTIONS.flatMap((a) => a.mails.map((mail) => [mail, a] as const)));

/** The kind of mail a mail's action belongs to (undefined for mails of no kind: always sent). */
export const messageActionOf = (mailAction: string) => byMail.get(mailAction);

/**
 * Whether a mail goes out: its kind is switched on (a kind without a setting is, as the reference's
 * MessageSettings.is_enabled), and the recipient, where it is a user who chose for the mail's event, did not opt out.
 * Both are read in one statement.
 */
export async function mailWanted(db: Db, mailAction: string, address: string, eventId?: number): Promise<boolean> {
  const kind = messageActionOf(mailAction);
  if (!kind || kind.always) return true;
  const choice = kind.choice && eventId !== undefined ? emailNotifications[kind.choice] : undefined;
  const optedOut = choice
    ? sql`exists (select 1 from ${emailNotifications} join ${users} on ${users.id} = ${emailNotifications.userId}
        where ${emailNotifications.eventId} = ${eventId} and lower(${users.email}) = ${address.trim().toLowerCase()}
        and ${isNull(emailNotifications.deletedAt)} and ${isNull(users.deletedAt)} and not ${choice})`
    : sql`false`;
  const [row] = await db
    .select({
      disabled: sql<boolean>`exists (select 1 from ${messageSettings} where ${and(
        eq(messageSettings.action, kind.action),
        eq(messageSettings.enabled, false),
      )})`,
      optedOut: sql<boolean>`${optedOut}`,
    })
    .from(sql`(select 1) as one`);
  return !row!.disabled && !row!.optedOut;
}
