import { z } from 'zod';

/** The admin dashboard's stat cards (spec section 3, "Admin stats"). */
export const adminStatsSchema = z.object({
  totalUsers: z.number().int(),
  /** GB of data delivered to users. */
  totalDataGifted: z.number().int(),
  /** Sum of every user's points balance. */
  totalPoints: z.number().int(),
});
export type AdminStats = z.infer<typeof adminStatsSchema>;
