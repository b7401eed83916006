import { Controller } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { RewardsAdminRpc, RpcRequest, RpcResponse } from '@esim/contracts';
import { RpcHandler } from '@esim/platform';

/** Each user's offer-wall credits and how many the walls reversed: a fraud signal for the admins (docs/earning.md, "Fair fraud control"). */
@Controller()
export class ReversalRatesRpcHandler {
  constructor(private readonly db: DataSource) {}

  @RpcHandler(RewardsAdminRpc.reversalRates)
  async rates({ userIds }: RpcRequest<typeof RewardsAdminRpc.reversalRates>): Promise<RpcResponse<typeof RewardsAdminRpc.reversalRates>> {
    if (userIds.length === 0) return { rates: [] };
    const rows: Array<{ user_id: string; credits: number; reversals: number }> = await this.db.query(
      `SELECT a.user_id,
              (SELECT count(*)::int FROM ledger_transfers t WHERE t.credit_account_id = a.id AND t.kind = 'offerwall_credit') AS credits,
              (SELECT count(*)::int FROM ledger_transfers t WHERE t.debit_account_id = a.id AND t.kind = 'offerwall_reversal') AS reversals
         FROM ledger_accounts a WHERE a.user_id = ANY($1::uuid[])`,
      [userIds],
    );
    return { rates: rows.map((r) => ({ userId: r.user_id, credits: r.credits, reversals: r.reversals })) };
  }
}
