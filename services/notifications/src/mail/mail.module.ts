import { Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { CONFIG, Metrics } from '@esim/platform';
import type { NotificationsConfig } from '../config';
import { EmailQueue } from './email-queue';
import { createMailTransport } from './mail-transport';

class EmailQueueCloser implements OnApplicationShutdown {
  constructor(@Inject(EmailQueue) private readonly emails: EmailQueue) {}
  async onApplicationShutdown() {
    await this.emails.close();
  }
}

/** The email queue and its transport; imported by the module whose event handlers send email. */
@Module({
  providers: [
    {
      provide: EmailQueue,
      inject: [CONFIG, Metrics],
      useFactory: (c: NotificationsConfig, metrics: Metrics) => {
        const emails = new EmailQueue(c, createMailTransport(c));
        emails.watch(metrics);
        return emails;
      },
    },
    EmailQueueCloser,
  ],
  exports: [EmailQueue],
})
export class MailModule {}
