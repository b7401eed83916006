import { serviceStarter } from '@esim/platform';
import { identityConfigSchema } from './config';
import { IdentityModule } from './identity.module';

export const startIdentity = serviceStarter({
  name: 'identity',
  configSchema: identityConfigSchema,
  module: (config) => IdentityModule.register(config),
});
