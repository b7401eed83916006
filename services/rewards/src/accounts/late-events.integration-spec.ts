import { randomUUID } from 'node:crypto';
import { AccountDeleted, AcceptedPostback, OfferwallPostbacksAccepted, ProvisioningSucceeded, RedemptionRpc } from '@esim/contracts';
import { asUser } from '@esim/testing';
import { RewardsUnderTest, startRewardsUnderTest } from '../testing/rewards-harness';

/**
 * Late events after a deletion (docs/accounts.md, "Late events") on the real rewards service,
 * broker and Postgres: a redemption still under way when its account is deleted is delivered
 * afterwards, and the provider's result, which names the new line, leaves no ICCID, activation code
 * or phone number in the redemption nor in any outbox event.
 */
describe('late events after a deletion', () => {
  let rewards: RewardsUnderTest;

  beforeAll(async () => {
    rewards = await startRewardsUnderTest({ CREDIT_HOLD_SECONDS: '0' });
  });
  afterAll(() => rewards?.stop());

  it("writes a late provisioning result without the deleted person's eSIM details", async () => {
    const userId = await rewards.registerUser();
    const transactionId = `tx-${randomUUID()}`;
    const credit: AcceptedPostback = {
      deliveryId: randomUUID(),
      provider: 'cpx',
      action: 'credit',
      transactionId,
      creditTransactionId: transactionId,
      userId,
      points: 1000,
      taskType: 'offer_completion',
    };
    await rewards.applied(await rewards.publish(OfferwallPostbacksAccepted, { postbacks: [credit], acceptedAt: new Date().toISOString() }));
    // Under way: esim is not there to deliver it yet.
    const redemption = await asUser(userId, () =>
      rewards.rpc.call(RedemptionRpc.redeemPoints, {
        idempotencyKey: `late-${randomUUID()}`,
        request: { planTier: '1GB', purchaseType: 'new', country: 'BR' },
      }),
    );
    expect(redemption.status).toBe('processing');

    await rewards.applied(await rewards.publish(AccountDeleted, { userId, deletedAt: new Date().toISOString() }));
    const late = { iccid: '8999000000000042424', lpaCode: `LPA:1$late.example$${randomUUID()}`, msisdn: '+5511912340000' };
    await rewards.applied(
      await rewards.publish(ProvisioningSucceeded, {
        provisioningId: randomUUID(),
        redemptionId: redemption.redemptionId,
        source: 'points',
        userId,
        kind: 'new',
        planTier: '1GB',
        amountGB: 1,
        ...late,
        ownLine: true,
        giftId: randomUUID(),
        providerTransactionId: null,
        completedAt: new Date().toISOString(),
      }),
    );

    const [row] = await rewards.db.query('SELECT status, iccid, lpa_code, msisdn FROM redemptions WHERE id = $1', [
      redemption.redemptionId,
    ]);
    expect(row).toEqual({ status: 'esim_activation_ready', iccid: 'erased', lpa_code: null, msisdn: null });
    const named = await rewards.db.query(
      `SELECT routing_key FROM outbox_events WHERE strpos(envelope::text, $1) > 0 OR strpos(envelope::text, $2) > 0`,
      [late.iccid, late.lpaCode],
    );
    expect(named).toEqual([]);
  });
});
