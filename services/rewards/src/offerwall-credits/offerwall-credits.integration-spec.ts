import { randomUUID } from 'node:crypto';
import amqplib from 'amqplib';
import {
  AcceptedPostback,
  AccountDeleted,
  EventEnvelope,
  EventPayload,
  OfferwallId,
  OfferwallPostbacksAccepted,
  OfferwallPostbackRefused,
  RewardsRpc,
  SIGNUP_BONUS_POINTS,
  TasksCredited,
  TaskReversed,
  UserRegistered,
} from '@esim/contracts';
import { AmqpConnection, DeadLetters } from '@esim/platform';
import { asUser, shuffled, TEST_AMQP_URL, waitFor } from '@esim/testing';
import { EVENT_BATCH } from '../../../../libs/platform/src/messaging/event-batch';
import { AcceptedPostbacks } from '../testing/accepted-postbacks';
import { expectLedgerInvariants } from '../testing/ledger-invariants';
import { RewardsUnderTest, startRewardsUnderTest } from '../testing/rewards-harness';

type Accepted = AcceptedPostback;
type AcceptedEvent = EventPayload<typeof OfferwallPostbacksAccepted>;
/** The event the ingestion service sends for postbacks it accepted together. */
const acceptedTogether = (...postbacks: Accepted[]): AcceptedEvent => ({ postbacks, acceptedAt: new Date().toISOString() });

