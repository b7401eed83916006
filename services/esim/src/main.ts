import { runService } from '@esim/platform';
import { startEsim } from './app';

runService(() => startEsim(process.env, { shutdownHooks: true }));
