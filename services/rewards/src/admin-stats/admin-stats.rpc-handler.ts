import { Controller } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { RewardsRpc, RpcResponse } from '@esim/contracts';
import { RpcHandler } from '@esim/platform';

/** Users with an open points account, and the sum of their balances (reserved points excluded). */
@Controller()
export class AdminStatsRpcHandler {
  constructor(private readonly db: DataSource) {}

  @RpcHandler(RewardsRpc.adminStats)
  async stats(): Promise<RpcResponse<typeof RewardsRpc.adminStats>> {
    const [row] = await this.db.query(
      `SELECT (SELECT count(*) FROM ledger_accounts WHERE user_id IS NOT NULL AND closed_at IS NULL) AS users,
              (SELECT COALESCE(sum(b.posted + b.pending), 0) FROM ledger_user_balances b JOIN ledger_accounts a ON a.id = b.account_id
                WHERE a.closed_at IS NULL) AS points`,
    );
    return { totalUsers: Number(row.users), totalPoints: Number(row.points) };
  }
}
