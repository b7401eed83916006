import { Controller, Get, UseGuards } from '@nestjs/common';
import { AdminStats, RewardsRpc } from '@esim/contracts';
import { RpcClient } from '@esim/platform';
import { AdminAudit } from '../admin/admin-audit';
import { AdminGuard } from '../admin/admin.guard';
import { CurrentUserId } from '../sessions/auth.guard';

/**
 * The admin stat cards. Users and points come from the ledger (users holding a points account).
 * esim answers no gift totals yet, so totalDataGifted stays 0 until it offers one.
 */
@Controller('api/admin')
@UseGuards(AdminGuard)
export class AdminStatsController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly audit: AdminAudit,
  ) {}

  @Get('stats')
  async stats(@CurrentUserId() adminId: string): Promise<AdminStats> {
    const { totalUsers, totalPoints } = await this.rpc.call(RewardsRpc.adminStats, {});
    this.audit.record('admin_stats_viewed', adminId);
    return { totalUsers, totalDataGifted: 0, totalPoints };
  }
}
