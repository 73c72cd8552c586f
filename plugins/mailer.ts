import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import nodemailer, { type Transporter } from 'nodemailer';
import addressparser from 'nodemailer/lib/addressparser';
import MailComposer from 'nodemailer/lib/mail-composer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import { activities, mails, settings } from '../db/schema/index.js';
import type { Db } from './db.js';
import { mailWanted } from './mail-choices.js';

export const MAIL_QUEUE = 'mail-delivery';

export interface MailAddress {
  name?: string;
  address: string;
}

export interface OutgoingMail {
  to: MailAddress;
  subject: string;
  /** What the mail is for (`receipt`, `export-done`, ...); recorded with it. */
  action: string;
  text: string;
  html?: string;
  attachments?: { filename: string; content: Buffer | string; contentType: string }[];
  /** The event the mail is about: its recipient's choices for that event decide it too (plugins/mail-choices.ts). */
  eventId?: number;
}

export type DeliveryStatus = 'sent' | 'pending' | 'failed';

/** What `send` did: recorded (and how delivery went), or skipped (its kind is switched off, or the recipient opted out). */
export type SendResult = { id: number; status: DeliveryStatus } | { id: null; status: 'skipped' };

export interface Mailer {
  /**
   * Records the mail and delivers it; a failed delivery stays pending and the retry job takes it.
   * `alongside` writes what must commit with the record (a task's end), so either both happen or neither; a
   * mail the message settings or its recipient's choices hold back is skipped, and `alongside` still commits.
   */
  send(mail: OutgoingMail, alongside?: (tx: Db) => Promise<unknown>): Promise<SendResult>;
  /**
   * Delivers a recorded mail that is still pending (the retry job) and answers its status after the
   * attempt; `pending` also while another attempt holds it.
   */
  deliver(id: number): Promise<DeliveryStatus>;
  /** Delivery attempts of this process since it started, by outcome (the service's /metrics). */
  attempts: Record<DeliveryStatus, number>;
}

export interface MailerOptions {
  smtpUrl?: string;
  from: string;
  /** Where mails without SMTP are also written as `.eml` files (one machine); empty: the `mails` table only (MAIL_OUTBOX_DIR `none`). */
  outboxDir: string;
  retrySeconds: number;
  /** Attempts after the first before a mail is marked failed. */
  retryLimit: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer;
  }
}

/** Header values come from user input (names, event names): a line break must never start a new header. */
export const oneLine = (value: string) => value.replace(/[\r\n\u0085\u2028\u2029\0]+/g, ' ').trim();

/**
 * The text the mail log keeps of a message: its links withheld. Links carry the one-time tokens of the account and
 * invitation mails (a password reset's link takes over the account), and the log is read by more than the recipient
 * (administrators, the `reports` panel).
 */
