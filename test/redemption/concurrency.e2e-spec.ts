import { DataSource } from 'typeorm';
import type { System } from '../support/system';
import { balance, DEMO_ICCID, expectLedgerSound, ledgerBalance, newEsim, redeem, Redeemer, signUpRedeemer, startRedemptionSystem, topUp, topUpTo } from './redemption-support';

/**
 * Security check 15: N parallel redemptions against a balance covering k of them. The protection
 * is the ledger's: a reservation locks the user's account and the database refuses one that would
 * take the available balance below zero (ledger_no_overdraft).
 */
describe('concurrent redemptions', () => {
  let sys: System;
  let max: Redeemer;

  beforeAll(async () => {
    sys = await startRedemptionSystem();
    max = await signUpRedeemer(sys);
  });
  afterAll(() => sys?.stop());

  it('10 at once against a balance covering 2: exactly 2 succeed, and the balance never goes below zero', async () => {
    await topUpTo(sys, max, 2000);
    const seen: number[] = [];
    let racing = true;
    const watcher = (async () => {
      while (racing) {
        seen.push(await ledgerBalance(sys, max.id));
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();

    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => redeem(max.client, i % 2 === 0 ? topUp(DEMO_ICCID) : newEsim('1GB', 'MX'))),
    );
    racing = false;
    await watcher;

    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 200, 409, 409, 409, 409, 409, 409, 409, 409]);
    for (const refused of answers.filter((a) => a.status === 409)) expect(refused.json().reason).toBe('insufficient_points');
    for (const ok of answers.filter((a) => a.status === 200)) expect(['completed', 'esim_activation_ready']).toContain(ok.json().status);
    expect(await balance(max.client)).toBe(0);
    expect(seen.length).toBeGreaterThan(0);
    expect(Math.min(...seen)).toBeGreaterThanOrEqual(0);
    const reservations = await sys.apps.rewards!.get(DataSource).query(
      `SELECT count(*)::int AS n FROM ledger_transfers WHERE kind = 'reservation'`,
    );
    expect(reservations[0].n).toBe(2);
    await expectLedgerSound(sys);
  });
});
