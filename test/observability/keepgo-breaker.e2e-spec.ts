import { Metrics } from '@esim/platform';
import { waitFor } from '@esim/testing';
import { KeepGoEmulatorFaults } from '../../sandboxes/src/keepgo/keepgo-emulator-faults';
import { expectLedgerSound, newEsim, redeem, Redeemer, redemptionRow, signUpRedeemer, startRedemptionSystem, topUpTo } from '../redemption/redemption-support';
import type { System } from '../support/system';

const FAILURES = 2;

/**
 * KeepGo's circuit breaker under the redemption saga: KeepGo fails, the breaker opens after
 * FAILURES failed calls, and redemptions made meanwhile are held (nothing sent to KeepGo, no
 * attempt spent, none handed to an operator) until KeepGo is back; then each makes exactly one
 * line. With three provisioning attempts 200 ms apart, an order whose attempts the outage
 * consumed would end in the operator queue instead.
 */
describe('redemptions while KeepGo fails (circuit breaker)', () => {
  let sys: System;
  let kim: Redeemer;

  beforeAll(async () => {
    sys = await startRedemptionSystem({
      env: {
        KEEPGO_BREAKER_FAILURES: String(FAILURES),
        KEEPGO_BREAKER_HALF_OPEN_MS: '3000',
        KEEPGO_RETRIES: '0',
        // Every order reads KeepGo's catalogue first: the call that fails here, before anything is ordered.
        KEEPGO_CATALOGUE_CACHE_SECONDS: '0',
        ESIM_PROVISIONING_ATTEMPTS: '3',
      },
      gatewayEnv: { REDEEM_WAIT_MS: '300' },
    });
    kim = await signUpRedeemer(sys);
  }, 180_000);
  afterEach(() => expectLedgerSound(sys));
  afterAll(() => sys?.stop());

  const faults = () => sys.sandboxes.app.get(KeepGoEmulatorFaults);
  const keepgoSeries = async (name: string) =>
    (await sys.apps.esim!.get(Metrics).registry.getSingleMetric(name)!.get()).values.filter((v) => v.labels.provider === 'keepgo');
  const circuit = async () => (await keepgoSeries('provider_circuit_state'))[0]?.value;
  const rejected = async () => (await keepgoSeries('provider_requests_total')).filter((v) => v.labels.outcome === 'rejected').reduce((n, v) => n + v.value, 0);
  /** Every request the KeepGo emulator received since the fault was set. */
  const received = () => Object.values(faults().state().requests).reduce((n, c) => n + c, 0);
  const ordersFor = async (redemptionId: string) =>
    (await sys.sandboxes.db('keepgo').query('SELECT kind, iccid FROM keepgo_sandbox_transactions WHERE idempotency_key = $1', [redemptionId])) as unknown[];

  it('holds the redemptions made while the breaker is open and makes one line for each once KeepGo is back', async () => {
    await topUpTo(sys, kim, 3000);
    faults().reset();
    faults().set({ mode: 'fail' });

    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await redeem(kim.client, newEsim('1GB', 'US'));
      expect(res.json()).toMatchObject({ status: 'processing' });
      ids.push(res.json().redemptionId);
    }

    // FAILURES calls fail at KeepGo, the breaker opens, and the orders' next tries are refused unsent.
    // (Calls already on their way when it opens still reach KeepGo: at most one per order.)
    await waitFor(async () => (await circuit()) === 2, { timeoutMs: 20_000, what: 'the breaker to open' });
    const sent = received();
    expect(sent).toBeGreaterThanOrEqual(FAILURES);
    expect(sent).toBeLessThanOrEqual(FAILURES + ids.length);
    const refusedBefore = await rejected();
    await waitFor(async () => (await rejected()) >= refusedBefore + ids.length, { timeoutMs: 10_000, what: 'the orders\' next tries to be refused' });
    expect(received()).toBe(sent);
    expect(faults().count('POST /line/create')).toBe(0);
    for (const id of ids) expect(await redemptionRow(sys, id)).toMatchObject({ status: 'processing' });

    // KeepGo is back: after the half-open delay one probe goes through, the breaker closes and every order is made once.
    faults().set({ mode: 'ok' });
    for (const id of ids) {
      await waitFor(async () => ((await redemptionRow(sys, id))?.status !== 'processing' ? true : undefined), { timeoutMs: 30_000, what: `redemption ${id} to settle` });
      expect(await redemptionRow(sys, id)).toMatchObject({ status: 'esim_activation_ready' });
      expect(await ordersFor(id)).toHaveLength(1);
    }
    expect(faults().count('POST /line/create')).toBe(3);
    expect(await circuit()).toBe(0);
  });
});
