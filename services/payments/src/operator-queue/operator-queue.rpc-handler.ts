import { Controller } from '@nestjs/common';
import { PaymentsAdminRpc, RpcMeta, RpcRequest, RpcResponse } from '@esim/contracts';
import { AppError, RpcHandler } from '@esim/platform';
import { PurchaseResolutions } from './purchase-resolutions';

/** Card purchases in the operator queue; the gateway's AdminGuard stands before it, the admin travels as meta.userId. */
@Controller()
export class OperatorQueueRpcHandler {
  constructor(private readonly resolutions: PurchaseResolutions) {}

  @RpcHandler(PaymentsAdminRpc.listOperatorQueue)
  async list({ limit, stuckAfterSeconds }: RpcRequest<typeof PaymentsAdminRpc.listOperatorQueue>): Promise<RpcResponse<typeof PaymentsAdminRpc.listOperatorQueue>> {
    return { items: await this.resolutions.list(limit, stuckAfterSeconds) };
  }

  @RpcHandler(PaymentsAdminRpc.resolvePurchase)
  resolve(req: RpcRequest<typeof PaymentsAdminRpc.resolvePurchase>, meta: RpcMeta): Promise<RpcResponse<typeof PaymentsAdminRpc.resolvePurchase>> {
    if (!meta.userId) throw new AppError('sign_in_required', 'Please sign in to continue.');
    return this.resolutions.resolve(req, meta.userId);
  }
}
