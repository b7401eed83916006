import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { AdminUserRow, AdminUsersQuery, adminUsersQuerySchema, EsimRpc, IdentityRpc, RewardsRpc } from '@esim/contracts';
import { RpcClient } from '@esim/platform';
import { ZodPipe } from '../common/zod.pipe';
import { CurrentUserId } from '../sessions/auth.guard';
import { AdminAudit } from './admin-audit';
import { AdminGuard } from './admin.guard';

/** The admin user table: identity's accounts joined with points (rewards) and gifts (esim), one batch call each. */
@Controller('api/admin')
@UseGuards(AdminGuard)
export class AdminUsersController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly audit: AdminAudit,
  ) {}

  @Get('users')
  async list(@CurrentUserId() adminId: string, @Query(new ZodPipe(adminUsersQuerySchema)) query: AdminUsersQuery): Promise<AdminUserRow[]> {
    const { users } = await this.rpc.call(IdentityRpc.listUsers, query);
    this.audit.record('admin_users_listed', adminId, { count: users.length });
    if (users.length === 0) return [];
    const userIds = users.map((u) => u.id);
    const [{ balances }, { summaries }] = await Promise.all([
      this.rpc.call(RewardsRpc.getBalances, { userIds }),
      this.rpc.call(EsimRpc.getGiftSummaries, { userIds }),
    ]);
    const points = new Map(balances.map((b) => [b.userId, b.points]));
    const gifts = new Map(summaries.map((s) => [s.userId, s]));
    return users.map((u) => ({
      ...u,
      points: points.get(u.id) ?? 0,
      iccid: gifts.get(u.id)?.iccid ?? null,
      dataGiftedGB: gifts.get(u.id)?.dataGiftedGB ?? 0,
      lastGiftedAt: gifts.get(u.id)?.lastGiftedAt ?? null,
    }));
  }
}
