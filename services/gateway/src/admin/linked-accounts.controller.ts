import { Controller, Get, UseGuards } from '@nestjs/common';
import { IdentityAdminRpc, LinkedAccountsResponse, RewardsAdminRpc } from '@esim/contracts';
import { RpcClient } from '@esim/platform';
import { CurrentUserId } from '../sessions/auth.guard';
import { AdminAudit } from './admin-audit';
import { AdminGuard } from './admin.guard';

/**
 * Accounts linked by the fraud signals (docs/earning.md, "Fair fraud control"): identity's groups
 * of accounts that used one device, with each account's reversal rate from rewards.
 */
@Controller('api/admin/linked-accounts')
@UseGuards(AdminGuard)
export class LinkedAccountsController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly audit: AdminAudit,
  ) {}

  @Get()
  async list(@CurrentUserId() adminId: string): Promise<LinkedAccountsResponse> {
    const { groups } = await this.rpc.call(IdentityAdminRpc.linkedAccounts, { limit: 100 });
    const userIds = [...new Set(groups.flatMap((g) => g.accounts.map((a) => a.userId)))];
    const rates = userIds.length ? new Map((await this.rpc.call(RewardsAdminRpc.reversalRates, { userIds })).rates.map((r) => [r.userId, r])) : new Map();
    this.audit.noteRead('linked_accounts_viewed', adminId, { groups: groups.length });
    return {
      groups: groups.map((g) => ({
        reasons: g.reasons,
        accounts: g.accounts.map((a) => ({ ...a, credits: rates.get(a.userId)?.credits ?? 0, reversals: rates.get(a.userId)?.reversals ?? 0 })),
      })),
    };
  }
}
