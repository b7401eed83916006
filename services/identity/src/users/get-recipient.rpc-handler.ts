import { Controller } from '@nestjs/common';
import { DEFAULT_USER_SETTINGS, RecipientRpc, RpcRequest, RpcResponse } from '@esim/contracts';
import { RpcHandler } from '@esim/platform';
import { Users } from './users';

/** Where an email about a user goes and what the user allows (notifications), and whether the account exists (admin gifting). */
@Controller()
export class GetRecipientRpcHandler {
  constructor(private readonly users: Users) {}

  @RpcHandler(RecipientRpc.getRecipient)
  async get({ recipientId }: RpcRequest<typeof RecipientRpc.getRecipient>): Promise<RpcResponse<typeof RecipientRpc.getRecipient>> {
    const user = await this.users.require(recipientId);
    return { userId: user.id, email: user.email, name: user.name, locale: user.locale, settings: { ...DEFAULT_USER_SETTINGS, ...user.settings } };
  }
}
