import { runService } from '@esim/platform';
import { startSandboxes } from './app';

runService(() => startSandboxes(process.env, { shutdownHooks: true }));
