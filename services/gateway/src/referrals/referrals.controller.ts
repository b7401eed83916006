import { Controller, Get, Inject, UseGuards } from '@nestjs/common';
import { IdentityRpc, REFERRAL_QUALIFYING_POINTS, ReferralRpc, ReferralsResponse } from '@esim/contracts';
import { CONFIG, RpcClient } from '@esim/platform';
import type { GatewayConfig } from '../config';
import { AuthGuard } from '../sessions/auth.guard';

/**
 * `GET /api/referrals` (docs/earning.md, "Referrals"): the code and invited friends from identity
 * (names as a friend's privacy allows), each friend's status and bonus from rewards, and the link
 * that opens sign-up with the code.
 */
@Controller('api/referrals')
@UseGuards(AuthGuard)
export class ReferralsController {
  constructor(
    private readonly rpc: RpcClient,
    @Inject(CONFIG) private readonly config: GatewayConfig,
  ) {}

  @Get()
  async referrals(): Promise<ReferralsResponse> {
    const [profile, { referrals, bonusPoints }] = await Promise.all([this.rpc.call(IdentityRpc.getReferralProfile, {}), this.rpc.call(ReferralRpc.list, {})]);
    const names = new Map(profile.invitees.map((i) => [i.userId, i.name]));
    const link = new URL('/auth', this.config.PUBLIC_URL);
    link.search = new URLSearchParams({ signup: 'true', ref: profile.code }).toString();
    return {
      code: profile.code,
      link: link.toString(),
      bonusPoints,
      qualifyingPoints: REFERRAL_QUALIFYING_POINTS,
      invited: referrals.map((r) => ({ name: names.get(r.friendId) ?? null, status: r.status, voidReason: r.voidReason, pointsForYou: r.pointsForYou })),
    };
  }
}
