import { Controller, Get, UseGuards } from '@nestjs/common';
import { AdminStats, EsimRpc, RewardsRpc } from '@esim/contracts';
import { RpcClient } from '@esim/platform';
import { AdminAudit } from './admin-audit';
import { AdminGuard } from './admin.guard';
import { CurrentUserId } from '../sessions/auth.guard';

/** The admin stat cards: users and points from the ledger (users holding a points account), GB delivered and admin gifts granted, claimed and pending from esim. */
@Controller('api/admin')
@UseGuards(AdminGuard)
export class AdminStatsController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly audit: AdminAudit,
  ) {}

  @Get('stats')
  async stats(@CurrentUserId() adminId: string): Promise<AdminStats> {
    const [{ totalUsers, totalPoints }, { totalDataGiftedGB, ...gifts }] = await Promise.all([
      this.rpc.call(RewardsRpc.adminStats, {}),
      this.rpc.call(EsimRpc.getGiftTotals, {}),
    ]);
    this.audit.noteRead('admin_stats_viewed', adminId);
    return { totalUsers, totalDataGifted: totalDataGiftedGB, totalPoints, ...gifts };
  }
}
