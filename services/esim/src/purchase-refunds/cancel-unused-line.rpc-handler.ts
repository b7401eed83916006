import { Controller, Inject, Logger } from '@nestjs/common';
import { PurchaseLineRpc, RpcRequest, RpcResponse } from '@esim/contracts';
import { RpcHandler } from '@esim/platform';
import { EsimProviderException } from '../keepgo/esim-provider.exception';
import { ESIM_PROVIDER, EsimProvider } from '../keepgo/esim-provider';

/** KeepGo's status of a line once its eSIM is on a phone (Registered before, Deactivated after). */
const INSTALLED_STATUS = 'Activated';
const DEACTIVATED_STATUS = 'Deactivated';

/**
 * A self-serve refund asks (services/payments/src/purchase-refunds): is the bought eSIM's line
 * untouched — never installed, no data used — as KeepGo reports it? Then it is deactivated at
 * KeepGo before any money goes back, so a refunded eSIM never keeps working. A line already
 * deactivated counts as cancelled, so a refund that failed after this step can be retried.
 */
@Controller()
export class CancelUnusedLineRpcHandler {
  private readonly log = new Logger('PurchaseRefunds');

  constructor(@Inject(ESIM_PROVIDER) private readonly provider: EsimProvider) {}

  @RpcHandler(PurchaseLineRpc.cancelUnusedLine)
  async cancel(req: RpcRequest<typeof PurchaseLineRpc.cancelUnusedLine>): Promise<RpcResponse<typeof PurchaseLineRpc.cancelUnusedLine>> {
    let line;
    try {
      line = await this.provider.lineDetails(req.iccid);
    } catch (err) {
      if (err instanceof EsimProviderException && err.code === 'line_not_found') return { cancelled: false, reason: 'not_found', providerStatus: null };
      throw err;
    }
    if (line.status === DEACTIVATED_STATUS) return { cancelled: true, reason: null, providerStatus: line.status };
    if (line.status === INSTALLED_STATUS) return { cancelled: false, reason: 'installed', providerStatus: line.status };
    if (line.remainingMb !== null && line.allowedMb !== null && line.remainingMb < line.allowedMb) {
      return { cancelled: false, reason: 'used', providerStatus: line.status };
    }
    await this.provider.deactivateLine(req.iccid);
    this.log.warn(`purchase ${req.purchaseId}: line ${req.iccid} deactivated at the provider for a refund`);
    return { cancelled: true, reason: null, providerStatus: DEACTIVATED_STATUS };
  }
}
