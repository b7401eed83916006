import { Controller, Inject, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { PurchaseLineRpc, RpcRequest, RpcResponse } from '@esim/contracts';
import { RpcHandler } from '@esim/platform';
import { EsimProviderException } from '../keepgo/esim-provider.exception';
import { ESIM_PROVIDER, EsimProvider } from '../keepgo/esim-provider';
import { EsimLines } from '../lines/esim-lines';
import { DEACTIVATED_STATUS, lineRefundState } from './line-refund-state';

/**
 * A self-serve refund asks (services/payments/src/purchase-refunds): is the bought eSIM's line
 * untouched — never installed, no data used — as KeepGo reports it? Then it is deactivated at
 * KeepGo before any money goes back, so a refunded eSIM never keeps working, and marked cancelled
 * in the wallet (no usage reads, alerts or top-ups on it afterwards). A line already deactivated
 * counts as cancelled, so a refund that failed after this step can be retried.
 */
@Controller()
export class CancelUnusedLineRpcHandler {
  private readonly log = new Logger('PurchaseRefunds');

  constructor(
    @Inject(ESIM_PROVIDER) private readonly provider: EsimProvider,
    private readonly db: DataSource,
    private readonly lines: EsimLines,
  ) {}

  @RpcHandler(PurchaseLineRpc.cancelUnusedLine)
  async cancel(req: RpcRequest<typeof PurchaseLineRpc.cancelUnusedLine>): Promise<RpcResponse<typeof PurchaseLineRpc.cancelUnusedLine>> {
    let line;
    try {
      line = await this.provider.lineDetails(req.iccid);
    } catch (err) {
      if (err instanceof EsimProviderException && err.code === 'line_not_found') return { cancelled: false, reason: 'not_found', providerStatus: null };
      throw err;
    }
    const state = lineRefundState(line);
    if (state === 'installed' || state === 'used') return { cancelled: false, reason: state, providerStatus: line.status };
    if (state === 'untouched') {
      await this.provider.deactivateLine(req.iccid);
      this.log.warn(`purchase ${req.purchaseId}: line ${req.iccid} deactivated at the provider for a refund`);
    }
    await this.lines.cancelled(this.db.manager, req.iccid);
    return { cancelled: true, reason: null, providerStatus: DEACTIVATED_STATUS };
  }
}
