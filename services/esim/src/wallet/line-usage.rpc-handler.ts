import { Controller } from '@nestjs/common';
import { EsimWalletRpc, RpcMeta, RpcRequest, RpcResponse } from '@esim/contracts';
import { actingUserId, RpcHandler } from '@esim/platform';
import { LineUsageService } from './line-usage.service';

@Controller()
export class LineUsageRpcHandler {
  constructor(private readonly usage: LineUsageService) {}

  /** The acting user's line only: whose line it is comes from meta, never from the request. */
  @RpcHandler(EsimWalletRpc.getLineUsage)
  get(
    { iccid, refresh }: RpcRequest<typeof EsimWalletRpc.getLineUsage>,
    meta: RpcMeta,
  ): Promise<RpcResponse<typeof EsimWalletRpc.getLineUsage>> {
    return this.usage.usage(actingUserId(meta), iccid, refresh ?? false);
  }
}
