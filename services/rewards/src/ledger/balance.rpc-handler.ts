import { Controller } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { RewardsRpc, RpcResponse } from '@esim/contracts';
import { RpcHandler } from '@esim/platform';
import { BalanceAnnouncements } from './balance-announcements';
import { Ledger } from './ledger';

/** The points a user can spend: the sum of their ledger entries, reserved points excluded. */
@Controller()
export class BalanceRpcHandler {
  constructor(
    private readonly db: DataSource,
    private readonly ledger: Ledger,
    private readonly announcements: BalanceAnnouncements,
  ) {}

  @RpcHandler(RewardsRpc.getBalance)
  async balance({ userId }: { userId: string }): Promise<RpcResponse<typeof RewardsRpc.getBalance>> {
    const { available } = await this.ledger.balance(this.db.manager, userId);
    return { userId, points: available };
  }

  /** The balance with BalanceChanged's version, read in one snapshot (the gateway's user view rebuilds from it). */
  @RpcHandler(RewardsRpc.getVersionedBalance)
  async versionedBalance({ userId }: { userId: string }): Promise<RpcResponse<typeof RewardsRpc.getVersionedBalance>> {
    const [found] = await this.announcements.read(this.db.manager, [userId]);
    // No account yet (the registration has not arrived): no entries, nothing to spend.
    return found ?? { userId, points: 0, version: 0 };
  }

  @RpcHandler(RewardsRpc.getBalances)
  async balances({ userIds }: { userIds: string[] }): Promise<RpcResponse<typeof RewardsRpc.getBalances>> {
    const available = await this.ledger.availableOf(this.db.manager, userIds);
    return { balances: userIds.map((userId) => ({ userId, points: available.get(userId) ?? 0 })) };
  }
}
