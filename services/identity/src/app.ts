import { serviceStarter } from '@esim/platform';
import { identityConfigSchema } from './config';
import { IdentityModule } from './identity.module';

export const startIdentity = serviceStarter({
  name: 'identity',
  configSchema: identityConfigSchema,
  defaultPort: 3101,
  module: (config) => IdentityModule.register(config),
});
