import { z } from 'zod';
import { defineRpc } from '../rpc/rpc-definition';
import { OFFERWALL_IDS, offerwallsResponseSchema } from './offerwalls';
import { postbackAnswerSchema, postbackDeliverySchema } from './postbacks';
import { taskSchema } from './tasks';

const userRequest = z.object({ userId: z.string().uuid() });
/** The signed-in user (`userId`) acting on the emulated wall opened for `uid` (the id the wall was given). */
const sandboxOffer = z.object({ provider: z.enum(OFFERWALL_IDS), userId: z.string().uuid(), uid: z.string().min(1).max(300) });

export const RewardsRpc = {
  /** The user's points balance: the sum of their ledger entries (reserved points are not available). */
  getBalance: defineRpc('rewards', 'get-balance', userRequest, z.object({ userId: z.string().uuid(), points: z.number().int() })),
  /** Balances of many users at once (the admin user table); a user without an account has 0. */
  getBalances: defineRpc(
    'rewards',
    'get-balances',
    z.object({ userIds: z.array(z.string().uuid()).max(1000) }),
    z.object({ balances: z.array(z.object({ userId: z.string().uuid(), points: z.number().int() })) }),
  ),
  /** Verifies, records and applies one offer-wall callback; answers in the provider's format. */
  ingestPostback: defineRpc('rewards', 'ingest-postback', postbackDeliverySchema, postbackAnswerSchema),
  /** The user's offer-wall tasks, newest first. */
  listTasks: defineRpc('rewards', 'list-tasks', userRequest, z.object({ tasks: z.array(taskSchema) })),
  /** The walls enabled for this user, with the iframe URL or script configuration of each. */
  listOfferwalls: defineRpc('rewards', 'list-offerwalls', userRequest, offerwallsResponseSchema),
  /** Users holding a points account, and the sum of their balances. */
  adminStats: defineRpc('rewards', 'admin-stats', z.object({}), z.object({ totalUsers: z.number().int(), totalPoints: z.number().int() })),
  /** Sandbox only: the emulated wall page for the signed-in user (HTML). */
  sandboxWallPage: defineRpc(
    'rewards',
    'sandbox-wall-page',
    sandboxOffer.extend({ notice: z.string().max(40).optional() }),
    z.object({ html: z.string() }),
  ),
  /** Sandbox only: the emulated provider sends a signed completion postback for a sample offer. */
  sandboxCompleteOffer: defineRpc(
    'rewards',
    'sandbox-complete-offer',
    sandboxOffer.extend({ offerId: z.string().max(40) }),
    z.object({ transactionId: z.string(), answer: postbackAnswerSchema }),
  ),
  /** Sandbox only: the emulated provider sends a signed reversal postback for a task it paid. */
  sandboxReverseOffer: defineRpc(
    'rewards',
    'sandbox-reverse-offer',
    sandboxOffer.extend({ transactionId: z.string().max(128) }),
    z.object({ transactionId: z.string(), answer: postbackAnswerSchema }),
  ),
} as const;
