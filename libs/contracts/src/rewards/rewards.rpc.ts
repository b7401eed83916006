import { z } from 'zod';
import { defineAdminRpc, defineRpc } from '../rpc/rpc-definition';
import { heldPointsSchema } from './held-credits';
import { TASK_PAGE_DEFAULT, TASK_PAGE_MAX, taskPageSchema, taskSchema } from './tasks';

/** Points and tasks. Self-service reads answer for the acting user (meta.userId); 401 without one. */
export const RewardsRpc = {
  /** The acting user's points balance: the sum of their ledger entries (reserved points are not available). */
  getBalance: defineRpc('rewards', 'get-balance', z.object({}), z.object({ userId: z.string().uuid(), points: z.number().int() })),
  /**
   * The acting user's balance with the version BalanceChanged carries (the number of ledger entries on the
   * account), read in one snapshot: the gateway's user view rebuilds from it and keeps whichever
   * of this answer and the events it consumes is newest. `points` is spendable; held credits are
   * `pendingPoints`, with the next releases.
   */
  getVersionedBalance: defineRpc(
    'rewards',
    'get-versioned-balance',
    z.object({}),
    z.object({ userId: z.string().uuid(), points: z.number().int(), version: z.number().int().nonnegative() }).extend(heldPointsSchema.shape),
  ),
  /** Balances of many users at once (the admin user table); a user without an account has 0. */
  getBalances: defineAdminRpc(
    'rewards',
    'get-balances',
    z.object({ userIds: z.array(z.string().uuid()).max(1000) }),
    z.object({ balances: z.array(z.object({ userId: z.string().uuid(), points: z.number().int() })) }),
  ),
  /** The acting user's offer-wall tasks, newest first. */
  listTasks: defineRpc('rewards', 'list-tasks', z.object({}), z.object({ tasks: z.array(taskSchema) })),
  /** A page of the acting user's tasks, newest first, after the task `cursor` names (TaskPage). */
  listTaskPage: defineRpc(
    'rewards',
    'list-task-page',
    z.object({ cursor: z.string().uuid().optional(), limit: z.number().int().min(1).max(TASK_PAGE_MAX).default(TASK_PAGE_DEFAULT) }),
    taskPageSchema,
  ),
  /** Users holding a points account, and the sum of their balances. */
  adminStats: defineAdminRpc('rewards', 'admin-stats', z.object({}), z.object({ totalUsers: z.number().int(), totalPoints: z.number().int() })),
} as const;
