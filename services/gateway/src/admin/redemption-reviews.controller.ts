import { Body, Controller, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { z } from 'zod';
import {
  AccountControlDecision,
  accountControlDecisionSchema,
  accountParamsSchema,
  AccountStandingsResponse,
  AdminRedemptionRiskQueue,
  IdentityAdminRpc,
  RedemptionReviewDecision,
  redemptionReviewDecisionSchema,
  redemptionReviewParamsSchema,
  RedemptionRiskAdminRpc,
} from '@esim/contracts';
import { RpcClient } from '@esim/platform';
import { ZodPipe } from '../common/zod.pipe';
import { CurrentUserId } from '../sessions/auth.guard';
import { AdminAudit } from './admin-audit';
import { AdminGuard } from './admin.guard';

/** Reviews and appeals read at once (the oldest wait first). */
const LIMIT = 200;

/**
 * The risk rules' queue in /admin (docs/earning.md, "Risk rules"): redemptions waiting for an
 * admin and users' appeals, and the decisions — approve or reject a redemption (once: rewards
 * answers 409 to the second of two admins), pause, require review or lift an account's
 * redemptions — each written to the audit trail, with the admin's reason, before it runs.
 */
@Controller('api/admin')
@UseGuards(AdminGuard)
export class RedemptionReviewsController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly audit: AdminAudit,
  ) {}

  @Get('redemption-reviews')
  async queue(@CurrentUserId() adminId: string): Promise<AdminRedemptionRiskQueue> {
    const { reviews, appeals } = await this.rpc.call(RedemptionRiskAdminRpc.queue, { limit: LIMIT });
    const userIds = [...new Set([...reviews, ...appeals].map((r) => r.userId))];
    const users = userIds.length ? new Map((await this.rpc.call(IdentityAdminRpc.getUsers, { userIds })).users.map((u) => [u.id, u])) : new Map();
    const userOf = (id: string) => {
      const u = users.get(id);
      return u ? { id: u.id, name: u.name, email: u.email } : null;
    };
    this.audit.noteRead('redemption_reviews_viewed', adminId, { reviews: reviews.length, appeals: appeals.length });
    return { reviews: reviews.map((r) => ({ ...r, user: userOf(r.userId) })), appeals: appeals.map((a) => ({ ...a, user: userOf(a.userId) })) };
  }

  @HttpCode(200)
  @Post('redemption-reviews/:id/decision')
  decide(
    @CurrentUserId() adminId: string,
    @Param(new ZodPipe(redemptionReviewParamsSchema)) { id }: z.infer<typeof redemptionReviewParamsSchema>,
    @Body(new ZodPipe(redemptionReviewDecisionSchema)) decision: RedemptionReviewDecision,
  ): Promise<{ redemptionId: string; status: string }> {
    return this.audit.run(
      `redemption_review_${decision.decision}`,
      adminId,
      { type: 'redemption', id },
      { decision: decision.decision, reason: decision.reason },
      () => this.rpc.call(RedemptionRiskAdminRpc.decideReview, { redemptionId: id, ...decision }),
      (r) => r.status,
    );
  }

  @HttpCode(200)
  @Post('accounts/:id/redemption-control')
  control(
    @CurrentUserId() adminId: string,
    @Param(new ZodPipe(accountParamsSchema)) { id }: z.infer<typeof accountParamsSchema>,
    @Body(new ZodPipe(accountControlDecisionSchema)) decision: AccountControlDecision,
  ): Promise<AccountStandingsResponse> {
    return this.audit.run(
      `redemptions_${decision.action}`,
      adminId,
      { type: 'user', id },
      { action: decision.action, reason: decision.reason },
      () => this.rpc.call(RedemptionRiskAdminRpc.controlAccounts, { userIds: [id], ...decision }),
      (r) => r.accounts.map((a) => a.state).join(', '),
    );
  }
}
