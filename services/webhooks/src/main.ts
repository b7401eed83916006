import { runService } from '@esim/platform';
import { startWebhooks } from './app';

runService(() => startWebhooks(process.env, { shutdownHooks: true }));
