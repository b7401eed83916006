import { Body, Controller, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { z } from 'zod';
import {
  AdminCreditClaim,
  AdminCreditClaimsResponse,
  CreditClaimAdminRpc,
  CreditClaimDecision,
  creditClaimDecisionSchema,
  creditClaimParamsSchema,
  IdentityAdminRpc,
} from '@esim/contracts';
import { RpcClient } from '@esim/platform';
import { ZodPipe } from '../common/zod.pipe';
import { CurrentUserId } from '../sessions/auth.guard';
import { AdminAudit } from './admin-audit';
import { AdminGuard } from './admin.guard';

/** Claims read at once (the oldest wait first). */
const LIMIT = 200;

/**
 * Missing-credit claims in the operator queue (docs/admin.md, docs/earning.md "Missing credit"):
 * the open ones with their user, and the decision — credit through the ledger (once: rewards
 * answers 409 to the second of two admins) or reject with a reason the user reads — written to
 * the audit trail before it runs.
 */
@Controller('api/admin/credit-claims')
@UseGuards(AdminGuard)
export class CreditClaimsAdminController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly audit: AdminAudit,
  ) {}

  @Get()
  async list(@CurrentUserId() adminId: string): Promise<AdminCreditClaimsResponse> {
    const { claims } = await this.rpc.call(CreditClaimAdminRpc.listOpen, { limit: LIMIT });
    const userIds = [...new Set(claims.map((c) => c.userId))];
    const users = userIds.length ? new Map((await this.rpc.call(IdentityAdminRpc.getUsers, { userIds })).users.map((u) => [u.id, u])) : new Map();
    this.audit.noteRead('credit_claims_viewed', adminId, { claims: claims.length });
    return {
      claims: claims.map((c) => {
        const u = users.get(c.userId);
        return { ...c, user: u ? { id: u.id, name: u.name, email: u.email } : null };
      }),
    };
  }

  @HttpCode(200)
  @Post(':id/decision')
  decide(
    @CurrentUserId() adminId: string,
    @Param(new ZodPipe(creditClaimParamsSchema)) { id }: z.infer<typeof creditClaimParamsSchema>,
    @Body(new ZodPipe(creditClaimDecisionSchema)) decision: CreditClaimDecision,
  ): Promise<AdminCreditClaim> {
    const details: Record<string, string | number> =
      decision.decision === 'credit' ? { decision: 'credit', points: decision.points } : { decision: 'reject', reason: decision.reason };
    return this.audit.run(
      `credit_claim_${decision.decision}`,
      adminId,
      { type: 'credit-claim', id },
      details,
      () => this.rpc.call(CreditClaimAdminRpc.decide, { claimId: id, ...decision }),
      (c) => (c.status === 'credited' ? `credited ${c.points} points` : 'rejected'),
    );
  }
}
