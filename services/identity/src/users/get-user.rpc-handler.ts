import { Controller } from '@nestjs/common';
import { IdentityRpc, IdentityUser, RpcMeta, RpcResponse } from '@esim/contracts';
import { actingUserId, RpcHandler } from '@esim/platform';
import { toIdentityUser, Users } from './users';

/** The acting user's own account. */
@Controller()
export class GetUserRpcHandler {
  constructor(private readonly users: Users) {}

  @RpcHandler(IdentityRpc.getUser)
  async getUser(_data: unknown, meta: RpcMeta): Promise<IdentityUser> {
    return toIdentityUser(await this.users.require(actingUserId(meta)));
  }

  /** The same with the row's version (ProfileChanged's), for the gateway's user view. */
  @RpcHandler(IdentityRpc.getVersionedUser)
  async getVersionedUser(_data: unknown, meta: RpcMeta): Promise<RpcResponse<typeof IdentityRpc.getVersionedUser>> {
    const user = await this.users.require(actingUserId(meta));
    return { user: toIdentityUser(user), version: user.version };
  }
}
