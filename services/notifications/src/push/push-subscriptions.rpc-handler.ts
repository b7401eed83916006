import { Controller } from '@nestjs/common';
import { PushRpc, RpcMeta, RpcRequest, RpcResponse } from '@esim/contracts';
import { actingUserId, RpcHandler } from '@esim/platform';
import { PushSubscriptions } from './push-subscriptions';
import { VapidKeys } from './vapid-keys';

/** The acting user's browsers for Web Push; whose they are comes from meta, never from the request. */
@Controller()
export class PushSubscriptionsRpcHandler {
  constructor(
    private readonly subscriptions: PushSubscriptions,
    private readonly keys: VapidKeys,
  ) {}

  @RpcHandler(PushRpc.getPublicKey)
  async publicKey(_: RpcRequest<typeof PushRpc.getPublicKey>): Promise<RpcResponse<typeof PushRpc.getPublicKey>> {
    return { publicKey: (await this.keys.get()).publicKey };
  }

  @RpcHandler(PushRpc.subscribe)
  async subscribe(request: RpcRequest<typeof PushRpc.subscribe>, meta: RpcMeta): Promise<RpcResponse<typeof PushRpc.subscribe>> {
    await this.subscriptions.save(actingUserId(meta), request);
    return { saved: true };
  }

  @RpcHandler(PushRpc.unsubscribe)
  async unsubscribe({ endpoint }: RpcRequest<typeof PushRpc.unsubscribe>, meta: RpcMeta): Promise<RpcResponse<typeof PushRpc.unsubscribe>> {
    return { removed: await this.subscriptions.remove(actingUserId(meta), endpoint) };
  }
}
