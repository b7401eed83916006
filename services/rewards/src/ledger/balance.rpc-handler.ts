import { Controller } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { RewardsRpc, RpcMeta, RpcRequest, RpcResponse } from '@esim/contracts';
import { actingUserId, RpcHandler } from '@esim/platform';
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
  async balance(_: RpcRequest<typeof RewardsRpc.getBalance>, meta: RpcMeta): Promise<RpcResponse<typeof RewardsRpc.getBalance>> {
    const userId = actingUserId(meta);
    const { available } = await this.ledger.balance(this.db.manager, userId);
    return { userId, points: available };
  }

  /** The balance with BalanceChanged's version, read in one snapshot (the gateway's user view rebuilds from it). */
  @RpcHandler(RewardsRpc.getVersionedBalance)
  async versionedBalance(_: RpcRequest<typeof RewardsRpc.getVersionedBalance>, meta: RpcMeta): Promise<RpcResponse<typeof RewardsRpc.getVersionedBalance>> {
    const userId = actingUserId(meta);
    const [found] = await this.announcements.read(this.db.manager, [userId]);
    // No account yet (the registration has not arrived): no entries, nothing to spend.
    return found ?? { userId, points: 0, version: 0, pendingPoints: 0, pendingReleases: [] };
  }

  @RpcHandler(RewardsRpc.getBalances)
  async balances({ userIds }: RpcRequest<typeof RewardsRpc.getBalances>): Promise<RpcResponse<typeof RewardsRpc.getBalances>> {
    const available = await this.ledger.availableOf(this.db.manager, userIds);
    return { balances: userIds.map((userId) => ({ userId, points: available.get(userId) ?? 0 })) };
  }
}
