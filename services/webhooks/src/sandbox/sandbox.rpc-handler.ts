import { Controller } from '@nestjs/common';
import { RpcMeta, RpcRequest, RpcResponse, WebhooksRpc } from '@esim/contracts';
import { actingUserId, RpcHandler } from '@esim/platform';
import { OfferwallEmulator } from './offerwall-emulator';

type Req<K extends 'sandboxWallPage' | 'sandboxCompleteOffer' | 'sandboxReverseOffer'> = RpcRequest<(typeof WebhooksRpc)[K]>;

/** The emulated walls, for the acting user (meta.userId) only: a wall opened for another user's uid is refused. */
@Controller()
export class SandboxRpcHandler {
  constructor(private readonly emulator: OfferwallEmulator) {}

  @RpcHandler(WebhooksRpc.sandboxWallPage)
  async page({ notice, ...wall }: Req<'sandboxWallPage'>, meta: RpcMeta): Promise<RpcResponse<typeof WebhooksRpc.sandboxWallPage>> {
    return { html: await this.emulator.page({ ...wall, userId: actingUserId(meta) }, notice) };
  }

  @RpcHandler(WebhooksRpc.sandboxCompleteOffer)
  complete({ offerId, ...wall }: Req<'sandboxCompleteOffer'>, meta: RpcMeta): Promise<RpcResponse<typeof WebhooksRpc.sandboxCompleteOffer>> {
    return this.emulator.complete({ ...wall, userId: actingUserId(meta) }, offerId);
  }

  @RpcHandler(WebhooksRpc.sandboxReverseOffer)
  reverse({ transactionId, ...wall }: Req<'sandboxReverseOffer'>, meta: RpcMeta): Promise<RpcResponse<typeof WebhooksRpc.sandboxReverseOffer>> {
    return this.emulator.reverse({ ...wall, userId: actingUserId(meta) }, transactionId);
  }
}
