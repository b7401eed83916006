import { Controller } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { IdentityRpc, RpcMeta, RpcResponse } from '@esim/contracts';
import { RpcHandler } from '@esim/platform';
import { isLiveAdmin } from './admin-grants';

/** Asked by the gateway on every admin request, so a revoked admin loses access at once. */
@Controller()
export class IsAdminRpcHandler {
  constructor(private readonly db: DataSource) {}

  @RpcHandler(IdentityRpc.isAdmin)
  async isAdmin(_data: unknown, meta: RpcMeta): Promise<RpcResponse<typeof IdentityRpc.isAdmin>> {
    return { isAdmin: meta.userId !== undefined && (await isLiveAdmin(this.db, meta.userId)) };
  }
}
