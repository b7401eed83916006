import { Controller } from '@nestjs/common';
import { PasskeyRpc, RpcMeta, RpcRequest, RpcResponse } from '@esim/contracts';
import { actingUserId, AppError, RpcHandler } from '@esim/platform';
import { Passkeys } from './passkeys';

/** The acting user's passkeys on /profile: list and remove. */
@Controller()
export class ManagePasskeysRpcHandler {
  constructor(private readonly passkeys: Passkeys) {}

  @RpcHandler(PasskeyRpc.list)
  async list(_data: unknown, meta: RpcMeta): Promise<RpcResponse<typeof PasskeyRpc.list>> {
    const passkeys = await this.passkeys.forUser(actingUserId(meta));
    return { passkeys: passkeys.map(({ id, name, createdAt, lastUsedAt }) => ({ id, name, createdAt, lastUsedAt })) };
  }

  @RpcHandler(PasskeyRpc.remove)
  async remove({ passkeyId }: RpcRequest<typeof PasskeyRpc.remove>, meta: RpcMeta): Promise<RpcResponse<typeof PasskeyRpc.remove>> {
    if (!(await this.passkeys.remove(actingUserId(meta), passkeyId))) {
      throw new AppError('passkey_not_found', 'No such passkey');
    }
    return {};
  }
}
