import { Controller } from '@nestjs/common';
import { RewardsRpc, RpcRequest, RpcResponse } from '@esim/contracts';
import { RpcHandler } from '@esim/platform';
import { OfferwallEmulator } from './offerwall-emulator';

type Req<K extends 'sandboxWallPage' | 'sandboxCompleteOffer' | 'sandboxReverseOffer'> = RpcRequest<(typeof RewardsRpc)[K]>;

@Controller()
export class SandboxRpcHandler {
  constructor(private readonly emulator: OfferwallEmulator) {}

  @RpcHandler(RewardsRpc.sandboxWallPage)
  async page({ notice, ...visit }: Req<'sandboxWallPage'>): Promise<RpcResponse<typeof RewardsRpc.sandboxWallPage>> {
    return { html: await this.emulator.page(visit, notice) };
  }

  @RpcHandler(RewardsRpc.sandboxCompleteOffer)
  complete({ offerId, ...visit }: Req<'sandboxCompleteOffer'>): Promise<RpcResponse<typeof RewardsRpc.sandboxCompleteOffer>> {
    return this.emulator.complete(visit, offerId);
  }

  @RpcHandler(RewardsRpc.sandboxReverseOffer)
  reverse({ transactionId, ...visit }: Req<'sandboxReverseOffer'>): Promise<RpcResponse<typeof RewardsRpc.sandboxReverseOffer>> {
    return this.emulator.reverse(visit, transactionId);
  }
}
