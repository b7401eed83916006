import { DEFAULT_HTTP_PORTS } from '@esim/contracts';
import { serviceStarter } from '@esim/platform';
import { webhooksConfigSchema } from './config';
import { configureEdge } from './http/edge';
import { PostbackFastPath } from './postbacks/postback-fast-path';
import { WebhooksModule } from './webhooks.module';

export const startWebhooks = serviceStarter({
  name: 'webhooks',
  configSchema: webhooksConfigSchema,
  httpPort: (config) => config.WEBHOOKS_PORT ?? config.HEALTH_PORT ?? DEFAULT_HTTP_PORTS.webhooks,
  module: (config) => WebhooksModule.register(config),
  configure: (app, config) => {
    configureEdge(app, config);
    // Plain GET callbacks answered in front of Express (postback-fast-path.ts).
    if (config.POSTBACK_FAST_PATH) PostbackFastPath.install(app, config.PUBLIC_URL);
  },
  bodyParser: false,
});
