import { Controller } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { PaymentsAdminRpc, PriceCurrency, PurchaseRefundRecord, RpcRequest, RpcResponse } from '@esim/contracts';
import { RpcHandler } from '@esim/platform';

interface Row {
  purchase_id: string;
  user_id: string;
  plan_type: PurchaseRefundRecord['planType'];
  amount: number;
  currency: string;
  payment_method: PurchaseRefundRecord['paymentMethod'];
  status: PurchaseRefundRecord['status'];
  stripe_refund_id: string | null;
  requested_at: Date;
  completed_at: Date | null;
}

/** The admin console's list of self-serve refunds (docs/payments.md, "Refunds"); the gateway's AdminGuard stands before it. */
@Controller()
export class ListRefundsRpcHandler {
  constructor(private readonly db: DataSource) {}

  @RpcHandler(PaymentsAdminRpc.listRefunds)
  async list({ limit }: RpcRequest<typeof PaymentsAdminRpc.listRefunds>): Promise<RpcResponse<typeof PaymentsAdminRpc.listRefunds>> {
    const rows: Row[] = await this.db.query(
      `SELECT r.purchase_id, r.user_id, p.plan_type, r.amount, r.currency, p.payment_method, r.status, r.stripe_refund_id, r.requested_at, r.completed_at
         FROM purchase_refunds r JOIN esim_purchases p ON p.id = r.purchase_id
        ORDER BY r.requested_at DESC LIMIT $1`,
      [limit],
    );
    return {
      refunds: rows.map((r) => ({
        purchaseId: r.purchase_id,
        userId: r.user_id,
        planType: r.plan_type,
        amount: r.amount,
        currency: r.currency.toUpperCase() as PriceCurrency,
        paymentMethod: r.payment_method,
        status: r.status,
        stripeRefundId: r.stripe_refund_id,
        requestedAt: new Date(r.requested_at).toISOString(),
        completedAt: r.completed_at ? new Date(r.completed_at).toISOString() : null,
      })),
    };
  }
}
