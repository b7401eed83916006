import { DEFAULT_HTTP_PORTS } from '@esim/contracts';
import { serviceStarter } from '@esim/platform';
import { webhooksConfigSchema } from './config';
import { configureEdge } from './http/edge';
import { ProviderDoorGuard } from './http/provider-door-guard';
import { PostbackFastPath } from './postbacks/postback-fast-path';
import { WebhooksModule } from './webhooks.module';

export const startWebhooks = serviceStarter({
  name: 'webhooks',
  configSchema: webhooksConfigSchema,
  httpPort: (config) => config.WEBHOOKS_PORT ?? config.HEALTH_PORT ?? DEFAULT_HTTP_PORTS.webhooks,
  opsPort: (config) => config.OPS_PORT,
  module: (config) => WebhooksModule.register(config),
  configure: (app, config) => {
    configureEdge(app, config);
    // Plain GET callbacks answered in front of Express (postback-fast-path.ts).
    PostbackFastPath.install(app, config.PUBLIC_URL);
    // Installed last, so in front of everything: every callback passes the door first.
    ProviderDoorGuard.install(app, config);
  },
  bodyParser: false,
});
