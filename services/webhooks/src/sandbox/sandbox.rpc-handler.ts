import { Controller } from '@nestjs/common';
import { WebhooksRpc, RpcRequest, RpcResponse } from '@esim/contracts';
import { RpcHandler } from '@esim/platform';
import { OfferwallEmulator } from './offerwall-emulator';

type Req<K extends 'sandboxWallPage' | 'sandboxCompleteOffer' | 'sandboxReverseOffer'> = RpcRequest<(typeof WebhooksRpc)[K]>;

@Controller()
export class SandboxRpcHandler {
  constructor(private readonly emulator: OfferwallEmulator) {}

  @RpcHandler(WebhooksRpc.sandboxWallPage)
  async page({ notice, ...visit }: Req<'sandboxWallPage'>): Promise<RpcResponse<typeof WebhooksRpc.sandboxWallPage>> {
    return { html: await this.emulator.page(visit, notice) };
  }

  @RpcHandler(WebhooksRpc.sandboxCompleteOffer)
  complete({ offerId, ...visit }: Req<'sandboxCompleteOffer'>): Promise<RpcResponse<typeof WebhooksRpc.sandboxCompleteOffer>> {
    return this.emulator.complete(visit, offerId);
  }

  @RpcHandler(WebhooksRpc.sandboxReverseOffer)
  reverse({ transactionId, ...visit }: Req<'sandboxReverseOffer'>): Promise<RpcResponse<typeof WebhooksRpc.sandboxReverseOffer>> {
    return this.emulator.reverse(visit, transactionId);
  }
}
