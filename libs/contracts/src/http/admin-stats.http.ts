import { z } from 'zod';
import { defineRoute } from '../openapi/define-route';

/** The admin dashboard's stat cards (spec section 3, "Admin stats"). */
export const adminStatsSchema = z.object({
  totalUsers: z.number().int(),
  /** GB of data delivered to users. */
  totalDataGifted: z.number().int(),
  /** Sum of every user's points balance. */
  totalPoints: z.number().int(),
  /** Admin gifts in GB: every one granted, those claimed, and those waiting to be claimed. */
  giftsGrantedGB: z.number().int(),
  giftsClaimedGB: z.number().int(),
  giftsPendingGB: z.number().int(),
});
export type AdminStats = z.infer<typeof adminStatsSchema>;

export const AdminStatsRoutes = {
  stats: defineRoute({
    method: 'GET',
    path: '/api/admin/stats',
    tag: 'Admin',
    auth: 'admin',
    summary: "The admin dashboard's stat cards",
    response: adminStatsSchema,
  }),
};
