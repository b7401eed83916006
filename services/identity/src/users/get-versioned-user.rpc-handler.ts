import { Controller } from '@nestjs/common';
import { IdentityRpc, RpcMeta, RpcResponse } from '@esim/contracts';
import { actingUserId, RpcHandler } from '@esim/platform';
import { toIdentityUser, Users } from './users';

/** The acting user's own account with the row's version (ProfileChanged's), for the gateway's user view. */
@Controller()
export class GetVersionedUserRpcHandler {
  constructor(private readonly users: Users) {}

  @RpcHandler(IdentityRpc.getVersionedUser)
  async getVersionedUser(_data: unknown, meta: RpcMeta): Promise<RpcResponse<typeof IdentityRpc.getVersionedUser>> {
    const user = await this.users.require(actingUserId(meta));
    return { user: toIdentityUser(user), version: user.version };
  }
}
