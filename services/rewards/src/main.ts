import { runService } from '@esim/platform';
import { startRewards } from './app';

runService(() => startRewards(process.env, { shutdownHooks: true }));
