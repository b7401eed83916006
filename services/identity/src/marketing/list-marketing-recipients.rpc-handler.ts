import { Controller } from '@nestjs/common';
import { MarketingRpc, RpcRequest, RpcResponse } from '@esim/contracts';
import { RpcHandler } from '@esim/platform';
import { DataSource } from 'typeorm';
import { UnsubscribeTokens } from './unsubscribe-tokens.service';

/**
 * Who gets promotional email: `marketingEmails` on (off unless the person turned it on), a
 * verified account, not deleted. Paged by id, so notifications can walk every one of them.
 */
@Controller()
export class ListMarketingRecipientsRpcHandler {
  constructor(
    private readonly db: DataSource,
    private readonly tokens: UnsubscribeTokens,
  ) {}

  @RpcHandler(MarketingRpc.listRecipients)
  async list({ after, limit }: RpcRequest<typeof MarketingRpc.listRecipients>): Promise<RpcResponse<typeof MarketingRpc.listRecipients>> {
    const rows: Array<{
      id: string;
      email: string;
      name: string;
      locale: RpcResponse<typeof MarketingRpc.listRecipients>['recipients'][number]['locale'];
    }> = await this.db.query(
      `SELECT id, email, name, locale FROM users
          WHERE deleted_at IS NULL AND email_verified AND (settings->>'marketingEmails')::boolean IS TRUE AND ($1::uuid IS NULL OR id > $1)
          ORDER BY id LIMIT $2`,
      [after, limit],
    );
    return {
      recipients: rows.map((r) => ({
        userId: r.id,
        email: r.email,
        name: r.name,
        locale: r.locale,
        unsubscribeToken: this.tokens.sign(r.id),
      })),
    };
  }
}
