import { z } from 'zod';
import { platformConfigSchema } from '@esim/platform';

export const esimConfigSchema = platformConfigSchema.extend({});
export type EsimConfig = z.infer<typeof esimConfigSchema>;
