import { runService } from '@esim/platform';
import { startGateway } from './app';

runService(() => startGateway(process.env, { shutdownHooks: true }));
