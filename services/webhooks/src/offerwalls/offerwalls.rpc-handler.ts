import { Controller } from '@nestjs/common';
import { OfferwallsResponse, WebhooksRpc } from '@esim/contracts';
import { RpcHandler } from '@esim/platform';
import { OfferwallSettings } from './offerwall-settings';

/** The enabled walls for one user: live walls embed the provider, sandbox walls the local emulator. */
@Controller()
export class OfferwallsRpcHandler {
  constructor(private readonly settings: OfferwallSettings) {}

  @RpcHandler(WebhooksRpc.listOfferwalls)
  list({ userId }: { userId: string }): OfferwallsResponse {
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
