import { Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CONFIG, Metrics } from '@esim/platform';
import { SentEmails } from '../sent-emails/sent-emails';
import type { NotificationsConfig } from '../config';
import { EmailQueue } from './email-queue';
import { createMailTransport } from './mail-transport';

class EmailQueueCloser implements OnApplicationShutdown {
  constructor(@Inject(EmailQueue) private readonly emails: EmailQueue) {}
  async onApplicationShutdown() {
    await this.emails.close();
  }
}

/** The email queue, its transport and the record of what was sent; imported by the module whose event handlers send email. */
@Module({
  providers: [
    { provide: SentEmails, inject: [DataSource], useFactory: (db: DataSource) => new SentEmails(db) },
    {
      provide: EmailQueue,
      inject: [CONFIG, Metrics, SentEmails],
      useFactory: (c: NotificationsConfig, metrics: Metrics, sent: SentEmails) => {
        const emails = new EmailQueue(c, createMailTransport(c, metrics), sent);
        emails.watch(metrics);
        return emails;
      },
    },
    EmailQueueCloser,
  ],
  exports: [EmailQueue, SentEmails],
})
export class MailModule {}
