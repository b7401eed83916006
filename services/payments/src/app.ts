import { serviceStarter } from '@esim/platform';
import { paymentsConfigSchema } from './config';
import { PaymentsModule } from './payments.module';

export const startPayments = serviceStarter({ name: 'payments', configSchema: paymentsConfigSchema, module: (config) => PaymentsModule.register(config) });
