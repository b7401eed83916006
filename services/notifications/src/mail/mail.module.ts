import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { CONFIG } from '@esim/platform';
import type { NotificationsConfig } from '../config';
import { EmailQueue } from './email-queue';
import { createMailTransport } from './mail-transport';

class EmailQueueCloser implements OnApplicationShutdown {
  constructor(@Inject(EmailQueue) private readonly emails: EmailQueue) {}
  async onApplicationShutdown() {
    await this.emails.close();
  }
}

@Global()
@Module({
  providers: [
    { provide: EmailQueue, inject: [CONFIG], useFactory: (c: NotificationsConfig) => new EmailQueue(c, createMailTransport(c)) },
    EmailQueueCloser,
  ],
  exports: [EmailQueue],
})
export class MailModule {}
