import { Injectable } from '@nestjs/common';
import { EsimRpc, IdentityRpc, RewardsRpc, UserView } from '@esim/contracts';
import { RpcClient } from '@esim/platform';

/** Composes the spec's user from the services that own each part of it. */
@Injectable()
export class UserViewService {
  constructor(private readonly rpc: RpcClient) {}

  async forUser(userId: string): Promise<UserView> {
    const [identity, balance, gifts] = await Promise.all([
      this.rpc.call(IdentityRpc.getUser, { userId }),
      this.rpc.call(RewardsRpc.getBalance, { userId }),
      this.rpc.call(EsimRpc.getGiftSummary, { userId }),
    ]);
    return { ...identity, points: balance.points, ...gifts };
  }
}
