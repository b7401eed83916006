import { randomBytes, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AcceptedPostback, redeemablePlan, SIGNUP_BONUS_POINTS } from '@esim/contracts';
import { UnitOfWork } from '@esim/platform';
import { waitFor } from '@esim/testing';
import { BalanceAnnouncements } from '../../services/rewards/src/ledger/balance-announcements';
import { Ledger } from '../../services/rewards/src/ledger/ledger';
import { OfferwallCredits } from '../../services/rewards/src/offerwall-credits/offerwall-credits.service';
import { AcceptedPostbacks } from '../../services/rewards/src/testing/accepted-postbacks';
import { viewSettled } from '../live/live-support';
import {
  balance,
  expectLedgerSound,
  newEsim,
  redeem,
  Redeemer,
  redemptionRow,
  signUpRedeemer,
  startRedemptionSystem,
  transfersOf,
} from '../redemption/redemption-support';
import { signUp, uniqueEmail } from '../support/accounts';
import type { System } from '../support/system';

type Standing = { state: string; reasons: string[]; appeal: { status: string; message: string; answer: string | null } | null };
type AuditEntry = { action: string; actorId: string; targetId: string | null; details: Record<string, unknown>; outcome: string | null };

const COST = redeemablePlan('1GB').pointsCost;
const HOUR = 3600;

/**
 * The risk rules over HTTP (docs/earning.md, "Risk rules"), each from its signal to its effect: a
 * reversal rate at the pause threshold pauses redemptions (with the reason and an appeal), a device
 * link sends each redemption to an admin's review with its points reserved, a disposable email holds
 * credits longer; and the admins' decisions (lift, pause, require review, approve or reject a
 * redemption, "not the same person"), each in the audit trail with the admin, time and reason.
 */
