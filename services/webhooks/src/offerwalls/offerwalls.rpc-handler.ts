import { Controller } from '@nestjs/common';
import { OfferwallsResponse, RpcMeta, RpcRequest, WebhooksRpc } from '@esim/contracts';
import { actingUserId, RpcHandler } from '@esim/platform';
import { OfferwallSettings } from './offerwall-settings';

/** The enabled walls for the acting user (meta.userId): live walls embed the provider, sandbox walls the local emulator. */
@Controller()
export class OfferwallsRpcHandler {
  constructor(private readonly settings: OfferwallSettings) {}

  @RpcHandler(WebhooksRpc.listOfferwalls)
  list(_: RpcRequest<typeof WebhooksRpc.listOfferwalls>, meta: RpcMeta): OfferwallsResponse {
    const userId = actingUserId(meta);
    return {
      walls: this.settings.enabled().map(({ provider, sandbox, credentials }) => {
        const uid = provider.externalUserId(credentials, userId);
        return {
          id: provider.id,
          name: provider.name,
          sandbox,
          uid,
          embed: sandbox
            ? { kind: 'iframe' as const, url: `/sandbox/offerwalls/${provider.id}?uid=${encodeURIComponent(uid)}` }
            : provider.embed(credentials, userId),
        };
      }),
    };
  }
}
