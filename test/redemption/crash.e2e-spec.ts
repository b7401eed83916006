import { DataSource } from 'typeorm';
import { waitFor } from '@esim/testing';
import { KeepGoEmulatorFaults } from '../../sandboxes/src/keepgo/keepgo-emulator-faults';
import type { ServiceKey, System } from '../support/system';
import {
  balance,
  DEMO_ICCID,
  expectLedgerSound,
  newEsim,
  redeem,
  Redeemer,
  redemptionRow,
  signUpRedeemer,
  startRedemptionSystem,
  topUp,
  topUpTo,
  transfersOf,
} from './redemption-support';

/**
 * Crash drills (docs/redemption.md): a service dies between two steps of the saga; after it
 * starts again every redemption ends exactly once — one provider operation, one settlement, the
 * ledger balanced. The emulator is told to hang so the kill lands at the right moment.
 */
describe('redemptions survive crashes', () => {
  let sys: System;
  let kim: Redeemer;

  beforeAll(async () => {
    sys = await startRedemptionSystem({
      // A short lease, so a provisioning whose worker died is picked up again within seconds.
      // No catalogue cache, so every order reads KeepGo's catalogue first (the step before it is sent).
      env: { ESIM_PROVISIONING_LEASE_MS: '2500', KEEPGO_TIMEOUT_MS: '3000', KEEPGO_RETRIES: '0', KEEPGO_CATALOGUE_CACHE_SECONDS: '0' },
      gatewayEnv: { REDEEM_WAIT_MS: '300' },
    });
    kim = await signUpRedeemer(sys);
  });
  afterEach(() => expectLedgerSound(sys));
  afterAll(() => sys?.stop());

  const statementBalance = async (client: Redeemer['client']) =>
    ((await client.get('/api/points-statement?limit=100')).json().entries as Array<{ points: number }>).reduce((sum, e) => sum + e.points, 0);
  const esimDb = () => sys.apps.esim!.get(DataSource);
  const faults = () => sys.sandboxes.app.get(KeepGoEmulatorFaults);
  /**
   * Starts esim again. The KeepGo emulator is a process of its own (the provider's), which outlives
   * esim: its outage ends as esim comes back, and its request counts start again from there.
   */
  const restartEsim = async () => {
    faults().reset();
    await sys.restart('esim');
  };
  /** Stops a service as a crash would, without starting it again (sys.restart starts it). */
  const kill = async (service: ServiceKey) => {
    await sys.apps[service]!.close();
    delete sys.apps[service];
  };
  /** What the provider carried out for our reference (the emulator's own records). */
  const providerOperations = async (redemptionId: string) =>
    (await sys.sandboxes.db('keepgo').query('SELECT kind, iccid FROM keepgo_sandbox_transactions WHERE idempotency_key = $1', [redemptionId])) as Array<{
      kind: string;
      iccid: string;
    }>;
  const outcomeEvents = async (redemptionId: string) =>
    Number(
      (
        await esimDb().query(
          `SELECT count(*)::int AS n FROM outbox_events WHERE routing_key LIKE 'esim.provisioning-%' AND envelope->'payload'->>'redemptionId' = $1`,
          [redemptionId],
        )
      )[0].n,
    );
  const settled = (redemptionId: string) =>
    waitFor(async () => ((await redemptionRow(sys, redemptionId))?.status !== 'processing' ? redemptionRow(sys, redemptionId) : null), {
      timeoutMs: 30_000,
      what: `redemption ${redemptionId} to settle`,
    });

  const provisioningRow = async (redemptionId: string) =>
    (await esimDb().query('SELECT status, failure_reason, order_sent_at FROM provisionings WHERE redemption_id = $1', [redemptionId]))[0];

  it('esim dies after the reservation, before the order left (reading the catalogue): after restart the eSIM is made once and the points spent once', async () => {
    await topUpTo(sys, kim, 1000);
    faults().set({ mode: 'hang', path: 'GET /bundles' });
    const res = await redeem(kim.client, newEsim('1GB', 'US'));
    expect(res.json()).toMatchObject({ status: 'processing', pointsUsed: 1000 });
    const { redemptionId } = res.json();
    await waitFor(() => faults().count('GET /bundles') >= 1, { what: 'the catalogue read to hang' });
    expect(await providerOperations(redemptionId)).toEqual([]);
    expect(faults().count('POST /line/create')).toBe(0);
    expect((await provisioningRow(redemptionId)).order_sent_at).toBeNull();

    await restartEsim();

    expect(await settled(redemptionId)).toMatchObject({ status: 'esim_activation_ready' });
    expect(await providerOperations(redemptionId)).toHaveLength(1);
    expect(faults().count('POST /line/create')).toBe(1);
    expect(await outcomeEvents(redemptionId)).toBe(1);
    expect(await transfersOf(sys, redemptionId)).toEqual([
      { kind: 'reservation', amount: 1000 },
      { kind: 'redemption', amount: 1000 },
    ]);
    expect(await balance(kim.client)).toBe(0);
    expect((await kim.client.get(`/api/redemptions/${redemptionId}`)).json()).toMatchObject({
      status: 'esim_activation_ready',
      lpaCode: expect.stringMatching(/^LPA:1\$/),
    });
  });

  it.each([
    ['after KeepGo made the eSIM, before its answer', true],
    ['while the order is at KeepGo, not carried out yet', false],
  ])(
    'esim dies %s: the next start finds no line with our reference, never orders again, and an operator takes over with the points reserved',
    async (_when, applyEffect) => {
      await topUpTo(sys, kim, 1000);
      faults().set({ mode: 'hang', path: 'POST /line/create', applyEffect });
      const { redemptionId } = (await redeem(kim.client, newEsim('1GB', 'US'))).json();
      await waitFor(() => faults().count('POST /line/create') >= 1, { what: 'the order to reach KeepGo' });
      expect((await provisioningRow(redemptionId)).order_sent_at).not.toBeNull();
      // The dying process cannot ask the provider any more either: only the next start can resolve it.
      faults().set({ mode: 'hang' });

      await restartEsim();

      expect(await settled(redemptionId)).toMatchObject({ status: 'manual_transfer_required' });
      expect(await provisioningRow(redemptionId)).toMatchObject({ status: 'manual_transfer_required', failure_reason: 'outcome_unknown' });
      // Never ordered again: at most the one line KeepGo made before the kill.
      expect(faults().count('POST /line/create')).toBe(0);
      expect(await providerOperations(redemptionId)).toHaveLength(applyEffect ? 1 : 0);
      expect(await outcomeEvents(redemptionId)).toBe(1);
      expect(await transfersOf(sys, redemptionId)).toEqual([{ kind: 'reservation', amount: 1000 }]);
      expect(await balance(kim.client)).toBe(0);
    },
  );

  it('esim dies after a top-up was applied, before it was recorded: refilled once', async () => {
    await topUpTo(sys, kim, 1000);
    faults().set({ mode: 'hang', path: '/refill', applyEffect: true });
    const { redemptionId } = (await redeem(kim.client, topUp(DEMO_ICCID))).json();
    await waitFor(async () => (await providerOperations(redemptionId)).length === 1, { what: 'the provider to refill the line' });
    faults().set({ mode: 'hang' });

    await restartEsim();

    expect(await settled(redemptionId)).toMatchObject({ status: 'completed' });
    expect(await providerOperations(redemptionId)).toEqual([{ kind: 'refill', iccid: DEMO_ICCID }]);
    expect(faults().count('POST /line/:iccid/refill')).toBe(0);
    expect(await outcomeEvents(redemptionId)).toBe(1);
    expect(await transfersOf(sys, redemptionId)).toHaveLength(2);
    expect(await balance(kim.client)).toBe(0);
  });

  it('esim is down when the points are reserved: the redemption waits, then completes once it is back', async () => {
    await topUpTo(sys, kim, 1000);
    await kill('esim');
    const res = await redeem(kim.client, topUp(DEMO_ICCID));
    expect(res.json()).toMatchObject({ status: 'processing' });
    // GET /api/user needs esim (the gift summary); the statement is rewards' alone.
    expect(await statementBalance(kim.client)).toBe(0);

    await restartEsim();

    expect(await settled(res.json().redemptionId)).toMatchObject({ status: 'completed' });
    expect(await providerOperations(res.json().redemptionId)).toHaveLength(1);
    expect(await transfersOf(sys, res.json().redemptionId)).toHaveLength(2);
  });

  it('rewards dies after the provider delivered, before settling: the outcome waits for it and settles once', async () => {
    await topUpTo(sys, kim, 1000);
    faults().set({ mode: 'hang', path: '/refill', applyEffect: true });
    const { redemptionId } = (await redeem(kim.client, topUp(DEMO_ICCID))).json();
    await waitFor(async () => (await providerOperations(redemptionId)).length === 1, { what: 'the provider to refill the line' });
    faults().set({ mode: 'hang' });
    await kill('rewards');
    await restartEsim();
    // esim recovers the line and publishes the outcome while rewards is away.
    await waitFor(async () => (await outcomeEvents(redemptionId)) === 1, { what: 'the outcome event' });

    await sys.restart('rewards');

    expect(await settled(redemptionId)).toMatchObject({ status: 'completed' });
    expect(await transfersOf(sys, redemptionId)).toEqual([
      { kind: 'reservation', amount: 1000 },
      { kind: 'redemption', amount: 1000 },
    ]);
    expect(await providerOperations(redemptionId)).toHaveLength(1);
    expect(await balance(kim.client)).toBe(0);
  });

  it('an unreachable provider leaves the points reserved and the redemption waiting for an operator', async () => {
    await topUpTo(sys, kim, 1000);
    faults().set({ mode: 'fail' });
    const res = await redeem(kim.client, topUp(DEMO_ICCID));
    const { redemptionId } = res.json();
    expect(await settled(redemptionId)).toMatchObject({ status: 'manual_transfer_required' });
    faults().reset();
    const followUp = (await kim.client.get(`/api/redemptions/${redemptionId}`)).json();
    expect(followUp).toMatchObject({ status: 'manual_transfer_required', pointsUsed: 1000, message: expect.stringContaining('manually') });
    expect(await transfersOf(sys, redemptionId)).toEqual([{ kind: 'reservation', amount: 1000 }]);
    expect(await balance(kim.client)).toBe(0);
    expect(await outcomeEvents(redemptionId)).toBe(1);
  });
});
