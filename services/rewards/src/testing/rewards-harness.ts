import { RewardsRpc, SIGNUP_BONUS_POINTS } from '@esim/contracts';
import type { Env } from '@esim/platform';
import { asUser, ServiceUnderTest, startServiceUnderTest, waitFor } from '@esim/testing';
import { startRewards } from '../app';

/** The real rewards service in its own namespace, and what tests need around it. */
export interface RewardsUnderTest extends ServiceUnderTest {
  /** A user registered through the real UserRegistered event, once the bonus is in. */
  registerUser(): Promise<string>;
  /** The user's available points, asked as that user (the acting user of get-balance). */
  points(userId: string): Promise<number>;
}

export async function startRewardsUnderTest(env: Env = {}): Promise<RewardsUnderTest> {
  const base = await startServiceUnderTest('rewards', startRewards, () => ({ ...env }));
  const points = async (userId: string) => (await asUser(userId, () => base.rpc.call(RewardsRpc.getBalance, {}))).points;
  return {
    ...base,
    points,
    async registerUser() {
      const { userId } = await base.announceUser();
      await waitFor(async () => (await points(userId)) === SIGNUP_BONUS_POINTS, { what: 'the sign-up bonus' });
      return userId;
    },
  };
}
