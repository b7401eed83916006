import fs from 'node:fs/promises';
import path from 'node:path';
import { Logger } from '@nestjs/common';
import nodemailer, { type Transporter } from 'nodemailer';
import addressparser from 'nodemailer/lib/addressparser';
import { BRAND_NAME } from '@esim/contracts';
import { Metrics, ProviderCalls } from '@esim/platform';
import type { NotificationsConfig } from '../config';
import type { MailAttachment } from '../templates/render-email';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  language: string;
  /** Inline images the HTML references by cid (render-email.ts). */
  attachments?: MailAttachment[];
  /** Headers of the email's own (render-email.ts), beside Content-Language. */
  headers?: Record<string, string>;
}

/**
 * The From header: always the brand's name (libs/contracts catalogue/brand.ts), whatever display
 * name MAIL_FROM carries, so a deployment cannot send under a second name; only its mailbox is used.
 */
export function senderOf(mailFrom: string): { name: string; address: string } {
  const [first] = addressparser(mailFrom, { flatten: true });
  return { name: BRAND_NAME, address: first?.address || mailFrom };
}

/** Sends one email; throws on failure so the queue retries it. */
export interface MailTransport {
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

class SmtpTransport implements MailTransport {
  private readonly transporter: Transporter;

  constructor(
    private readonly config: NotificationsConfig,
    /** Times and counts each hand-over and guards it with the SMTP circuit breaker. */
    private readonly calls: ProviderCalls,
  ) {
    this.transporter = nodemailer.createTransport({
      host: config.SMTP_HOST,
      port: config.SMTP_PORT,
      secure: config.SMTP_SECURE,
      auth: config.SMTP_USER ? { user: config.SMTP_USER, pass: config.SMTP_PASSWORD } : undefined,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    });
  }

  async send(mail: OutgoingMail): Promise<void> {
    await this.calls.call('send', () => this.sendNow(mail));
  }

  private async sendNow(mail: OutgoingMail): Promise<void> {
    await this.transporter.sendMail({ from: senderOf(this.config.MAIL_FROM), to: mail.to, subject: mail.subject, text: mail.text, html: mail.html, attachments: mail.attachments, headers: { ...mail.headers, 'Content-Language': mail.language } });
  }

  close(): void {
    this.transporter.close();
  }
}

/**
 * The mail sandbox, when no SMTP server is configured (a fresh machine): each email becomes an
 * .eml file the operator can open, and its text goes to the log so a person can sign up for real.
 * Production refuses it unless ALLOW_SANDBOX_IN_PRODUCTION (config.ts).
 */
class LocalOutboxTransport implements MailTransport {
  private readonly log = new Logger('LocalOutbox');
  private readonly transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });

  constructor(private readonly config: NotificationsConfig) {
    this.log.warn(`SANDBOX: no SMTP_HOST, emails are written to ${config.MAIL_OUTBOX_DIR} and the log instead of being sent. Not for real users.`);
  }

  async send(mail: OutgoingMail): Promise<void> {
    const info = await this.transporter.sendMail({ from: senderOf(this.config.MAIL_FROM), to: mail.to, subject: mail.subject, text: mail.text, html: mail.html, attachments: mail.attachments, headers: { ...mail.headers, 'Content-Language': mail.language } });
    await fs.mkdir(this.config.MAIL_OUTBOX_DIR, { recursive: true });
    const file = path.join(this.config.MAIL_OUTBOX_DIR, `${new Date().toISOString().replace(/[:.]/g, '-')}-${mail.to.replace(/[^a-z0-9@._-]/gi, '_')}.eml`);
    await fs.writeFile(file, info.message as Buffer);
    this.log.log(`email to ${mail.to} saved to ${file}\n--- ${mail.subject} ---\n${mail.text}`);
  }

  close(): void {
    this.transporter.close();
  }
}

/**
 * The mail server unwell: no connection, a timeout, a temporary (4xx) answer. A permanent (5xx)
 * answer, such as a refused recipient, says it is up and does not count towards opening the breaker.
 */
function isSmtpFailure(err: unknown): boolean {
  const code = (err as { responseCode?: number })?.responseCode;
  return code === undefined || code < 500;
}

/** SMTP when SMTP_HOST is set (metered and guarded as the `smtp` provider), else the local outbox. */
export function createMailTransport(config: NotificationsConfig, metrics: Metrics): MailTransport {
  if (!config.SMTP_HOST) return new LocalOutboxTransport(config);
  const breaker = { failures: config.SMTP_BREAKER_FAILURES, halfOpenAfterMs: config.SMTP_BREAKER_HALF_OPEN_MS };
  return new SmtpTransport(config, new ProviderCalls(metrics, 'smtp', breaker, isSmtpFailure));
}
