import { Controller, Inject } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { PaymentsRpc, RpcMeta, RpcResponse } from '@esim/contracts';
import { actingUserId, CONFIG, RpcHandler } from '@esim/platform';
import type { PaymentsConfig } from '../config';
import { EsimPurchasesService } from './esim-purchases.service';
import { purchaseView } from './purchase-views';

/** GET /api/esim-purchases: the caller's paid purchases only (a payment never made is no eSIM), with their refund window and refund. */
@Controller()
export class ListPurchasesRpcHandler {
  constructor(
    private readonly purchases: EsimPurchasesService,
    private readonly db: DataSource,
    @Inject(CONFIG) private readonly config: PaymentsConfig,
  ) {}

  @RpcHandler(PaymentsRpc.listEsimPurchases)
  async list(_req: unknown, meta: RpcMeta): Promise<RpcResponse<typeof PaymentsRpc.listEsimPurchases>> {
    const paid = await this.purchases.listPaid(actingUserId(meta));
    const refunds: Array<{ purchase_id: string; completed_at: Date }> =
      paid.length === 0
        ? []
        : await this.db.query(`SELECT purchase_id, completed_at FROM purchase_refunds WHERE status = 'succeeded' AND purchase_id = ANY($1::uuid[])`, [paid.map((p) => p.id)]);
    const refundedAt = new Map(refunds.map((r) => [r.purchase_id, r.completed_at]));
    return { purchases: paid.map((p) => purchaseView(p, { windowDays: this.config.REFUND_WINDOW_DAYS, refundedAt: refundedAt.get(p.id) ?? null })) };
  }
}
