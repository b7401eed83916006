import { runService } from '@esim/platform';
import { startNotifications } from './app';

runService(() => startNotifications(process.env, { shutdownHooks: true }));
