import { Controller, Logger } from '@nestjs/common';
import { MarketingRpc, RpcRequest, RpcResponse } from '@esim/contracts';
import { AppError, RpcHandler, UnitOfWork } from '@esim/platform';
import { IsNull } from 'typeorm';
import { LiveUser, User } from '../users/user.entity';
import { publishProfileChanged } from '../users/profile-changed';
import { toIdentityUser } from '../users/users';
import { UnsubscribeTokens } from './unsubscribe-tokens.service';

/**
 * One-click unsubscribe (RFC 8058): turns `marketingEmails` off for the account the signed token
 * names, as the profile's switch would (the change is announced, so open pages show it). Saying it
 * twice, or for an account deleted since, is answered as done: the mail client only needs to know
 * the address gets no more.
 */
@Controller()
export class UnsubscribeMarketingRpcHandler {
  private readonly log = new Logger('UnsubscribeMarketing');

  constructor(
    private readonly uow: UnitOfWork,
    private readonly tokens: UnsubscribeTokens,
  ) {}

  @RpcHandler(MarketingRpc.unsubscribe)
  async unsubscribe({ token }: RpcRequest<typeof MarketingRpc.unsubscribe>): Promise<RpcResponse<typeof MarketingRpc.unsubscribe>> {
    const userId = this.tokens.verify(token);
    if (!userId) throw new AppError('invalid_unsubscribe_link', 'This unsubscribe link is not valid');
    await this.uow.run(async (tx) => {
      const users = tx.manager.getRepository(User);
      const user = (await users.findOne({
        where: { id: userId, deletedAt: IsNull() },
        lock: { mode: 'pessimistic_write' },
      })) as LiveUser | null;
      if (!user) return;
      const settings = toIdentityUser(user).settings;
      if (!settings.marketingEmails) return;
      user.settings = { ...settings, marketingEmails: false };
      publishProfileChanged(tx, (await users.save(user)) as LiveUser);
      this.log.log(`user ${userId} unsubscribed from promotional email`);
    });
    return { unsubscribed: true };
  }
}
