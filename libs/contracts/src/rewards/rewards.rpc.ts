import { z } from 'zod';
import { defineRpc } from '../rpc/rpc-definition';

export const RewardsRpc = {
  /** The user's points balance: the sum of their ledger entries. */
  getBalance: defineRpc('rewards', 'get-balance', z.object({ userId: z.string().uuid() }), z.object({ userId: z.string().uuid(), points: z.number().int() })),
} as const;
