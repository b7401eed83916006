import { runService } from '@esim/platform';
import { startIdentity } from './app';

runService(() => startIdentity(process.env, { shutdownHooks: true }));
