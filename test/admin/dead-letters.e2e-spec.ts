import amqplib from 'amqplib';
import { DeadLettersResponse, UserRegistered } from '@esim/contracts';
import { EventConsumer } from '@esim/platform';
import { TEST_AMQP_URL, waitFor } from '@esim/testing';
import { ledgerBalance, Redeemer, signUpRedeemer } from '../redemption/redemption-support';
import { signUp, uniqueEmail } from '../support/accounts';
import type { System } from '../support/system';
import { sql, startAdminSystem } from './admin-support';

const BOSS = uniqueEmail('boss');

/**
 * Dead letters over HTTP: an event whose handler keeps failing ends in its consumer's dead-letter
 * queue with the reason, an admin sees it, and a replay after the cause is fixed applies it once.
 * The poison here is a database fault injected into rewards (a trigger refusing the sign-up bonus),
 * the kind of outage an operator fixes and then replays.
 */
describe('dead letters', () => {
  let sys: System;
  let boss: Redeemer;

  beforeAll(async () => {
    sys = await startAdminSystem(BOSS);
    boss = await signUpRedeemer(sys, { email: BOSS, name: 'Boss' });
  });
  afterAll(() => sys?.stop());

  const rewards = () => sys.ns.schema('rewards');
  const breakBonuses = () =>
    sql(`
      CREATE OR REPLACE FUNCTION "${rewards()}".refuse_bonus() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'ledger maintenance in progress'; END $$;
      CREATE TRIGGER refuse_bonus BEFORE INSERT ON "${rewards()}".ledger_transfers FOR EACH ROW WHEN (NEW.kind = 'signup_bonus') EXECUTE FUNCTION "${rewards()}".refuse_bonus();`);
  const fixBonuses = () => sql(`DROP TRIGGER IF EXISTS refuse_bonus ON "${rewards()}".ledger_transfers`);

  const deadLetters = async () => {
    const res = await boss.client.get('/api/admin/dead-letters');
    expect(res.status).toBe(200);
    return (res.json() as DeadLettersResponse).queues.find((q) => q.service === 'rewards')!;
  };
  /** The bytes of one dead letter, looked at and left in the queue. */
  async function rawDeadLetter(eventId: string): Promise<Buffer> {
    const conn = await amqplib.connect(TEST_AMQP_URL);
    try {
      const ch = await conn.createChannel();
      for (;;) {
        const msg = await ch.get(`${sys.ns.id}.rewards.events.dlq`, { noAck: false });
        if (!msg) throw new Error(`${eventId} is not in the dead-letter queue`);
        if (JSON.parse(msg.content.toString()).id === eventId) return msg.content;
      }
    } finally {
      await conn.close();
    }
  }
  async function sendToRewards(content: Buffer): Promise<void> {
    const conn = await amqplib.connect(TEST_AMQP_URL);
    try {
      const ch = await conn.createConfirmChannel();
      ch.sendToQueue(`${sys.ns.id}.rewards.events`, content, { persistent: true });
      await ch.waitForConfirms();
    } finally {
      await conn.close();
    }
  }
  /** Signs up a user whose sign-up bonus is refused until it sits in rewards' dead-letter queue. */
  async function poisoned(count: number): Promise<string[]> {
    const before = (await deadLetters()).count;
    const ids: string[] = [];
    for (let i = 0; i < count; i++) ids.push((await signUp(sys.client(), sys.mail)).id);
    await waitFor(async () => (await deadLetters()).count === before + count, { what: 'the poisoned events dead-lettered', timeoutMs: 60_000 });
    return ids;
  }

  it('shows a poisoned event with its reason and a redacted payload, to admins only', async () => {
    await breakBonuses();
    const [userId] = await poisoned(1);
    const queue = await deadLetters();
    expect(queue.queue).toBe(`${sys.ns.id}.rewards.events.dlq`);
    const letter = queue.messages.find((m) => m.payloadSummary.userId === userId);
    expect(letter).toMatchObject({
      messageId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      type: UserRegistered.routingKey,
      reason: 'handler_failed',
      error: expect.stringContaining('ledger maintenance in progress'),
      deliveries: 4,
      deadLetteredAt: expect.any(String),
      payloadSummary: { userId, email: '[redacted]', name: '[redacted]', locale: expect.any(String), registeredAt: expect.any(String) },
    });
    expect(await ledgerBalance(sys, userId)).toBe(0);
    // Looking does not take anything out of the queue.
    expect((await deadLetters()).count).toBe(queue.count);

    const member = await signUpRedeemer(sys, { name: 'Member' }).catch(() => null);
    expect(member).toBeNull(); // no bonus while the fault lasts
    expect((await sys.client().get('/api/admin/dead-letters')).status).toBe(401);
    await fixBonuses();
  });

  it('replays one after the cause is fixed: the bonus is credited once, however often it comes back', async () => {
    await breakBonuses();
    const [userId] = await poisoned(1);
    await fixBonuses();
    const letter = (await deadLetters()).messages.find((m) => m.payloadSummary.userId === userId)!;
    const copy = await rawDeadLetter(letter.messageId);
    const res = await boss.client.post(`/api/admin/dead-letters/rewards/${letter.messageId}/replay`);
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ service: 'rewards', replayed: 1, discarded: 0 });
    await waitFor(async () => (await ledgerBalance(sys, userId)) === 100, { what: 'the replayed bonus' });
    expect((await deadLetters()).messages.find((m) => m.messageId === letter.messageId)).toBeUndefined();
    expect((await boss.client.post(`/api/admin/dead-letters/rewards/${letter.messageId}/replay`)).status).toBe(404);

    // The same event delivered yet again (a copy replayed twice) changes nothing: rewards' consumer
    // reports it handled and skipped, because the inbox has it.
    const stats = sys.apps.rewards!.get(EventConsumer).stats;
    const before = { ...stats };
    await sendToRewards(copy);
    // Applied again (a broken inbox), it would never count as a duplicate, and the wait fails.
    await waitFor(() => stats.duplicates === before.duplicates + 1, { what: "rewards' consumer to skip the copy as a duplicate" });
    expect(await ledgerBalance(sys, userId)).toBe(100);
    const [{ n }] = await sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM "${rewards()}".ledger_transfers t JOIN "${rewards()}".ledger_accounts a ON a.id = t.credit_account_id WHERE a.user_id = $1 AND t.kind = 'signup_bonus'`,
      [userId],
    );
    expect(n).toBe(1);
  });

  it('discards one for good, and replays all the others', async () => {
    await breakBonuses();
    const [dropped, ...kept] = await poisoned(3);
    await fixBonuses();
    const queue = await deadLetters();
    const drop = queue.messages.find((m) => m.payloadSummary.userId === dropped)!;
    const gone = await boss.client.delete(`/api/admin/dead-letters/rewards/${drop.messageId}`);
    expect(gone.json()).toEqual({ service: 'rewards', replayed: 0, discarded: 1 });
    expect((await boss.client.delete(`/api/admin/dead-letters/rewards/${drop.messageId}`)).status).toBe(404);

    const all = await boss.client.post('/api/admin/dead-letters/rewards/replay');
    expect(all.json()).toEqual({ service: 'rewards', replayed: queue.count - 1, discarded: 0 });
    for (const userId of kept) await waitFor(async () => (await ledgerBalance(sys, userId)) === 100, { what: 'a replayed bonus' });
    expect(await ledgerBalance(sys, dropped)).toBe(0);
    expect((await deadLetters()).count).toBe(0);
    expect((await boss.client.post('/api/admin/dead-letters/identity/replay')).json()).toEqual({ service: 'identity', replayed: 0, discarded: 0 });
    expect((await boss.client.get('/api/admin/dead-letters/x')).status).toBe(404);
    expect((await boss.client.post('/api/admin/dead-letters/esim-x/replay')).status).toBe(400);
  });

  it('writes replays and discards to the audit trail', async () => {
    type Entry = Record<string, any>;
    const audit = async () => (await boss.client.get('/api/admin/audit')).json().entries as Entry[];
    const earlier = new Set((await audit()).map((e) => e.id));
    await breakBonuses();
    const [discarded, replayed] = await poisoned(2);
    await fixBonuses();
    const letters = (await deadLetters()).messages;
    const idOf = (userId: string) => letters.find((m) => m.payloadSummary.userId === userId)!.messageId;
    expect((await boss.client.delete(`/api/admin/dead-letters/rewards/${idOf(discarded)}`)).status).toBe(200);
    expect((await boss.client.post(`/api/admin/dead-letters/rewards/${idOf(replayed)}/replay`)).status).toBe(200);
    expect((await boss.client.post(`/api/admin/dead-letters/rewards/${idOf(replayed)}/replay`)).status).toBe(404);
    expect((await boss.client.post('/api/admin/dead-letters/rewards/replay')).status).toBe(200);

    // This test's own entries, newest first.
    const entries = (await audit()).filter((e) => !earlier.has(e.id));
    expect(entries.filter((e) => e.action === 'dead_letter_replayed').map((e) => e.outcome)).toEqual(['failed', 'succeeded']);
    expect(entries.find((e) => e.action === 'dead_letter_discarded' && e.outcome === 'succeeded')).toMatchObject({ actor: BOSS, details: { service: 'rewards' } });
    expect(entries.find((e) => e.action === 'dead_letters_replayed')).toMatchObject({ outcome: 'succeeded', outcomeMessage: expect.stringMatching(/replayed$/) });
  });
});
