import { Inject, Injectable, Logger } from '@nestjs/common';
import { RecipientRpc, RpcResponse } from '@esim/contracts';
import { CONFIG, RpcClient } from '@esim/platform';
import type { NotificationsConfig } from '../config';
import { EmailQueue } from '../mail/email-queue';
import { PushMessage, PushSender } from '../push/push-sender';
import type { EmailJob } from '../templates/emails';

export type Recipient = RpcResponse<typeof RecipientRpc.getRecipient>;
type Settings = Recipient['settings'];

/** An email without its address and language, which come from identity: one kind and its data. */
export type EmailContent = EmailJob extends infer J ? (J extends EmailJob ? Omit<J, 'to' | 'locale'> : never) : never;

interface EmailOptions {
  /** The job id: the id of the event that asked for it, so a redelivered event never sends twice. */
  jobId: string;
  /** Names the account on the job, so an account deleted meanwhile has its queued emails dropped. */
  forgetOnDeletion?: boolean;
}

/**
 * Writes to the holder of an account: identity says where, in which language and under which
 * switches (`identity.get-recipient`, asked when about to send). Every event handler that emails
 * or pushes to a user goes through here, so each says only what it sends.
 */
@Injectable()
export class AccountNotices {
  private readonly log = new Logger('AccountNotices');

  constructor(
    private readonly emails: EmailQueue,
    private readonly push: PushSender,
    private readonly rpc: RpcClient,
    @Inject(CONFIG) private readonly config: NotificationsConfig,
  ) {}

  /** An address of the app, for links in emails. */
  url(path: string): string {
    return new URL(path, this.config.PUBLIC_URL).toString();
  }

  recipient(userId: string): Promise<Recipient> {
    return this.rpc.call(RecipientRpc.getRecipient, { recipientId: userId });
  }

  /** A security or transactional email: sent whatever the switches say (docs/wallet.md, the switches' table). */
  async email(
    userId: string,
    compose: (to: Recipient) => EmailContent | EmailJob | Promise<EmailContent | EmailJob>,
    o: EmailOptions,
  ): Promise<void> {
    const to = await this.recipient(userId);
    await this.enqueue(userId, to, await compose(to), o);
  }

  /**
   * A notice the user's switches govern: nothing unless `allowed` says so (e.g. `dataAlerts`);
   * then the email with `emailNotifications` and a Web Push to each of their browsers with
   * `pushNotifications`. Each carries its own line saying why it came and where to change that.
   * The push goes after the email is queued; once the handler succeeded the inbox never runs it again.
   */
  async notice(
    userId: string,
    n: { allowed?: (s: Settings) => boolean; email: (to: Recipient) => EmailContent; push: (to: Recipient) => PushMessage; what: string },
    o: EmailOptions,
  ): Promise<void> {
    const to = await this.recipient(userId);
    if (n.allowed && !n.allowed(to.settings)) return;
    if (to.settings.emailNotifications) await this.enqueue(userId, to, n.email(to), o);
    if (to.settings.pushNotifications) {
      const sent = await this.push.send(userId, n.push(to));
      this.log.log(`${n.what}: pushed to ${sent} browser(s) of user ${userId}`);
    }
  }

  private async enqueue(userId: string, to: Recipient, content: EmailContent | EmailJob, o: EmailOptions): Promise<void> {
    await this.emails.enqueue(
      { to: to.email, locale: to.locale, ...content } as EmailJob,
      o.jobId,
      o.forgetOnDeletion ? userId : undefined,
    );
  }
}
