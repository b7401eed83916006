import { Controller } from '@nestjs/common';
import { IdentityRpc, IdentityUser, RpcMeta } from '@esim/contracts';
import { RpcHandler } from '@esim/platform';
import { actingUserId, toIdentityUser, Users } from './users';

/** The acting user's own account. */
@Controller()
export class GetUserRpcHandler {
  constructor(private readonly users: Users) {}

  @RpcHandler(IdentityRpc.getUser)
  async getUser(_data: unknown, meta: RpcMeta): Promise<IdentityUser> {
    return toIdentityUser(await this.users.require(actingUserId(meta)));
  }
}
