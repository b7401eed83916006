import { z } from 'zod';
import { platformConfigSchema } from '@esim/platform';

export const paymentsConfigSchema = platformConfigSchema.extend({});
export type PaymentsConfig = z.infer<typeof paymentsConfigSchema>;
