import { serviceStarter } from '@esim/platform';
import { rewardsConfigSchema } from './config';
import { RewardsModule } from './rewards.module';

export const startRewards = serviceStarter({ name: 'rewards', configSchema: rewardsConfigSchema, module: (config) => RewardsModule.register(config) });