/** Rewards consuming the postbacks the ingestion service accepted, on the real broker and Postgres. */
describe('offer-wall credits (accepted postbacks applied to the ledger)', () => {
  let rewards: RewardsUnderTest;

  beforeAll(async () => {
    rewards = await startRewardsUnderTest();
  });
  afterAll(async () => {
    await expectLedgerInvariants(rewards.db);
    await rewards.stop();
  });

  const accepted = (userId: string, over: Partial<Accepted> = {}): Accepted => AcceptedPostbacks.credit(userId, { taskType: 'app_install', ...over });
  const deliver = async (payload: Accepted | AcceptedEvent, id?: string) => {
    const envelope = await rewards.publish(OfferwallPostbacksAccepted, 'postbacks' in payload ? payload : acceptedTogether(payload), id ? { id } : {});
    await waitFor(async () => (await rewards.db.query('SELECT 1 FROM inbox_events WHERE event_id = $1', [envelope.id])).length === 1, {
      what: 'the accepted postback applied',
    });
    return envelope;
  };
  const points = (userId: string) => rewards.points(userId);
  const outbox = async (type: string, field: string, value: string) =>
    (
      await rewards.db.query(`SELECT envelope FROM outbox_events WHERE routing_key = $1 AND envelope->'payload'->>$2 = $3 ORDER BY seq`, [
        type,
        field,
        value,
      ])
    ).map((r: { envelope: { payload: Record<string, unknown> } }) => r.envelope.payload);
  const refusals = (deliveryId: string) => outbox(OfferwallPostbackRefused.routingKey, 'deliveryId', deliveryId);
  const reversalsOf = async (provider: OfferwallId, transactionId: string) =>
    rewards.db.query(
      `SELECT r.amount FROM ledger_transfers r JOIN ledger_transfers c ON c.id = r.linked_id WHERE c.reference = $1 AND r.kind = 'offerwall_reversal'`,
      [`${provider}:${transactionId}`],
    );

  it('credits an accepted postback once, lists the task and announces it once, even delivered again or republished', async () => {
    const userId = await rewards.registerUser();
    const credit = accepted(userId);
    const first = await deliver(credit);
    await deliver(credit, first.id);
    const copy = await deliver(credit);

    expect(await points(userId)).toBe(SIGNUP_BONUS_POINTS + 120);
    const { tasks } = await asUser(userId, () => rewards.rpc.call(RewardsRpc.listTasks, {}));
    expect(tasks).toEqual([
      {
        id: expect.any(String),
        userId,
        taskType: 'app_install',
        // The postback carries no kind (as one queued before kinds existed): its task type's.
        kind: 'app_install',
        pointsEarned: 120,
        completedAt: expect.any(String),
        completed: true,
        provider: 'cpx',
        reversedAt: null,
        offerName: null,
      },
    ]);
    expect(await outbox(TasksCredited.routingKey, 'userId', userId)).toEqual([
      { userId, provider: 'cpx', tasks: 1, points: 120, creditedAt: tasks[0].completedAt },
    ]);
    // The republished copy (a new event id) reached the ledger, which already held the credit.
    expect(copy.id).not.toBe(first.id);
    expect(await refusals(credit.deliveryId)).toEqual([expect.objectContaining({ outcome: 'duplicate' })]);
  });

  it('announces a batch of credits once per user and wall, with how many tasks and their points, and nothing when it is replayed', async () => {
    const [ana, ben] = await Promise.all([rewards.registerUser(), rewards.registerUser()]);
    const credits = shuffled([
      ...Array.from({ length: 6 }, (_, i) => accepted(ana, { provider: 'cpx', points: 10 + i })),
      ...Array.from({ length: 4 }, () => accepted(ana, { provider: 'bitlabs', points: 100 })),
      ...Array.from({ length: 3 }, () => accepted(ben, { provider: 'cpx', points: 7 })),
    ]);
    const envelopeOf = (payload: AcceptedEvent): EventEnvelope => ({
      id: randomUUID(),
      type: OfferwallPostbacksAccepted.routingKey,
      occurredAt: new Date().toISOString(),
      correlationId: randomUUID(),
      causationId: null,
      payload,
    });
    // In one broker message, as the ingestion service's outbox relay sends them (EVENT_BATCH): rewards applies them in one transaction.
    const deliverBatch = async (envelopes: EventEnvelope[]) => {
      const conn = await amqplib.connect(TEST_AMQP_URL);
      try {
        const channel = await conn.createConfirmChannel();
        channel.publish(`${rewards.ns.id}.events`, OfferwallPostbacksAccepted.routingKey, Buffer.from(JSON.stringify(envelopes)), {
          persistent: true,
          contentType: EVENT_BATCH.contentType,
          headers: { [EVENT_BATCH.countHeader]: envelopes.length },
        });
        await channel.waitForConfirms();
      } finally {
        await conn.close();
      }
      await waitFor(
        async () => (await rewards.db.query('SELECT 1 FROM inbox_events WHERE event_id = ANY($1)', [envelopes.map((e) => e.id)])).length === envelopes.length,
        { what: 'the batch applied' },
      );
    };
    const announcements = async () => [...(await outbox(TasksCredited.routingKey, 'userId', ana)), ...(await outbox(TasksCredited.routingKey, 'userId', ben))];

    // Two events in one message, as they come when the ingestion service accepts a burst.
    const batch = [envelopeOf(acceptedTogether(...credits.slice(0, 7))), envelopeOf(acceptedTogether(...credits.slice(7)))];
    await deliverBatch(batch);
    expect(await points(ana)).toBe(SIGNUP_BONUS_POINTS + 75 + 400);
    const stored = (await rewards.db.query('SELECT user_id, provider, points_earned, completed_at FROM tasks WHERE user_id = ANY($1)', [[ana, ben]])) as Array<{
      user_id: string;
      provider: string;
      points_earned: number;
      completed_at: Date;
    }>;
    expect(stored).toHaveLength(credits.length);
    const storedSum = (userId: string, provider: string) => {
      const mine = stored.filter((t) => t.user_id === userId && t.provider === provider);
      return { userId, provider, tasks: mine.length, points: mine.reduce((sum, t) => sum + t.points_earned, 0), creditedAt: mine[0].completed_at.toISOString() };
    };
    const expected = [storedSum(ana, 'cpx'), storedSum(ana, 'bitlabs'), storedSum(ben, 'cpx')];
    expect(expected.map((e) => [e.tasks, e.points])).toEqual([
      [6, 75],
      [4, 400],
      [3, 21],
    ]);
    expect(await announcements()).toEqual(expect.arrayContaining(expected));
    expect(await announcements()).toHaveLength(3);

    // The same message again (a redelivery), then the same postbacks under new event ids (a
    // republished outbox): nothing is credited or announced again.
    await deliverBatch(batch);
    const republished = credits.map((c) => envelopeOf(acceptedTogether({ ...c, deliveryId: randomUUID() })));
    await deliverBatch(republished);
    for (const e of republished)
      expect(await refusals((e.payload as AcceptedEvent).postbacks[0].deliveryId)).toEqual([expect.objectContaining({ outcome: 'duplicate' })]);
    expect(await points(ana)).toBe(SIGNUP_BONUS_POINTS + 75 + 400);
    expect(await announcements()).toHaveLength(3);
  });

  it('takes a credit back once, whatever amount the reversal states (0 included), and only for its owner', async () => {
    const userId = await rewards.registerUser();
    const credit = accepted(userId, { provider: 'bitlabs' });
    await deliver(credit);
    const stranger = await rewards.registerUser();
    const theft = accepted(stranger, { provider: 'bitlabs', action: 'reverse', transactionId: `${credit.transactionId}-R`, creditTransactionId: credit.transactionId });
    await deliver(theft);
    expect(await points(userId)).toBe(SIGNUP_BONUS_POINTS + 120);
    expect(await refusals(theft.deliveryId)).toEqual([expect.objectContaining({ outcome: 'rejected_unknown_transaction' })]);

    const reversal = { ...theft, deliveryId: randomUUID(), userId, points: 0 };
    await deliver(reversal);
    await deliver({ ...reversal, deliveryId: randomUUID() });

    expect(await points(userId)).toBe(SIGNUP_BONUS_POINTS);
    expect(await reversalsOf('bitlabs', credit.transactionId)).toEqual([{ amount: '120' }]);
    const { tasks } = await asUser(userId, () => rewards.rpc.call(RewardsRpc.listTasks, {}));
    expect(tasks[0]).toMatchObject({ completed: false, reversedAt: expect.any(String) });
    expect(await outbox(TaskReversed.routingKey, 'userId', userId)).toEqual([
      expect.objectContaining({ provider: 'bitlabs', transactionId: credit.transactionId, points: 120 }),
    ]);
  });

  it('never refuses a reversal whose credit has not come: it is dead-lettered whole, and replayed after its credit it takes it back', async () => {
    const userId = await rewards.registerUser();
    const deadBefore = await rewards.deadLettered();
    const reversal = accepted(userId, { action: 'reverse' });
    const reversed = await rewards.publish(OfferwallPostbacksAccepted, acceptedTogether(reversal));
    await waitFor(async () => (await rewards.deadLettered()) === deadBefore + 1, { what: 'the reversal dead-lettered after its deliveries' });
    expect(await points(userId)).toBe(SIGNUP_BONUS_POINTS);
    expect(await refusals(reversal.deliveryId)).toEqual([]);

    // The credit comes at last; an operator replays the reversal with the admin console's tool.
    await deliver({ ...reversal, deliveryId: randomUUID(), action: 'credit' });
    const env = rewards.ns.env('rewards');
    const deadLetters = new DeadLetters(rewards.app.get(AmqpConnection), { exchange: env.EVENTS_EXCHANGE!, queuePrefix: env.QUEUE_PREFIX! });
    expect(await deadLetters.replay('rewards', reversed.id)).toBe(1);
    await rewards.applied(reversed);
    expect(await points(userId)).toBe(SIGNUP_BONUS_POINTS);
    expect(await reversalsOf('cpx', reversal.creditTransactionId)).toEqual([{ amount: '120' }]);
    expect(await rewards.deadLettered()).toBe(deadBefore);
  });

  it('takes the credit back when the reversal took the account first and the credit waited behind it', async () => {
    // Two groups are applied at once, each locking the account (BalanceAnnouncements.lock) before
    // it reads the ledger. Here the test holds that lock while the reversal's transaction and then
    // the credit's queue behind it, so Postgres hands it to the reversal first: the order in which
    // a reversal was refused for good, though the ingestion service had accepted its credit first.
    const userId = await rewards.registerUser();
    const credit = accepted(userId, { provider: 'torox', points: 300 });
    const reversal = { ...credit, deliveryId: randomUUID(), action: 'reverse' as const };
    const holder = rewards.db.createQueryRunner();
    await holder.connect();
    const waitingBehind = async (pids: number[]): Promise<number[]> =>
      (await rewards.db.query(`SELECT pid FROM pg_stat_activity WHERE pg_blocking_pids(pid) && $1::int[]`, [pids])).map((r: { pid: number }) => r.pid);
    try {
      await holder.startTransaction();
      const [{ pid: holderPid }] = await holder.query('SELECT pg_backend_pid() AS pid');
      await holder.query('SELECT id FROM ledger_accounts WHERE user_id = $1 FOR UPDATE', [userId]);
      const reversed = await rewards.publish(OfferwallPostbacksAccepted, acceptedTogether(reversal));
      let first: number[] = [];
      await waitFor(async () => (first = await waitingBehind([holderPid])).length === 1, { what: "the reversal's transaction waiting for the account" });
      // What an operator reading pg_stat_activity sees of the waiting transaction: whose it is.
      expect(await rewards.db.query('SELECT application_name AS name FROM pg_stat_activity WHERE pid = ANY($1::int[])', [first])).toEqual([{ name: 'rewards' }]);
      const credited = await rewards.publish(OfferwallPostbacksAccepted, acceptedTogether(credit));
      await waitFor(async () => (await waitingBehind([holderPid, ...first])).filter((pid) => !first.includes(pid)).length === 1, {
        what: "the credit's transaction waiting behind it",
      });
      await holder.rollbackTransaction();
      for (const e of [reversed, credited])
        await waitFor(async () => (await rewards.db.query('SELECT 1 FROM inbox_events WHERE event_id = $1', [e.id])).length === 1, { what: 'both applied' });
    } finally {
      if (holder.isTransactionActive) await holder.rollbackTransaction();
      await holder.release();
    }

    expect(await points(userId)).toBe(SIGNUP_BONUS_POINTS);
    expect(await reversalsOf('torox', credit.transactionId)).toEqual([{ amount: '300' }]);
    expect(await refusals(reversal.deliveryId)).toEqual([]);
    expect(await rewards.db.query(`SELECT reversed_at IS NOT NULL AS reversed FROM tasks WHERE transaction_id = $1`, [credit.transactionId])).toEqual([{ reversed: true }]);
  });

  it("applies one event's postbacks together: a credit, its copy and its reversal each once, whatever their order in the event", async () => {
    const userId = await rewards.registerUser();
    const credit = accepted(userId, { provider: 'torox', points: 40 });
    const other = accepted(userId, { provider: 'torox', points: 5 });
    const copy = { ...credit, deliveryId: randomUUID() };
    const reversal = { ...credit, deliveryId: randomUUID(), action: 'reverse' as const };
    await deliver(acceptedTogether(reversal, credit, other, copy));

    expect(await points(userId)).toBe(SIGNUP_BONUS_POINTS + 5);
    expect(await reversalsOf('torox', credit.transactionId)).toEqual([{ amount: '40' }]);
    expect(await refusals(copy.deliveryId)).toEqual([expect.objectContaining({ outcome: 'duplicate' })]);
    expect(await refusals(credit.deliveryId)).toEqual([]);
    expect(await refusals(reversal.deliveryId)).toEqual([]);
  });

  it('credits nothing to a closed account and reports it against the delivery, its reversal too', async () => {
    const userId = await rewards.registerUser();
    const deleted = await rewards.publish(AccountDeleted, { userId, deletedAt: new Date().toISOString() });
    await waitFor(async () => (await rewards.db.query('SELECT 1 FROM inbox_events WHERE event_id = $1', [deleted.id])).length === 1);
    const credit = accepted(userId);
    await deliver(credit);

    expect(await rewards.db.query(`SELECT 1 FROM ledger_transfers WHERE reference = $1`, [`cpx:${credit.transactionId}`])).toEqual([]);
    expect(await refusals(credit.deliveryId)).toEqual([
      { deliveryId: credit.deliveryId, provider: 'cpx', transactionId: credit.transactionId, outcome: 'rejected_unknown_user', refusedAt: expect.any(String) },
    ]);
    // Its reversal waits for no credit: the account is closed, so none will come.
    const reversal = { ...credit, deliveryId: randomUUID(), action: 'reverse' as const };
    await deliver(reversal);
    expect(await refusals(reversal.deliveryId)).toEqual([expect.objectContaining({ outcome: 'rejected_unknown_transaction' })]);
    expect(await rewards.deadLettered()).toBe(0);
  });

  it('credits a postback that overtook the registration it follows; the bonus still comes once', async () => {
    const userId = randomUUID();
    await deliver(accepted(userId, { points: 30 }));
    expect(await points(userId)).toBe(30);
    await rewards.publish(UserRegistered, { userId, email: `${userId}@example.test`, name: 'Late', locale: 'en', registeredAt: new Date().toISOString() });
    await waitFor(async () => (await points(userId)) === SIGNUP_BONUS_POINTS + 30, { what: 'the bonus after the credit' });
  });

  it('applies many postbacks of many users, credits and reversals mixed, each exactly once', async () => {
    const users = await Promise.all(Array.from({ length: 4 }, () => rewards.registerUser()));
    const credits = users.flatMap((userId) => Array.from({ length: 10 }, (_, i) => accepted(userId, { points: i + 1, provider: 'lootably' })));
    const reversals = credits.filter((_, i) => i % 5 === 0).map((c) => ({ ...c, deliveryId: randomUUID(), action: 'reverse' as const }));
    const envelopes = await Promise.all([...credits, ...credits, ...reversals].map((p) => rewards.publish(OfferwallPostbacksAccepted, acceptedTogether(p))));
    await waitFor(
      async () => (await rewards.db.query('SELECT 1 FROM inbox_events WHERE event_id = ANY($1)', [envelopes.map((e) => e.id)])).length === envelopes.length,
      { what: 'every postback applied', timeoutMs: 20_000 },
    );
    // A reversal delivered before its credit is refused (the provider retries it): count what did land.
    const reversed = (await rewards.db.query(`SELECT reference FROM ledger_transfers WHERE kind = 'offerwall_reversal' AND reference = ANY($1)`, [
      reversals.map((r) => `lootably:${r.transactionId}`),
    ])) as Array<{ reference: string }>;
    for (const userId of users) {
      const mine = credits.filter((c) => c.userId === userId);
      const takenBack = mine.filter((c) => reversed.some((r) => r.reference === `lootably:${c.transactionId}`));
      const expected = SIGNUP_BONUS_POINTS + mine.reduce((sum, c) => sum + c.points, 0) - takenBack.reduce((sum, c) => sum + c.points, 0);
      expect(await points(userId)).toBe(expected);
    }
    const [{ n }] = await rewards.db.query(`SELECT count(*)::int AS n FROM ledger_transfers WHERE kind = 'offerwall_credit' AND reference LIKE 'lootably:%'`);
    expect(n).toBe(credits.length);

    // The tasks of a whole batch are written (and reversed) at once.
    const byTransaction = <T>(rows: T[], id: (r: T) => string) => [...rows].sort((a, b) => (id(a) < id(b) ? -1 : id(a) > id(b) ? 1 : 0));
    const tasks = byTransaction(
      (await rewards.db.query('SELECT * FROM tasks WHERE user_id = ANY($1)', [users])) as Array<{
        id: string;
        user_id: string;
        transaction_id: string;
        task_type: string;
        points_earned: number;
        completed_at: Date;
        reversed_at: Date | null;
      }>,
      (t) => t.transaction_id,
    );
    const announced = async (type: string) =>
      byTransaction((await Promise.all(users.map((u) => outbox(type, 'userId', u)))).flat(), (e) => e.transactionId as string);
    expect(tasks).toHaveLength(credits.length);
    // The announcements say per user how many of the stored tasks were credited and their points,
    // at the time the tasks were stored (now() of the batch's transaction). Summed per user and time:
    // two batches may start in the same millisecond, which the ISO times cannot tell apart.
    type Credited = EventPayload<typeof TasksCredited>;
    const perUserAndTime = (rows: Credited[]) => {
      const sums = new Map<string, Credited>();
      for (const r of rows) {
        const key = `${r.userId} ${r.provider} ${r.creditedAt}`;
        const sum = sums.get(key);
        if (sum) {
          sum.tasks += r.tasks;
          sum.points += r.points;
        } else sums.set(key, { ...r });
      }
      return [...sums.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, sum]) => sum);
    };
    expect(perUserAndTime((await announced(TasksCredited.routingKey)) as Credited[])).toEqual(
      perUserAndTime(
        tasks.map((t) => ({ userId: t.user_id, provider: 'lootably', tasks: 1, points: t.points_earned, creditedAt: t.completed_at.toISOString() })),
      ),
    );
    expect(await announced(TaskReversed.routingKey)).toEqual(
      tasks
        .filter((t) => t.reversed_at !== null)
        .map((t) => ({
          taskId: t.id,
          userId: t.user_id,
          provider: 'lootably',
          transactionId: t.transaction_id,
          points: t.points_earned,
          reversedAt: t.reversed_at!.toISOString(),
        })),
    );
    expect(tasks.filter((t) => t.reversed_at !== null)).toHaveLength(reversed.length);
  });
});
