import { Controller, Inject } from '@nestjs/common';
import { EsimAdminRpc, RpcMeta, RpcRequest, RpcResponse } from '@esim/contracts';
import { actingUserId, RpcHandler } from '@esim/platform';
import { ESIM_PROVIDER, EsimProvider } from '../keepgo/esim-provider';
import { EsimProviderException } from '../keepgo/esim-provider.exception';
import { DeliveryResolutions } from './delivery-resolutions';

/** esim's admin calls: the supplier test and the deliveries of the operator queue. The gateway's AdminGuard stands before them. */
@Controller()
export class OperatorQueueRpcHandler {
  constructor(
    private readonly resolutions: DeliveryResolutions,
    @Inject(ESIM_PROVIDER) private readonly provider: EsimProvider,
  ) {}

  /** One page of lines through the EsimProvider port: the answer proves credentials and reachability. */
  @RpcHandler(EsimAdminRpc.testProvider)
  async testProvider(): Promise<RpcResponse<typeof EsimAdminRpc.testProvider>> {
    const mode = this.provider.sandbox ? 'sandbox' : 'live';
    try {
      const page = await this.provider.listLines({ page: 1, perPage: 1 });
      return { ok: true, mode, total: page.total, message: `Connected to KeepGo${mode === 'sandbox' ? ' (emulator)' : ''}: ${page.total} lines on the account.` };
    } catch (err) {
      const detail = err instanceof EsimProviderException ? `${err.message} (${err.code})` : 'unexpected error';
      return { ok: false, mode, total: null, message: `KeepGo API connection failed: ${detail}` };
    }
  }

  @RpcHandler(EsimAdminRpc.listOperatorQueue)
  async list({ limit, stuckAfterSeconds }: RpcRequest<typeof EsimAdminRpc.listOperatorQueue>): Promise<RpcResponse<typeof EsimAdminRpc.listOperatorQueue>> {
    return { items: await this.resolutions.list(limit, stuckAfterSeconds) };
  }

  @RpcHandler(EsimAdminRpc.provisioningStatuses)
  async statuses({ redemptionIds }: RpcRequest<typeof EsimAdminRpc.provisioningStatuses>): Promise<RpcResponse<typeof EsimAdminRpc.provisioningStatuses>> {
    return { statuses: await this.resolutions.statuses(redemptionIds) };
  }

  @RpcHandler(EsimAdminRpc.resolveRedemption)
  resolve(req: RpcRequest<typeof EsimAdminRpc.resolveRedemption>, meta: RpcMeta): Promise<RpcResponse<typeof EsimAdminRpc.resolveRedemption>> {
    return this.resolutions.resolve(req, actingUserId(meta));
  }
}
