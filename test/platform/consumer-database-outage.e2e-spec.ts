import type { EventEnvelope } from '@esim/contracts';
import { EventConsumer } from '@esim/platform';
import { startServiceUnderTest, TEST_DATABASE_URL, TcpProxy, waitFor, type ServiceUnderTest } from '@esim/testing';
import { startRewards } from '../../services/rewards/src/app';

/**
 * Events that arrive while a service's database cannot be reached wait for it and are then
 * applied, each once; none is dead-lettered for it. Returned to the queue at once, each came back
 * and failed again until the delivery limit (3 here) sent it to the dead-letter queue within
 * milliseconds: a database cut lost accepted postbacks (scripts/chaos-drill.mjs found it).
 */
describe('a consumer during a database outage', () => {
  let db: TcpProxy;
  let rewards: ServiceUnderTest;

  beforeAll(async () => {
    const target = new URL(TEST_DATABASE_URL);
    db = await new TcpProxy(target.hostname, Number(target.port || 5432)).start();
    target.hostname = '127.0.0.1';
    target.port = String(db.port);
    rewards = await startServiceUnderTest('rewards', startRewards, () => ({ DATABASE_URL: target.toString() }));
  });
  afterAll(async () => {
    db?.accept();
    await rewards?.stop();
    await db?.stop();
  });

  it('holds what failed on the unreachable database and applies it once the database is back', async () => {
    const consumer = rewards.app.get(EventConsumer);
    const failedBefore = consumer.stats.failed;
    db.refuse();
    const announced: EventEnvelope[] = [];
    for (let i = 0; i < 5; i++) announced.push((await rewards.announceUser()).envelope);
    // Each has failed on the database, and is now either held until it answers, or (as before)
    // already spent its deliveries and sits in the dead-letter queue.
    await waitFor(async () => consumer.stats.failed - failedBefore >= announced.length && (consumer.stats.heldForStore === announced.length || (await rewards.deadLettered()) > 0), {
      what: 'the deliveries to be held or dead-lettered',
      timeoutMs: 20_000,
    });
    db.accept();

    for (const envelope of announced) await rewards.applied(envelope);
    expect(await rewards.deadLettered()).toBe(0);
    const ids = announced.map((e) => (e.payload as { userId: string }).userId);
    const [{ bonuses }] = await rewards.db.query(
      `SELECT count(*)::int AS bonuses FROM ledger_transfers t JOIN ledger_entries e ON e.transfer_id = t.id JOIN ledger_accounts a ON a.id = e.account_id
        WHERE t.kind = 'signup_bonus' AND a.user_id = ANY($1::uuid[])`,
      [ids],
    );
    expect(bonuses).toBe(announced.length);
  });
});
