import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { OFFERWALL_IDS, OfferwallId, OfferwallPostbacksAccepted, RewardsRpc, SIGNUP_BONUS_POINTS } from '@esim/contracts';
import { RpcClient } from '@esim/platform';
import { asUser, TEST_AMQP_URL, TEST_DATABASE_URL, waitFor } from '@esim/testing';
import { OFFERWALL_PROVIDERS } from '../../services/webhooks/src/postbacks/providers';
import type { EmulatedPostback } from '../../services/webhooks/src/postbacks/providers/offerwall-provider';
import { HttpClient } from '../support/http-client';
import { startSystem, System } from '../support/system';
import { callPostback, PlainAnswer, postbackFor, signUpEarner, signedPostbackUrl } from './earning-support';
import { RewardsProcess } from './rewards-process';

const KILLS = 3;
const SENDERS = 8;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The crash drill: rewards is killed outright (SIGKILL) three times while providers keep
 * calling, each time while it is crediting. Providers get every answer from the ingestion service
 * alone; what rewards had taken from the broker but not committed is delivered again, and what it
 * had committed but not acknowledged finds its inbox row: after the last start every accepted
 * delivery is credited exactly once, and each user sees the balance the ledger holds. No timing
 * is asserted.
 */
describe('rewards killed while postbacks arrive', () => {
  let sys: System;
  let rpc: RpcClient;
  let rewardsDb: Client;
  let rewards: RewardsProcess | undefined;
  const earners: Array<{ id: string; client: HttpClient }> = [];

  const startRewards = () =>
    RewardsProcess.start(sys.ns.env('rewards') as NodeJS.ProcessEnv);

  beforeAll(async () => {
    sys = await startSystem({ services: ['identity', 'esim', 'notifications', 'webhooks'] });
    rewards = await startRewards();
    for (let i = 0; i < 3; i++) {
      const client = sys.client();
      earners.push({ id: (await signUpEarner(client, sys.mail, {}, sys)).id, client });
    }
    rpc = new RpcClient({ exchange: `${sys.ns.id}.events`, queuePrefix: `${sys.ns.id}.`, url: TEST_AMQP_URL, timeoutMs: 15_000 });
    rewardsDb = new Client({ connectionString: TEST_DATABASE_URL, options: `-c search_path=${sys.ns.schema('rewards')}` });
    await rewardsDb.connect();
  }, 120_000);
  afterAll(async () => {
    await rewards?.kill().catch(() => undefined);
    await rewardsDb?.end();
    await rpc?.close();
    await sys?.stop();
  });

  const webhooksDb = () => sys.apps.webhooks!.get(DataSource);
  const credited = async () =>
    (
      await rewardsDb.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM ledger_transfers WHERE kind = 'offerwall_credit' AND reference LIKE '%:crash-%'`,
      )
    ).rows[0].n;
  const accepted = async (): Promise<number> =>
    (await webhooksDb().query(`SELECT count(*)::int AS n FROM webhook_transactions WHERE status = 'accepted'`))[0].n;
  /** Until rewards has credited `more` of this run's postbacks beyond what it had. */
  const crediting = async (more: number) => {
    const before = await credited();
    await waitFor(async () => (await credited()) >= before + more, { timeoutMs: 30_000, intervalMs: 5, what: 'rewards to be crediting' });
  };

  it(`answers every provider through ${KILLS} kills of rewards, then credits each accepted delivery exactly once`, async () => {
    const sent: Array<{ provider: OfferwallId; pb: EmulatedPostback; url: string }> = [];
    const answers: Array<{ provider: OfferwallId; answer: PlainAnswer }> = [];
    let sending = true;
    let next = 0;
    // Providers call the public URL (the gateway) without pause; every tenth call replays an earlier one.
    const sender = async () => {
      while (sending) {
        const i = next++;
        if (i % 10 === 9 && sent.length > 5) {
          const earlier = sent[sent.length - 5];
          answers.push({ provider: earlier.provider, answer: await callPostback(earlier.url) });
          continue;
        }
        const provider = OFFERWALL_IDS[i % OFFERWALL_IDS.length];
        const pb = { ...postbackFor(earners[i % earners.length].id, 1 + (i % 7)), transactionId: `crash-${i}-${randomUUID()}` };
        const url = signedPostbackUrl(sys, provider, pb);
        sent.push({ provider, pb, url });
        answers.push({ provider, answer: await callPostback(url) });
      }
    };
    const senders = Array.from({ length: SENDERS }, sender);

    const backlogAtKill: number[] = [];
    try {
      for (let k = 0; k < KILLS; k++) {
        // Killed while it credits: it has just credited some of this run's postbacks, and more are coming.
        await crediting(20);
        await rewards!.kill();
        rewards = undefined;
        backlogAtKill.push((await accepted()) - (await credited()));
        await sleep(300); // providers keep calling while it is away
        rewards = await startRewards();
      }
      // The load goes on for a while after the last start too.
      await crediting(20);
    } finally {
      sending = false;
      await Promise.all(senders);
    }

    // Every provider got its documented answer, whether rewards was up or not.
    expect(answers.map(({ answer }) => [answer.status, answer.body])).toEqual(
      answers.map(({ provider }) => [200, OFFERWALL_PROVIDERS[provider].ack]),
    );
    // Each kill left the next start accepted deliveries to credit (a backlog from the outbox and the broker).
    expect(backlogAtKill).toHaveLength(KILLS);
    for (const backlog of backlogAtKill) expect(backlog).toBeGreaterThan(0);
    expect(await accepted()).toBe(sent.length);

    // Everything accepted is applied once rewards is back: each OfferwallPostbacksAccepted is in its inbox.
    await waitFor(
      async () => {
        const events: Array<{ id: string }> = await webhooksDb().query('SELECT id FROM outbox_events WHERE routing_key = $1', [
          OfferwallPostbacksAccepted.routingKey,
        ]);
        const applied = await rewardsDb.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM inbox_events WHERE event_id = ANY($1::uuid[])',
          [events.map((e) => e.id)],
        );
        return applied.rows[0].n === events.length;
      },
      { timeoutMs: 45_000, intervalMs: 50, what: 'rewards to apply every accepted postback' },
    );

    // One credit per provider transaction: no more (a redelivery after a kill), no fewer (a lost one).
    const transfers = await rewardsDb.query<{ reference: string; n: number }>(
      `SELECT reference, count(*)::int AS n FROM ledger_transfers WHERE kind = 'offerwall_credit' AND reference LIKE '%:crash-%' GROUP BY reference`,
    );
    expect(transfers.rows.filter((t) => t.n !== 1)).toEqual([]);
    expect(transfers.rows.map((t) => t.reference).sort()).toEqual(sent.map(({ provider, pb }) => `${provider}:${pb.transactionId}`).sort());

    for (const { id, client } of earners) {
      const mine = sent.filter(({ pb }) => pb.userId === id);
      const expected = SIGNUP_BONUS_POINTS + mine.reduce((sum, { pb }) => sum + pb.offer.points, 0);
      const { points } = await asUser(id, () => rpc.call(RewardsRpc.getBalance, {}));
      expect({ id, points }).toEqual({ id, points: expected });
      // A task per credit (the list the user reads stops at its newest TASK_LIST_LIMIT: counted in the table).
      const tasks = await rewardsDb.query<{ n: number }>('SELECT count(*)::int AS n FROM tasks WHERE user_id = $1', [id]);
      expect({ id, tasks: tasks.rows[0].n }).toEqual({ id, tasks: mine.length });
      // What the user sees: the gateway's view catches up with the ledger.
      await waitFor(async () => (await client.get('/api/user')).json().points === expected, { what: `${id}'s balance on /api/user` });
    }
  }, 120_000);
});
