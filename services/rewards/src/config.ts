import { z } from 'zod';
import { envInt, platformConfigSchema } from '@esim/platform';

export const rewardsConfigSchema = platformConfigSchema.extend({
  ADMIN_POINTS_REFRESH_MS: envInt(5000, 100).describe(
    'How often the admin user table\'s order by points catches up with the ledger (docs/admin.md); the points shown are always live.',
  ),
  WEBHOOKS_DB_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]*$/)
    .default('webhooks')
    .describe(
      "The webhooks service's schema. Used once, by the migration that hands over the offer-wall delivery records and the known users from an installation where rewards still held them.",
    ),
});
export type RewardsConfig = z.infer<typeof rewardsConfigSchema>;
