import { serviceStarter } from '@esim/platform';
import { esimConfigSchema } from './config';
import { EsimModule } from './esim.module';

export const startEsim = serviceStarter({ name: 'esim', configSchema: esimConfigSchema, module: (config) => EsimModule.register(config) });
