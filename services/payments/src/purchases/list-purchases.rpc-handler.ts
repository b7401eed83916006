import { Controller } from '@nestjs/common';
import { PaymentsRpc, RpcMeta, RpcResponse } from '@esim/contracts';
import { actingUserId, RpcHandler } from '@esim/platform';
import { RefundEligibilityService } from '../purchase-refunds/refund-eligibility.service';
import { EsimPurchasesService } from './esim-purchases.service';
import { purchaseView } from './purchase-views';

/** GET /api/esim-purchases: the caller's paid purchases only (a payment never made is no eSIM), with their refund eligibility and refund. */
@Controller()
export class ListPurchasesRpcHandler {
  constructor(
    private readonly purchases: EsimPurchasesService,
    private readonly eligibility: RefundEligibilityService,
  ) {}

  @RpcHandler(PaymentsRpc.listEsimPurchases)
  async list(_req: unknown, meta: RpcMeta): Promise<RpcResponse<typeof PaymentsRpc.listEsimPurchases>> {
    const paid = await this.purchases.listPaid(actingUserId(meta));
    const refunds = await this.eligibility.of(paid);
    return { purchases: paid.map((p) => purchaseView(p, refunds.get(p.id)!)) };
  }
}
