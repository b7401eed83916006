import { Controller } from '@nestjs/common';
import { IdentityRpc, IdentityUser, RpcRequest } from '@esim/contracts';
import { RpcHandler } from '@esim/platform';
import { toIdentityUser, Users } from './users';

@Controller()
export class GetUserRpcHandler {
  constructor(private readonly users: Users) {}

  @RpcHandler(IdentityRpc.getUser)
  async getUser({ userId }: RpcRequest<typeof IdentityRpc.getUser>): Promise<IdentityUser> {
    return toIdentityUser(await this.users.require(userId));
  }
}
