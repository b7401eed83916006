import { serviceStarter } from '@esim/platform';
import { paymentsConfigSchema } from './config';
import { PaymentsModule } from './payments.module';

export const startPayments = serviceStarter({ name: 'payments', configSchema: paymentsConfigSchema, defaultPort: 3104, module: (config) => PaymentsModule.register(config) });
