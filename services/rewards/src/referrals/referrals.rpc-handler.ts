import { Controller, Inject } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ReferralRpc, RpcMeta, RpcRequest, RpcResponse } from '@esim/contracts';
import { actingUserId, CONFIG, RpcHandler } from '@esim/platform';
import type { RewardsConfig } from '../config';
import { Referrals } from './referrals.service';

/** The acting user's invited friends and what each brought them. */
@Controller()
export class ReferralsRpcHandler {
  constructor(
    private readonly db: DataSource,
    private readonly referrals: Referrals,
    @Inject(CONFIG) private readonly config: RewardsConfig,
  ) {}

  @RpcHandler(ReferralRpc.list)
  async list(_: RpcRequest<typeof ReferralRpc.list>, meta: RpcMeta): Promise<RpcResponse<typeof ReferralRpc.list>> {
    return { referrals: await this.referrals.listFor(this.db.manager, actingUserId(meta)), bonusPoints: this.config.REFERRAL_BONUS_POINTS };
  }
}
