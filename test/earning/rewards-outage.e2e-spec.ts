import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { OFFERWALL_IDS, RewardsRpc, SIGNUP_BONUS_POINTS } from '@esim/contracts';
import { RpcClient } from '@esim/platform';
import { asUser, TEST_AMQP_URL } from '@esim/testing';
import { startRewards } from '../../services/rewards/src/app';
import { OFFERWALL_PROVIDERS } from '../../services/webhooks/src/postbacks/providers';
import type { EmulatedPostback } from '../../services/webhooks/src/postbacks/providers/offerwall-provider';
import { startSystem, System } from '../support/system';
import { callPostback, earningSettled, PlainAnswer, postbackFor, signUpEarner, signedPostbackUrl } from './earning-support';

/**
 * Rewards goes down while providers keep calling: the ingestion service answers every postback on
 * its own, keeps what it accepted in its outbox and the broker, and once rewards is back each
 * accepted delivery is credited exactly once. No timing is asserted.
 */
describe('postbacks while rewards is down', () => {
  let sys: System;
  let rpc: RpcClient;
  const users: string[] = [];

  beforeAll(async () => {
    sys = await startSystem({ services: ['identity', 'rewards', 'esim', 'notifications', 'webhooks'] });
    for (let i = 0; i < 3; i++) users.push((await signUpEarner(sys.client(), sys.mail, {}, sys)).id);
    rpc = new RpcClient({ exchange: `${sys.ns.id}.events`, queuePrefix: `${sys.ns.id}.`, url: TEST_AMQP_URL, timeoutMs: 15_000 });
  });
  afterAll(async () => {
    await rpc?.close();
    await sys?.stop();
  });

  /** Sends the postbacks `width` at a time, as a busy provider does; answers in order. */
  const send = async (urls: string[], width = 8): Promise<PlainAnswer[]> => {
    const answers: PlainAnswer[] = new Array(urls.length);
    let next = 0;
    await Promise.all(
      Array.from({ length: width }, async () => {
        while (next < urls.length) {
          const i = next++;
          answers[i] = await callPostback(urls[i]);
        }
      }),
    );
    return answers;
  };

  it('answers every provider while rewards is away, then credits each accepted delivery exactly once', async () => {
    // 240 new transactions over the five walls and three users, plus a replay of every tenth.
    const postbacks: Array<{ provider: (typeof OFFERWALL_IDS)[number]; pb: EmulatedPostback }> = Array.from({ length: 240 }, (_, i) => ({
      provider: OFFERWALL_IDS[i % OFFERWALL_IDS.length],
      pb: { ...postbackFor(users[i % users.length], 1 + (i % 7)), transactionId: `outage-${i}-${randomUUID()}` },
    }));
    const urls = postbacks.map(({ provider, pb }) => signedPostbackUrl(sys, provider, pb));
    const stream = urls.flatMap((url, i) => (i % 10 === 9 ? [url, urls[i - 5]] : [url]));
    const expectedAcks = stream.map((url) => OFFERWALL_PROVIDERS[postbacks[urls.indexOf(url)].provider].ack);
    const third = Math.floor(stream.length / 3);

    const before = await send(stream.slice(0, third));
    const stopping = sys.apps.rewards!.close();
    const during = await send(stream.slice(third, 2 * third));
    await stopping;
    const whileDown = await send(stream.slice(2 * third));

    const answers = [...before, ...during, ...whileDown];
    expect(answers.map((a) => [a.status, a.body])).toEqual(expectedAcks.map((ack) => [200, ack]));
    // Nothing applies them while rewards is away; they wait (webhooks' outbox, then the broker).
    const webhooks = sys.apps.webhooks!.get(DataSource);
    const [{ accepted }] = await webhooks.query(`SELECT count(*)::int AS accepted FROM webhook_transactions WHERE status = 'accepted'`);
    expect(accepted).toBe(postbacks.length);

    sys.apps.rewards = await startRewards(sys.ns.env('rewards'));
    await earningSettled(sys, 60_000);

    for (const userId of users) {
      const mine = postbacks.filter(({ pb }) => pb.userId === userId);
      const { points } = await asUser(userId, () => rpc.call(RewardsRpc.getBalance, {}));
      expect({ userId, points }).toEqual({ userId, points: SIGNUP_BONUS_POINTS + mine.reduce((sum, { pb }) => sum + pb.offer.points, 0) });
      const { tasks } = await asUser(userId, () => rpc.call(RewardsRpc.listTasks, {}));
      expect(tasks).toHaveLength(mine.length);
    }
    const ledger = sys.apps.rewards.get(DataSource);
    const credits: Array<{ reference: string; n: number }> = await ledger.query(
      `SELECT reference, count(*)::int AS n FROM ledger_transfers WHERE kind = 'offerwall_credit' AND reference LIKE '%:outage-%' GROUP BY reference`,
    );
    expect(credits).toHaveLength(postbacks.length);
    expect(credits.filter((c) => c.n !== 1)).toEqual([]);
  });
});
