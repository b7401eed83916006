import { z } from 'zod';
import { defineRpc } from '../rpc/rpc-definition';

/** What the user row shows about data gifts: the last successful gift and the total gifted. */
export const giftSummarySchema = z.object({
  dataGiftedGB: z.number().int(),
  iccid: z.string().nullable(),
  planTierLastChosen: z.string().nullable(),
  lastGiftedAt: z.string().nullable(),
});
export type GiftSummary = z.infer<typeof giftSummarySchema>;

export const EsimRpc = {
  getGiftSummary: defineRpc('esim', 'get-gift-summary', z.object({ userId: z.string().uuid() }), giftSummarySchema),
  /** GB delivered to all users so far (the admin stat card). */
  getGiftTotals: defineRpc('esim', 'get-gift-totals', z.object({}), z.object({ totalDataGiftedGB: z.number().int() })),
  /** Gift summaries of many users at once (the admin user table); a user without gifts gets zeros. */
  getGiftSummaries: defineRpc(
    'esim',
    'get-gift-summaries',
    z.object({ userIds: z.array(z.string().uuid()).max(1000) }),
    z.object({ summaries: z.array(giftSummarySchema.extend({ userId: z.string().uuid() })) }),
  ),
} as const;
