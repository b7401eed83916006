import { randomUUID } from 'node:crypto';
import { CreditClaimRpc, RedemptionRpc, SIGNUP_BONUS_POINTS } from '@esim/contracts';
import { asUser } from '@esim/testing';
import { expectLedgerInvariants } from '../testing/ledger-invariants';
import { RewardsUnderTest, startRewardsUnderTest } from '../testing/rewards-harness';
import { CreditClaims } from './credit-claims.service';

/** Missing-credit claims on the real rewards service and Postgres: kept, listed, decided once. */
describe('missing-credit claims', () => {
  let rewards: RewardsUnderTest;

  beforeAll(async () => {
    rewards = await startRewardsUnderTest();
  });
  afterAll(async () => {
    await expectLedgerInvariants(rewards.db);
    await rewards.stop();
  });
  afterEach(() => expectLedgerInvariants(rewards.db));

  const file = (userId: string, offerName = 'Survey about phones') =>
    asUser(userId, () => rewards.rpc.call(CreditClaimRpc.file, { wall: 'cpx', offerName, completedOn: '2026-01-10', wallUserId: `cpx-${userId}` }));
  const claimsOf = async (userId: string) => (await asUser(userId, () => rewards.rpc.call(CreditClaimRpc.list, {}))).claims;
  const transfersOf = async (claimId: string): Promise<number> =>
    (await rewards.db.query(`SELECT count(*)::int AS n FROM ledger_transfers WHERE kind = 'claim_credit' AND reference = $1`, [claimId]))[0].n;

  it('keeps a claim for the user, open until an admin decides', async () => {
    const userId = await rewards.registerUser();
    const claim = await file(userId);
    expect(claim).toMatchObject({ wall: 'cpx', wallUserId: `cpx-${userId}`, offerName: 'Survey about phones', completedOn: '2026-01-10', status: 'open', points: null });
    expect(await claimsOf(userId)).toEqual([claim]);
    const open = await rewards.app.get(CreditClaims).listOpen(500);
    expect(open.map((c) => c.id)).toContain(claim.id);
  });

  it('two admins crediting one claim at once credit it once; the user sees it in the statement', async () => {
    const userId = await rewards.registerUser();
    const claim = await file(userId, 'Install Sample Game');
    const claims = rewards.app.get(CreditClaims);
    const admins = [randomUUID(), randomUUID()];
    const outcomes = await Promise.allSettled(admins.map((admin) => claims.decide(claim.id, admin, { decision: 'credit', points: 150 })));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const refused = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ reason: 'claim_already_decided' });
    expect(await transfersOf(claim.id)).toBe(1);
    expect(await rewards.points(userId)).toBe(SIGNUP_BONUS_POINTS + 150);
    const [mine] = await claimsOf(userId);
    expect(mine).toMatchObject({ status: 'credited', points: 150 });
    const { entries } = await asUser(userId, () => rewards.rpc.call(RedemptionRpc.getPointsStatement, {}));
    expect(entries[0]).toMatchObject({ kind: 'claim_credited', points: 150, provider: 'cpx', offerName: 'Install Sample Game' });
  });

  it('ten credits of one claim racing each other pay it once', async () => {
    const userId = await rewards.registerUser();
    const claim = await file(userId);
    const claims = rewards.app.get(CreditClaims);
    await Promise.allSettled(Array.from({ length: 10 }, () => claims.decide(claim.id, randomUUID(), { decision: 'credit', points: 80 })));
    expect(await transfersOf(claim.id)).toBe(1);
    expect(await rewards.points(userId)).toBe(SIGNUP_BONUS_POINTS + 80);
  });

  it('the database pays a claim once even when the code asks twice', async () => {
    const userId = await rewards.registerUser();
    const claim = await file(userId);
    const [{ id: account }] = await rewards.db.query('SELECT id FROM ledger_accounts WHERE user_id = $1', [userId]);
    const [{ id: claimsAccount }] = await rewards.db.query(`SELECT id FROM ledger_accounts WHERE code = 'claims'`);
    const pay = () =>
      rewards.db.query(`INSERT INTO ledger_transfers (kind, debit_account_id, credit_account_id, amount, reference) VALUES ('claim_credit', $1, $2, 10, $3)`, [
        claimsAccount,
        account,
        claim.id,
      ]);
    await pay();
    await expect(pay()).rejects.toThrow(/ledger_transfers_unique_reference/);
  });

  it('a rejection keeps the reason the user reads, and nothing is credited', async () => {
    const userId = await rewards.registerUser();
    const claim = await file(userId);
    const claims = rewards.app.get(CreditClaims);
    await claims.decide(claim.id, randomUUID(), { decision: 'reject', reason: 'CPX has no record of this survey being completed.' });
    await expect(claims.decide(claim.id, randomUUID(), { decision: 'credit', points: 10 })).rejects.toMatchObject({ reason: 'claim_already_decided' });
    const [mine] = await claimsOf(userId);
    expect(mine).toMatchObject({ status: 'rejected', rejectReason: 'CPX has no record of this survey being completed.', points: null });
    expect(await transfersOf(claim.id)).toBe(0);
    expect(await rewards.points(userId)).toBe(SIGNUP_BONUS_POINTS);
  });

  it('refuses a sixth open claim with a declared reason, and writes nothing', async () => {
    const userId = await rewards.registerUser();
    for (let i = 0; i < 5; i++) await file(userId, `Offer ${i}`);
    await expect(file(userId, 'One too many')).rejects.toMatchObject({ reason: 'too_many_open_claims' });
    expect(await claimsOf(userId)).toHaveLength(5);
  });
});
