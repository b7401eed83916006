import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { MarketingRecipient, MarketingRpc } from '@esim/contracts';
import { CONFIG, RpcClient } from '@esim/platform';
import type { NotificationsConfig } from '../config';
import { EmailQueue } from '../mail/email-queue';
import { AccountNotices } from '../notices/account-notices.service';

const PAGE = 200;

/**
 * The weekly promotional digest, the product's one promotional email: sent only to the people
 * identity lists (`marketingEmails` on, verified, not deleted), at most once per person and period
 * (`marketing_digests`, whose key is the person and the period's start, written in the transaction
 * that queues the email; the job id is the same pair, so a queue that already has it adds nothing).
 */
@Injectable()
export class MarketingDigest {
  private readonly log = new Logger('MarketingDigest');

  constructor(
    private readonly db: DataSource,
    private readonly rpc: RpcClient,
    private readonly emails: EmailQueue,
    private readonly notices: AccountNotices,
    @Inject(CONFIG) private readonly config: NotificationsConfig,
  ) {}

  /** The start of the period `at` falls in (periods of MARKETING_DIGEST_EVERY_SECONDS from the epoch). */
  periodOf(at: Date): Date {
    const every = this.config.MARKETING_DIGEST_EVERY_SECONDS * 1000;
    return new Date(Math.floor(at.getTime() / every) * every);
  }

  /** Queues the period's digest for everyone who asked for it and has not had it; answers how many were queued now. */
  async run(period: Date): Promise<number> {
    let queued = 0;
    let after: string | null = null;
    for (;;) {
      const { recipients }: { recipients: MarketingRecipient[] } = await this.rpc.call(MarketingRpc.listRecipients, { after, limit: PAGE });
      for (const r of recipients) {
        const sent = await this.db.transaction(async (m) => {
          const rows: unknown[] = await m.query(
            'INSERT INTO marketing_digests (user_id, period_start) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING user_id',
            [r.userId, period],
          );
          if (rows.length === 0) return false;
          await this.emails.enqueue(
            {
              kind: 'marketingDigest',
              to: r.email,
              locale: r.locale,
              data: {
                name: r.name,
                offersUrl: this.notices.url('/task'),
                settingsUrl: this.notices.url('/profile'),
                unsubscribePageUrl: this.notices.url(`/unsubscribe?token=${encodeURIComponent(r.unsubscribeToken)}`),
                unsubscribeUrl: this.notices.url(`/api/mail/unsubscribe?token=${encodeURIComponent(r.unsubscribeToken)}`),
              },
            },
            `marketing-digest:${period.getTime()}:${r.userId}`,
            r.userId,
          );
          return true;
        });
        if (sent) queued++;
      }
      if (recipients.length < PAGE) break;
      after = recipients[recipients.length - 1].userId;
    }
    this.log.log(`digest of ${period.toISOString()}: queued ${queued}`);
    return queued;
  }
}
