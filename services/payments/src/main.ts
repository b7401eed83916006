import { runService } from '@esim/platform';
import { startPayments } from './app';

runService(() => startPayments(process.env, { shutdownHooks: true }));
