import { Controller } from '@nestjs/common';
import { PaymentsRpc, RpcMeta, RpcResponse } from '@esim/contracts';
import { actingUserId, RpcHandler } from '@esim/platform';
import { EsimPurchasesService } from './esim-purchases.service';
import { purchaseView } from './purchase-views';

/** GET /api/esim-purchases: the caller's paid purchases only (a payment never made is no eSIM). */
@Controller()
export class ListPurchasesRpcHandler {
  constructor(private readonly purchases: EsimPurchasesService) {}

  @RpcHandler(PaymentsRpc.listEsimPurchases)
  async list(_req: unknown, meta: RpcMeta): Promise<RpcResponse<typeof PaymentsRpc.listEsimPurchases>> {
    return { purchases: (await this.purchases.listPaid(actingUserId(meta))).map(purchaseView) };
  }
}
