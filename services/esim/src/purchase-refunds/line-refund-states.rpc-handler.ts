import { Controller } from '@nestjs/common';
import { type LineRefundState, PurchaseLineRpc, RpcRequest, RpcResponse } from '@esim/contracts';
import { RpcHandler } from '@esim/platform';
import { EsimProviderException } from '../keepgo/esim-provider.exception';
import { LineUsageService } from '../wallet/line-usage.service';
import { lineRefundState } from './line-refund-state';

/**
 * Refund eligibility before the buyer asks (docs/payments.md, "Refunds"): KeepGo's report of each
 * bought line, through the same short-lived reading My eSIMs' usage uses (a refresh, so opening
 * the page reads the provider again, no more often than ESIM_LINE_USAGE_REFRESH_SECONDS). Nothing
 * changes here; the refund itself checks again before cancelling anything.
 */
@Controller()
export class LineRefundStatesRpcHandler {
  constructor(private readonly usage: LineUsageService) {}

  @RpcHandler(PurchaseLineRpc.lineRefundStates)
  async states({ iccids }: RpcRequest<typeof PurchaseLineRpc.lineRefundStates>): Promise<RpcResponse<typeof PurchaseLineRpc.lineRefundStates>> {
    const lines = await Promise.all(
      [...new Set(iccids)].map(async (iccid): Promise<{ iccid: string; state: LineRefundState }> => {
        try {
          return { iccid, state: lineRefundState(await this.usage.readInBackground(iccid)) };
        } catch (err) {
          return { iccid, state: err instanceof EsimProviderException && err.code === 'line_not_found' ? 'not_found' : 'unchecked' };
        }
      }),
    );
    return { lines };
  }
}
