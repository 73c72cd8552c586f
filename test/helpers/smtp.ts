import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import type { Test } from 'tap';

export interface ReceivedMail {
  /** The SMTP envelope: who the client said it sends from and to (RCPT TO). */
  envelope: { from: string; to: string[] };
  raw: Buffer;
  parsed: ParsedMail;
}

export interface SmtpPeer {
  url: string;
  host: string;
  port: number;
  received: ReceivedMail[];
  /** While true, every message is refused with 451 (a server that is up but failing). */
  refuse: boolean;
  /** Resolves once `count` messages have arrived (fails the wait after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

/**
 * A real SMTP server on a loopback port (smtp-server), parsing what it receives with mailparser;
 * `port` picks the port (a server that was not running until now), otherwise any free one.
 */
export async function startSmtp(
  t: Test,
  { auth, port: wanted = 0 }: { auth?: { user: string; pass: string }; port?: number } = {},
): Promise<SmtpPeer> {
  const received: ReceivedMail[] = [];
  const waiters: (() => void)[] = [];
  const peer = { refuse: false } as SmtpPeer;
  const server = new SMTPServer({
    authOptional: !auth,
    // Plain SMTP on loopback: STARTTLS would need a certificate the client trusts.
    disabledCommands: auth ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    allowInsecureAuth: true,
    logger: false,
    onAuth(session, _s, callback) {
      if (auth && session.username === auth.user && session.password === auth.pass) callback(null, { user: auth.user });
      else callback(new Error('Invalid username or password'));
    },
    onMailFrom(_address, _session, callback) {
      if (peer.refuse) {
        const err = new Error('Try again later') as Error & { responseCode: number };
        err.responseCode = 451;
        callback(err);
      } else callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        simpleParser(raw)
          .then((parsed) => {
            const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
            received.push({ envelope: { from, to: session.envelope.rcptTo.map((r) => r.address) }, raw, parsed });
            waiters.splice(0).forEach((wake) => wake());
            callback();
          })
          .catch(callback);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(wanted, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  Object.assign(peer, {
    url: `smtp://127.0.0.1:${port}`,
    host: '127.0.0.1',
    port,
    received,
    async waitFor(count: number, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} mails, received ${received.length}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
      return received;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
  t.teardown(() => peer.close());
  return peer;
}
