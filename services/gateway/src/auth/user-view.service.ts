import { Injectable } from '@nestjs/common';
import { EsimRpc, IdentityRpc, IdentityUser, RewardsRpc, UserView } from '@esim/contracts';
import { RequestContext, RpcClient } from '@esim/platform';

/** Composes the spec's user from the services that own each part of it. */
@Injectable()
export class UserViewService {
  constructor(private readonly rpc: RpcClient) {}

  /** The signed-in user's view; identity answers for the acting user, which is `userId` here. */
  async forUser(userId: string): Promise<UserView> {
    return RequestContext.run({ ...RequestContext.current(), userId }, async () => {
      const [identity, balance, gifts] = await Promise.all([
        this.rpc.call(IdentityRpc.getUser, {}),
        this.rpc.call(RewardsRpc.getBalance, { userId }),
        this.rpc.call(EsimRpc.getGiftSummary, { userId }),
      ]);
      return { ...identity, points: balance.points, ...gifts };
    });
  }

  /**
   * A brand-new account's view from identity's answer alone: nothing was credited or gifted yet
   * (the sign-up bonus arrives by event, and GET /api/user shows it), so neither rewards nor esim
   * is asked and a slow one cannot fail a sign-up that has already happened.
   */
  static newAccount(identity: IdentityUser): UserView {
    return { ...identity, points: 0, dataGiftedGB: 0, iccid: null, planTierLastChosen: null, lastGiftedAt: null };
  }
}
