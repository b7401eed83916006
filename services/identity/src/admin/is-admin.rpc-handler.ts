import { Controller } from '@nestjs/common';
import { DataSource, IsNull } from 'typeorm';
import { IdentityRpc, RpcRequest, RpcResponse } from '@esim/contracts';
import { RpcHandler } from '@esim/platform';
import { User } from '../users/user.entity';

/** Asked by the gateway on every admin request, so a revoked admin loses access at once. */
@Controller()
export class IsAdminRpcHandler {
  constructor(private readonly db: DataSource) {}

  @RpcHandler(IdentityRpc.isAdmin)
  async isAdmin({ userId }: RpcRequest<typeof IdentityRpc.isAdmin>): Promise<RpcResponse<typeof IdentityRpc.isAdmin>> {
    const user = await this.db
      .getRepository(User)
      .findOne({ select: { id: true, isAdmin: true }, where: { id: userId, deletedAt: IsNull() } });
    return { isAdmin: user?.isAdmin ?? false };
  }
}
