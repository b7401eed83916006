import { Body, Controller, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { z } from 'zod';
import {
  AccountStandingsResponse,
  IdentityAdminRpc,
  LinkedAccountsResponse,
  LinkedGroupDecision,
  linkedGroupDecisionSchema,
  linkedGroupParamsSchema,
  RedemptionRiskAdminRpc,
  RewardsAdminRpc,
} from '@esim/contracts';
import { RpcClient } from '@esim/platform';
import { ZodPipe } from '../common/zod.pipe';
import { CurrentUserId } from '../sessions/auth.guard';
import { AdminAudit } from './admin-audit';
import { AdminGuard } from './admin.guard';

/**
 * Accounts linked by the fraud signals (docs/earning.md, "Fair fraud control"): identity's groups
 * of accounts that used one device, with each account's reversal rate and redemption standing from
 * rewards; and the admins' decisions over a group ("Risk rules"), each in the audit trail.
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
    const [rates, standings] = userIds.length
      ? await Promise.all([
          this.rpc.call(RewardsAdminRpc.reversalRates, { userIds }).then(({ rates }) => new Map(rates.map((r) => [r.userId, r]))),
          this.rpc.call(RedemptionRiskAdminRpc.standings, { userIds }).then(({ accounts }) => new Map(accounts.map((a) => [a.userId, a]))),
        ])
      : [new Map(), new Map()];
    this.audit.noteRead('linked_accounts_viewed', adminId, { groups: groups.length });
    return {
      groups: groups.map((g) => ({
        groupId: g.groupId,
        reasons: g.reasons,
        accounts: g.accounts.map((a) => ({
          ...a,
          credits: rates.get(a.userId)?.credits ?? 0,
          reversals: rates.get(a.userId)?.reversals ?? 0,
          redemptions: standings.get(a.userId)?.state ?? 'open',
          riskReasons: standings.get(a.userId)?.reasons ?? [],
        })),
      })),
    };
  }

  /**
   * Not the same person: identity stops counting the device's link (and announces it, so the risk
   * rules let go of it). Pause, require review, lift: rewards' control of every account of the group.
   */
  @HttpCode(200)
  @Post(':id/decision')
  decide(
    @CurrentUserId() adminId: string,
    @Param(new ZodPipe(linkedGroupParamsSchema)) { id }: z.infer<typeof linkedGroupParamsSchema>,
    @Body(new ZodPipe(linkedGroupDecisionSchema)) { decision, reason }: LinkedGroupDecision,
  ): Promise<AccountStandingsResponse> {
    return this.audit.run(
      `linked_accounts_${decision}`,
      adminId,
      { type: 'linked-accounts', id },
      { decision, reason },
      async () => {
        const { userIds } = await this.rpc.call(IdentityAdminRpc.linkedGroup, { groupId: id, notSamePerson: decision === 'not_same_person' });
        if (decision === 'not_same_person') return this.rpc.call(RedemptionRiskAdminRpc.standings, { userIds });
        return this.rpc.call(RedemptionRiskAdminRpc.controlAccounts, { userIds, action: decision, reason });
      },
      (r) => r.accounts.map((a) => `${a.userId}: ${a.state}`).join(', '),
    );
  }
}
