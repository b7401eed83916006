import { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';
import { waitFor } from './namespace';

export interface ReceivedMail {
  to: string[];
  from: string;
  /** The display name of the From header, what a mail client shows as the sender. */
  fromName: string;
  subject: string;
  text: string;
  html: string;
  language?: string;
  /** Every header as sent (lower-case names, folded lines joined), e.g. `list-unsubscribe`. */
  headers: Record<string, string>;
}

/** A real SMTP server (smtp-server) on a free local port that keeps what it receives. */
export class TestMailServer {
  readonly messages: ReceivedMail[] = [];
  private server?: SMTPServer;
  port = 0;
  /** Every MAIL FROM received (one per email a client tried to hand over), accepted or refused. */
  attempts = 0;
  /** Set by `fail`: the SMTP answer every MAIL FROM gets instead of acceptance. */
  private fault: { code: number; message: string } | null = null;

  /** From now on every email is refused with this answer (421: the server is unwell, try later). */
  fail(code = 421, message = 'Service not available, try again later'): void {
    this.fault = { code, message };
  }

  /** Accepts emails again. */
  recover(): void {
    this.fault = null;
  }

  async start(): Promise<this> {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onMailFrom: (_address, _session, callback) => {
        this.attempts += 1;
        if (!this.fault) return callback();
        callback(Object.assign(new Error(this.fault.message), { responseCode: this.fault.code }));
      },
      onData: (stream, session, callback) => {
        simpleParser(stream)
          .then((mail) => {
            this.messages.push({
              to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              fromName: mail.from?.value[0]?.name ?? '',
              subject: mail.subject ?? '',
              text: mail.text ?? '',
              html: typeof mail.html === 'string' ? mail.html : '',
              language: mail.headers.get('content-language') as string | undefined,
              headers: Object.fromEntries(mail.headerLines.map((h) => [h.key, h.line.slice(h.line.indexOf(':') + 1).replace(/\r?\n[ \t]+/g, ' ').trim()])),
            });
            callback();
          })
          .catch(callback);
      },
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', () => resolve()));
    this.port = ((this.server as unknown as { server: { address(): AddressInfo } }).server.address()).port;
    return this;
  }

  /** SMTP settings for a service under test. */
  env(): Record<string, string> {
    return { SMTP_HOST: '127.0.0.1', SMTP_PORT: String(this.port), SMTP_SECURE: 'false', MAIL_FROM: 'Data Rewards <no-reply@test.local>' };
  }

  async waitForMail(to: string, opts: { timeoutMs?: number; after?: number; subject?: RegExp } = {}): Promise<ReceivedMail> {
    return waitFor(
      () => this.messages.slice(opts.after ?? 0).find((m) => m.to.includes(to.toLowerCase()) && (!opts.subject || opts.subject.test(m.subject))),
      { timeoutMs: opts.timeoutMs ?? 15_000, what: `an email to ${to}` },
    );
  }

  mailsTo(to: string): ReceivedMail[] {
    return this.messages.filter((m) => m.to.includes(to.toLowerCase()));
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** The 6-digit code in a verification email. */
export function extractCode(mail: ReceivedMail): string {
  const match = /\b(\d{6})\b/.exec(mail.text);
  if (!match) throw new Error(`no 6-digit code in mail "${mail.subject}"`);
  return match[1];
}