export const loggedText = (message: string) => message.replace(/\bhttps?:\/\/[^\s"'<>]+/gi, '[link withheld]');

/** Exactly one plain mailbox: a list, a group or anything that is not `local@domain` is refused. */
function mailbox(address: string): string {
  const parsed = addressparser(address);
  const only = parsed.length === 1 && !('group' in parsed[0]!) ? parsed[0]!.address : undefined;
  if (!only || only !== address.trim() || !/^[^\s@",;<>()]+@[^\s@",;<>()]+$/.test(only)) {
    throw new Error(`not a single mail address: ${JSON.stringify(address)}`);
  }
  return only;
}

const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };
/** SendGrid's SMTP relay: user `apikey`, the API key as the password. */
export const SENDGRID = { host: 'smtp.sendgrid.net', port: 587, secure: false, requireTLS: true };
/** Longer than any SMTP exchange can last with the timeouts above. */
const SENDING_LEASE = sql`now() + interval '5 minutes'`;

type Settings = typeof settings.$inferSelect;

/**
 * How mail leaves, from the settings: their SMTP server or SendGrid (through its SMTP relay), else
 * SMTP_URL; null: the outbox (the `mails` table, and the outbox folder where one is set), always when
 * the settings disable mail. `tls-optional` upgrades
 * with STARTTLS when the server offers it; `none` and `no-encryption` never do.
 */
export function transportOptionsOf(
  s: Settings | undefined,
  smtpUrl: string | undefined,
): SMTPTransport.Options | { url: string } | null {
  if (s?.emailService === 'smtp' && s.smtpHost) {
    return {
      host: s.smtpHost,
      port: s.smtpPort ?? (s.smtpEncryption === 'ssl' ? 465 : 587),
      secure: s.smtpEncryption === 'ssl',
      requireTLS: s.smtpEncryption === 'tls',
      ignoreTLS: s.smtpEncryption === 'none' || s.smtpEncryption === 'no-encryption',
      ...(s.smtpUsername ? { auth: { user: s.smtpUsername, pass: s.smtpPassword ?? '' } } : {}),
      ...TIMEOUTS,
    };
  }
  if (s?.emailService === 'sendgrid' && s.sendgridKey)
    return { ...SENDGRID, auth: { user: 'apikey', pass: s.sendgridKey }, ...TIMEOUTS };
  if (s?.emailService === 'disable' || !smtpUrl) return null;
  return { url: smtpUrl, ...TIMEOUTS };
}

/**
 * The mailer: every message is composed once, recorded in `mails` with a retry job in the same
 * transaction, then delivered through SMTP (the settings' server, else SMTP_URL) or, with neither, kept
 * in `mails` as the outbox (any process reads it), and written to the outbox folder as an `.eml` file
 * where MAIL_OUTBOX_DIR is set.
 */
export default fp(
  async (app: FastifyInstance, options: MailerOptions) => {
    const configured = async () => (await app.db.select().from(settings).where(eq(settings.id, 1)))[0];
    const attempts: Record<DeliveryStatus, number> = { sent: 0, pending: 0, failed: 0 };

    /** The sender: the settings' address and name, else MAIL_FROM. */
    const senderOf = (s: Settings | undefined): string | MailAddress =>
      s?.emailFrom ? { name: oneLine(s.emailFromName ?? ''), address: s.emailFrom } : options.from;

    const transportOf = (s: Settings | undefined): Transporter | null => {
      const chosen = transportOptionsOf(s, options.smtpUrl);
      return chosen && nodemailer.createTransport(chosen);
    };

    async function toOutbox(id: number, raw: Buffer) {
      await mkdir(options.outboxDir, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${id}.eml`;
      const partial = join(options.outboxDir, `.${name}.${randomBytes(4).toString('hex')}`);
      await writeFile(partial, raw);
      await rename(partial, join(options.outboxDir, name));
    }

    /** Takes the pending mail for one attempt, unless another attempt holds it. */
    async function claim(id: number) {
      const [mail] = await app.db
        .update(mails)
        .set({ sendingUntil: SENDING_LEASE })
        .where(
          and(
            eq(mails.id, id),
            eq(mails.status, 'pending'),
            or(isNull(mails.sendingUntil), lt(mails.sendingUntil, sql`now()`)),
          ),
        )
        .returning({ recipient: mails.recipient, raw: mails.raw, attempts: mails.attempts });
      return mail;
    }

    async function deliver(id: number): Promise<DeliveryStatus> {
      const mail = await claim(id);
      if (!mail?.raw) {
        const [row] = await app.db.select({ status: mails.status }).from(mails).where(eq(mails.id, id));
        return (row?.status ?? 'sent') as DeliveryStatus;
      }
      let via: 'smtp' | 'outbox' = 'smtp';
      try {
        const current = await configured();
        const transport = transportOf(current);
        if (transport) {
          const from = senderOf(current);
          const sender = typeof from === 'string' ? from : from.address;
          await transport.sendMail({ envelope: { from: sender, to: [mail.recipient] }, raw: mail.raw });
        } else {
          via = 'outbox';
          if (options.outboxDir) await toOutbox(id, mail.raw);
        }
      } catch (err) {
        const status = mail.attempts + 1 > options.retryLimit ? 'failed' : 'pending';
        attempts[status]++;
        app.log.warn(
          { err, mail: id },
          status === 'failed' ? 'mail delivery failed for good' : 'mail delivery failed; it will be retried',
        );
        await app.db
          .update(mails)
          .set({
            status,
            attempts: mail.attempts + 1,
            lastError: String((err as Error).message ?? err).slice(0, 2000),
            sendingUntil: null,
          })
          .where(eq(mails.id, id));
        return status;
      }
      await app.db
        .update(mails)
        // The outbox is this table: a mail delivered there keeps its message.
        .set({
          status: 'sent',
          sentAt: new Date(),
          via,
          raw: via === 'outbox' ? mail.raw : null,
          lastError: null,
          attempts: mail.attempts + 1,
          sendingUntil: null,
        })
        .where(eq(mails.id, id));
      attempts.sent++;
      return 'sent';
    }

    async function send(mail: OutgoingMail, alongside?: (tx: Db) => Promise<unknown>): Promise<SendResult> {
      const to = { name: oneLine(mail.to.name ?? ''), address: mailbox(mail.to.address) };
      if (!(await mailWanted(app.db, mail.action, to.address, mail.eventId))) {
        app.log.info(
          { action: mail.action },
          'mail not sent: switched off in the message settings or by its recipient',
        );
        if (alongside) await app.db.transaction((tx) => alongside(tx));
        return { id: null, status: 'skipped' };
      }
      const from = senderOf(await configured());
      const subject = oneLine(mail.subject);
      const raw = await new MailComposer({
        from,
        to,
        subject,
        text: mail.text,
        html: mail.html,
        attachments: mail.attachments,
        // Content is always given inline; nothing a message carries may make the composer read files or URLs.
        disableFileAccess: true,
        disableUrlAccess: true,
      })
        .compile()
        .build();
      const id = await app.db.transaction(async (tx) => {
        const [row] = await tx
          .insert(mails)
          .values({
            recipient: to.address,
            subject,
            message: loggedText(mail.html ?? mail.text),
            action: mail.action,
            raw,
          })
          .returning({ id: mails.id });
        await app.sendJob(tx, MAIL_QUEUE, { mailId: row!.id }, { startAfter: options.retrySeconds });
        // The activity log's line of a mail (the reference's `mail_event`), written by the service itself.
        await tx.insert(activities).values({
          actor: null,
          action: `Mail sent to ${to.address}, action: ${mail.action}, subject: ${subject}`,
        });
        await alongside?.(tx);
        return row!.id;
      });
      // Recorded (with what commits alongside): a failure of this first attempt leaves it to the retry job.
      const status = await deliver(id).catch((err: unknown): DeliveryStatus => {
        app.log.warn({ err, mail: id }, 'the first delivery attempt failed; the retry job takes the mail');
        return 'pending';
      });
      return { id, status };
    }

    app.decorate('mailer', { send, deliver, attempts });
  },
  { name: 'mailer', dependencies: ['db', 'boss'] },
);
