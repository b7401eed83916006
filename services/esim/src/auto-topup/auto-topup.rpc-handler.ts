import { Controller } from '@nestjs/common';
import { AutoTopupRpc, RpcMeta, RpcRequest, RpcResponse } from '@esim/contracts';
import { actingUserId, RpcHandler } from '@esim/platform';
import { AutoTopups } from './auto-topups';

/** The acting user's automatic top-up of a line in their wallet; whose it is comes from meta. */
@Controller()
export class AutoTopupRpcHandler {
  constructor(private readonly topups: AutoTopups) {}

  @RpcHandler(AutoTopupRpc.get)
  get({ iccid }: RpcRequest<typeof AutoTopupRpc.get>, meta: RpcMeta): Promise<RpcResponse<typeof AutoTopupRpc.get>> {
    return this.topups.get(actingUserId(meta), iccid);
  }

  @RpcHandler(AutoTopupRpc.set)
  set({ iccid, ...settings }: RpcRequest<typeof AutoTopupRpc.set>, meta: RpcMeta): Promise<RpcResponse<typeof AutoTopupRpc.set>> {
    return this.topups.set(actingUserId(meta), iccid, settings);
  }
}