describe('risk rules', () => {
  let sys: System;
  let boss: Redeemer;
  let deputy: Redeemer;
  const BOSS = uniqueEmail('risk-boss');
  const DEPUTY = uniqueEmail('risk-deputy');

  beforeAll(async () => {
    sys = await startRedemptionSystem({
      env: {
        ADMIN_EMAILS: `${BOSS},${DEPUTY}`,
        CREDIT_HOLD_MIN_POINTS: '500',
        CREDIT_HOLD_SECONDS: String(HOUR),
        RISK_MIN_CREDITS: '4',
        RISK_REVERSAL_RATE_HOLD: '0.2',
        RISK_REVERSAL_RATE_REVIEW: '0.3',
        RISK_REVERSAL_RATE_PAUSE: '0.5',
        RISK_HOLD_MULTIPLIER: '3',
        RISK_HOLD_MIN_POINTS: '1',
      },
    });
    boss = await signUpRedeemer(sys, { email: BOSS, name: 'Risk Boss' });
    deputy = await signUpRedeemer(sys, { email: DEPUTY, name: 'Risk Deputy' });
  }, 180_000);
  afterAll(async () => {
    if (sys) await expectLedgerSound(sys);
    await sys?.stop();
  });

  const rewardsDb = () => sys.apps.rewards!.get(DataSource);
  const standing = async (r: Redeemer): Promise<Standing> => (await r.client.get('/api/redemption-standing')).json();
  const audit = async (): Promise<AuditEntry[]> => (await boss.client.get('/api/admin/audit?limit=200')).json().entries;
  const postback = (userId: string, points: number) => AcceptedPostbacks.credit(userId, { points });
  const { reversalOf } = AcceptedPostbacks;
  /** Offer-wall postbacks applied as rewards applies an accepted batch (holds, risk, tasks). */
  const apply = async (...postbacks: AcceptedPostback[]) => {
    const credits = sys.apps.rewards!.get(OfferwallCredits);
    await sys.apps.rewards!.get(UnitOfWork).run((tx) => credits.apply(tx, postbacks));
    await viewSettled(sys);
  };
  /** Spendable points that count neither as a credit nor as a reversal (a missing-credit claim's). */
  const grant = async (userId: string, amount: number) => {
    const ledger = sys.apps.rewards!.get(Ledger);
    const balances = sys.apps.rewards!.get(BalanceAnnouncements);
    await sys.apps.rewards!.get(UnitOfWork).run(async (tx) => {
      await balances.lock(tx.manager, [userId]);
      await ledger.credit(tx.manager, { kind: 'claim_credit', from: 'claims', userId, amount, reference: randomUUID() });
      await balances.announce(tx, [userId]);
    });
    await viewSettled(sys);
  };
  const heldFor = async (p: AcceptedPostback): Promise<number | null> => {
    const [row] = await rewardsDb().query(
      `SELECT extract(epoch FROM held_until - created_at)::int AS s FROM ledger_transfers WHERE kind = 'offerwall_credit' AND reference = $1`,
      [`cpx:${p.creditTransactionId}`],
    );
    return row.s === null ? null : Number(row.s);
  };
  const redemptionsOf = async (userId: string): Promise<number> =>
    (await rewardsDb().query('SELECT count(*)::int AS n FROM redemptions WHERE user_id = $1', [userId]))[0].n;

  it('pauses the redemptions of an account whose reversal rate reaches the threshold, says why, and takes an appeal an admin answers by lifting it', async () => {
    const ana = await signUpRedeemer(sys, { name: 'Ana Reversed' });
    const credits = [1, 2, 3, 4].map(() => postback(ana.id, 100));
    await apply(...credits);
    await apply(reversalOf(credits[0]), reversalOf(credits[1]));
    await grant(ana.id, COST);
    const before = await balance(ana.client);
    expect(before).toBe(SIGNUP_BONUS_POINTS + 200 + COST);

    expect(await standing(ana)).toEqual({ state: 'paused', reasons: ['reversal_rate'], appeal: null });
    const refused = await redeem(ana.client, newEsim());
    expect(refused.status).toBe(403);
    expect(refused.json()).toMatchObject({ reason: 'redemptions_paused', details: { reasons: ['reversal_rate'] } });
    // Nothing written: no redemption, no reservation.
    expect(await redemptionsOf(ana.id)).toBe(0);
    expect(await balance(ana.client)).toBe(before);

    expect((await ana.client.post('/api/redemption-standing/appeal', { message: 'short' })).status).toBe(400);
    const appeal = await ana.client.post('/api/redemption-standing/appeal', {
      message: 'Those offers were mine, the wall reversed them by mistake.',
    });
    expect(appeal.status).toBe(201);
    expect(appeal.json()).toMatchObject({ status: 'open', answer: null });
    const again = await ana.client.post('/api/redemption-standing/appeal', { message: 'Please look at my account again, thank you.' });
    expect(again.status).toBe(409);
    expect(again.json().reason).toBe('appeal_already_open');

    const queue = (await boss.client.get('/api/admin/redemption-reviews')).json();
    expect(queue.appeals.find((a: { userId: string }) => a.userId === ana.id)).toMatchObject({
      state: 'paused',
      reasons: ['reversal_rate'],
      user: { id: ana.id, name: 'Ana Reversed' },
      message: 'Those offers were mine, the wall reversed them by mistake.',
    });
    expect((await ana.client.get('/api/admin/redemption-reviews')).status).toBe(403);

    // Bad input: a 400 and nothing written.
    expect((await boss.client.post(`/api/admin/accounts/${ana.id}/redemption-control`, { action: 'unban', reason: 'x' })).status).toBe(400);
    expect((await standing(ana)).state).toBe('paused');

    const lifted = await boss.client.post(`/api/admin/accounts/${ana.id}/redemption-control`, {
      action: 'lift',
      reason: 'The wall confirmed the reversals were its error.',
    });
    expect(lifted.status).toBe(200);
    expect(lifted.json()).toEqual({ accounts: [{ userId: ana.id, state: 'open', reasons: [] }] });
    expect(await standing(ana)).toMatchObject({
      state: 'open',
      appeal: { status: 'answered', answer: 'The wall confirmed the reversals were its error.' },
    });

    const redeemed = await redeem(ana.client, newEsim());
    expect(redeemed.status).toBe(200);
    expect(redeemed.json().status).not.toBe('pending_review');

    const entry = await waitFor(
      async () => (await audit()).find((e) => e.action === 'redemptions_lift' && e.targetId === ana.id && e.outcome),
      { what: 'the lift in the trail' },
    );
    expect(entry).toMatchObject({
      actorId: boss.id,
      details: { action: 'lift', reason: 'The wall confirmed the reversals were its error.' },
      outcome: 'succeeded',
    });
  });

  it('sends each redemption of accounts linked by a device to an admin: points reserved, a rejection gives them back, two admins approving at once approve once', async () => {
    const device = randomUUID();
    const ben = await signUpRedeemer(sys, { name: 'Ben Linked', deviceId: device });
    const bia = await signUpRedeemer(sys, { name: 'Bia Linked', deviceId: device });
    for (const u of [ben, bia]) await waitFor(async () => (await standing(u)).state === 'review', { what: `${u.name} under review` });
    expect(await standing(ben)).toEqual({ state: 'review', reasons: ['linked_accounts'], appeal: null });
    await grant(ben.id, 2 * COST);
    const before = await balance(ben.client);

    const first = await redeem(ben.client, newEsim());
    expect(first.status).toBe(200);
    expect(first.json()).toMatchObject({ status: 'pending_review', pointsUsed: COST });
    const firstId = first.json().redemptionId as string;
    await waitFor(async () => (await balance(ben.client)) === before - COST, { what: 'the points reserved' });
    expect(await transfersOf(sys, firstId)).toEqual([{ kind: 'reservation', amount: COST }]);

    const queue = (await boss.client.get('/api/admin/redemption-reviews')).json();
    expect(queue.reviews.find((r: { redemptionId: string }) => r.redemptionId === firstId)).toMatchObject({
      userId: ben.id,
      points: COST,
      reasons: ['linked_accounts'],
      user: { name: 'Ben Linked' },
    });

    const rejected = await boss.client.post(`/api/admin/redemption-reviews/${firstId}/decision`, {
      decision: 'reject',
      reason: 'Two accounts on one phone: one per person.',
    });
    expect(rejected.status).toBe(200);
    expect(rejected.json()).toEqual({ redemptionId: firstId, status: 'rejected' });
    await waitFor(async () => (await balance(ben.client)) === before, { what: 'the points given back' });
    expect(await transfersOf(sys, firstId)).toEqual([
      { kind: 'reservation', amount: COST },
      { kind: 'release', amount: COST },
    ]);
    expect((await ben.client.get(`/api/redemptions/${firstId}`)).json()).toMatchObject({
      status: 'rejected',
      pointsUsed: 0,
      message: 'Two accounts on one phone: one per person.',
    });

    const second = await redeem(ben.client, newEsim());
    expect(second.json().status).toBe('pending_review');
    const secondId = second.json().redemptionId as string;
    const decisions = await Promise.all(
      [boss, deputy].map((a) =>
        a.client.post(`/api/admin/redemption-reviews/${secondId}/decision`, { decision: 'approve', reason: 'Checked with the owner.' }),
      ),
    );
    expect(decisions.map((d) => d.status).sort()).toEqual([200, 409]);
    expect(decisions.find((d) => d.status === 409)!.json().reason).toBe('review_already_decided');
    await waitFor(async () => (await redemptionRow(sys, secondId))?.status === 'esim_activation_ready', {
      what: 'the approved redemption delivered',
    });
    expect(await transfersOf(sys, secondId)).toEqual([
      { kind: 'reservation', amount: COST },
      { kind: 'redemption', amount: COST },
    ]);
    expect(await balance(ben.client)).toBe(before - COST);

    const entries = await waitFor(
      async () => {
        const all = (await audit()).filter((e) => e.targetId === firstId || e.targetId === secondId);
        return all.filter((e) => e.outcome).length === 3 ? all : null;
      },
      { what: 'the three decisions in the trail' },
    );
    expect(entries.filter((e) => e.action === 'redemption_review_reject')).toEqual([
      expect.objectContaining({
        actorId: boss.id,
        details: { decision: 'reject', reason: 'Two accounts on one phone: one per person.' },
        outcome: 'succeeded',
      }),
    ]);
    expect(
      entries
        .filter((e) => e.action === 'redemption_review_approve')
        .map((e) => e.outcome)
        .sort(),
    ).toEqual(['failed', 'succeeded']);
  });

  it('links two accounts signing in on one device at the same moment (each pair, every time)', async () => {
    const users = await Promise.all(
      Array.from({ length: 8 }, async (_, i) => {
        const client = sys.client();
        return { ...(await signUp(client, sys.mail, { name: `Kai Pair${i}` })), client };
      }),
    );
    const pairs = [0, 2, 4, 6].map((i) => [users[i], users[i + 1]]);
    await Promise.all(
      pairs.map(async (pair) => {
        const device = randomUUID();
        const answers = await Promise.all(
          pair.map((u) => u.client.post('/api/login', { username: u.email, password: u.password }, { headers: { 'x-device-id': device } })),
        );
        expect(answers.map((a) => a.status)).toEqual([200, 200]);
      }),
    );
    for (const u of users)
      await waitFor(async () => (await u.client.get('/api/redemption-standing')).json().state === 'review', {
        what: `${u.name} linked`,
        timeoutMs: 10_000,
      });
  });

  it('lets an admin decide a linked group is not the same person: the link stops counting; a new account on the device is linked anew', async () => {
    const device = randomUUID();
    const cai = await signUpRedeemer(sys, { name: 'Cai Twin', deviceId: device });
    const cel = await signUpRedeemer(sys, { name: 'Cel Twin', deviceId: device });
    await waitFor(async () => (await standing(cel)).state === 'review', { what: 'the link' });
    const group = (await boss.client.get('/api/admin/linked-accounts'))
      .json()
      .groups.find((g: { groupId: string }) => g.groupId === device);
    expect(
      group.accounts.map((a: { userId: string; redemptions: string; riskReasons: string[] }) => [a.userId, a.redemptions, a.riskReasons]),
    ).toEqual([
      [cai.id, 'review', ['linked_accounts']],
      [cel.id, 'review', ['linked_accounts']],
    ]);

    expect(
      (await boss.client.post(`/api/admin/linked-accounts/${randomUUID()}/decision`, { decision: 'not_same_person', reason: 'Siblings.' }))
        .status,
    ).toBe(404);
    const decided = await boss.client.post(`/api/admin/linked-accounts/${device}/decision`, {
      decision: 'not_same_person',
      reason: 'Siblings sharing a phone, checked by mail.',
    });
    expect(decided.status).toBe(200);
    for (const u of [cai, cel]) await waitFor(async () => (await standing(u)).state === 'open', { what: `${u.name} open again` });
    expect(
      (await boss.client.get('/api/admin/linked-accounts')).json().groups.find((g: { groupId: string }) => g.groupId === device),
    ).toBeUndefined();
    await grant(cai.id, COST);
    expect((await redeem(cai.client, newEsim())).json().status).not.toBe('pending_review');

    const third = await signUpRedeemer(sys, { name: 'Cid Third', deviceId: device });
    await waitFor(async () => (await standing(third)).state === 'review', { what: 'a new account on the device linked' });
    expect((await standing(cai)).state).toBe('review');

    const entry = await waitFor(
      async () => (await audit()).find((e) => e.action === 'linked_accounts_not_same_person' && e.targetId === device && e.outcome),
      { what: 'the decision in the trail' },
    );
    expect(entry).toMatchObject({
      actorId: boss.id,
      details: { decision: 'not_same_person', reason: 'Siblings sharing a phone, checked by mail.' },
      outcome: 'succeeded',
    });
  });

  it('lets go of a link when the other account is deleted', async () => {
    const device = randomUUID();
    const lea = await signUpRedeemer(sys, { name: 'Lea Stays', deviceId: device });
    const lou = await signUpRedeemer(sys, { name: 'Lou Leaves', deviceId: device });
    await waitFor(async () => (await standing(lea)).state === 'review', { what: 'the link' });
    expect((await lou.client.delete('/api/user/account')).status).toBe(200);
    await waitFor(async () => (await standing(lea)).state === 'open', { what: 'the link gone with the deleted account' });
  });

  it('lets an admin pause or require review of a linked group’s redemptions, each account saying why', async () => {
    const device = randomUUID();
    const dan = await signUpRedeemer(sys, { name: 'Dan Group', deviceId: device });
    const dua = await signUpRedeemer(sys, { name: 'Dua Group', deviceId: device });
    await waitFor(async () => (await standing(dua)).state === 'review', { what: 'the link' });
    const paused = await boss.client.post(`/api/admin/linked-accounts/${device}/decision`, {
      decision: 'pause',
      reason: 'Same person, two accounts.',
    });
    expect(paused.status).toBe(200);
    expect(paused.json().accounts).toEqual([
      { userId: dan.id, state: 'paused', reasons: ['admin_paused'] },
      { userId: dua.id, state: 'paused', reasons: ['admin_paused'] },
    ]);
    await grant(dan.id, COST);
    expect((await redeem(dan.client, newEsim())).json()).toMatchObject({
      reason: 'redemptions_paused',
      details: { reasons: ['admin_paused'] },
    });

    expect(
      (
        await boss.client.post(`/api/admin/accounts/${dan.id}/redemption-control`, {
          action: 'require_review',
          reason: 'One account may redeem, checked each time.',
        })
      ).status,
    ).toBe(200);
    expect(await standing(dan)).toMatchObject({ state: 'review', reasons: ['admin_review'] });
    expect((await redeem(dan.client, newEsim())).json().status).toBe('pending_review');
    await waitFor(
      async () =>
        (await audit()).filter((e) => e.outcome && (e.action === 'linked_accounts_pause' || e.action === 'redemptions_require_review'))
          .length >= 2,
      {
        what: 'both decisions in the trail',
      },
    );
  });

  it('holds a risky account’s credits longer, small ones too: a disposable email, a reversal rate at the hold threshold', async () => {
    const eve = await signUpRedeemer(sys, { name: 'Eve Throwaway', email: `eve-${randomBytes(4).toString('hex')}@mailinator.com` });
    const fay = await signUpRedeemer(sys, { name: 'Fay Usual' });
    const gil = await signUpRedeemer(sys, { name: 'Gil Sometimes' });
    await waitFor(
      async () =>
        (await rewardsDb().query('SELECT disposable_email FROM account_risk WHERE user_id = $1', [eve.id]))[0]?.disposable_email === true,
      {
        what: "identity's signal of the disposable email",
      },
    );
    // Gil: one of four credits reversed (25%): at the hold threshold, below review's.
    const gils = [1, 2, 3, 4].map(() => postback(gil.id, 50));
    await apply(...gils);
    await apply(reversalOf(gils[0]));

    const [eveSmall, eveLarge, faySmall, fayLarge, gilSmall] = [
      postback(eve.id, 100),
      postback(eve.id, 600),
      postback(fay.id, 100),
      postback(fay.id, 600),
      postback(gil.id, 100),
    ];
    await apply(eveSmall, eveLarge, faySmall, fayLarge, gilSmall);
    expect(await heldFor(eveSmall)).toBe(3 * HOUR);
    expect(await heldFor(eveLarge)).toBe(3 * HOUR);
    expect(await heldFor(gilSmall)).toBe(3 * HOUR);
    expect(await heldFor(faySmall)).toBeNull();
    expect(await heldFor(fayLarge)).toBe(HOUR);
    // Longer holds only delay: these accounts redeem as usual.
    for (const u of [eve, gil]) expect((await standing(u)).state).toBe('open');
  });
});
