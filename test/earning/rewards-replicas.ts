import { Client } from 'pg';
import { TEST_DATABASE_URL } from '@esim/testing';
import { RewardsUnderTest, startRewardsUnderTest } from '../../services/rewards/src/testing/rewards-harness';
import { expectLedgerInvariants } from '../../services/rewards/src/testing/ledger-invariants';
import { RewardsProcess } from './rewards-process';

/**
 * The crash drills' setting: an in-process rewards service that owns the namespace (schema,
 * queues) and registers users, whose release job only runs at start, before anything is due; and
 * rewards replicas as processes of their own, which release and can be SIGKILLed.
 */
export interface RewardsReplicas {
  rewards: RewardsUnderTest;
  /** Rewards' schema, read directly. */
  db: Client;
  count(sql: string, params?: unknown[]): Promise<number>;
  /** A replica that releases every 100 ms. */
  start(): Promise<RewardsProcess>;
  /** Kills the replica at once, whatever it is doing, and starts another in its place. */
  killAndRestart(victim: RewardsProcess): Promise<RewardsProcess>;
  /** Kills the replicas left, checks the ledger's invariants and stops the service. */
  stop(): Promise<void>;
}

export async function startRewardsReplicas(env: Record<string, string>): Promise<RewardsReplicas> {
  const rewards = await startRewardsUnderTest({ ...env, CREDIT_RELEASE_INTERVAL_MS: String(3600_000) });
  const db = new Client({ connectionString: TEST_DATABASE_URL, options: `-c search_path=${rewards.ns.schema('rewards')}` });
  await db.connect();
  const running: RewardsProcess[] = [];
  const start = async () => {
    const replica = await RewardsProcess.start(
      rewards.ns.env('rewards', {
        ...env,
        CREDIT_RELEASE_INTERVAL_MS: '100',
      }) as NodeJS.ProcessEnv,
    );
    running.push(replica);
    return replica;
  };
  return {
    rewards,
    db,
    count: async (sql, params = []) => (await db.query<{ n: number }>(sql, params)).rows[0].n,
    start,
    async killAndRestart(victim) {
      await victim.kill();
      running.splice(running.indexOf(victim), 1);
      return start();
    },
    async stop() {
      for (const r of running) await r.kill().catch(() => undefined);
      await db.end();
      await expectLedgerInvariants(rewards.db);
      await rewards.stop();
    },
  };
}
