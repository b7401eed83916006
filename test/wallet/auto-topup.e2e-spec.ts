import type { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { waitFor } from '@esim/testing';
import { startEsim } from '../../services/esim/src/app';
import { AutoTopups } from '../../services/esim/src/auto-topup/auto-topups';
import { ESIM_PROVIDER, EsimProvider } from '../../services/esim/src/keepgo/esim-provider';
import { keepGoControl } from '../purchases/purchases-support';
import { balance, FAST_PROVISIONING, newEsim, redeem, Redeemer, signUpRedeemer, topUpTo, UNKNOWN_ICCID } from '../redemption/redemption-support';
import { startSystem, System } from '../support/system';

const ENV = { ...FAST_PROVISIONING, ESIM_LINE_USAGE_REFRESH_SECONDS: '0' };

/**
 * "When below X MB, top up 1 GB with my points" (docs/wallet.md, "Top-up with points"): the rule
 * is kept per line of the user's wallet; a reading below it asks rewards for the same redemption
 * a one-tap top-up makes, once per trigger even when two checks on two esim replicas race, and
 * never past the monthly cap.
 */
describe('wallet: automatic top-up with points', () => {
  let sys: System;
  let replica: INestApplication;
  let ana: Redeemer;
  let iccid = '';

  const topupsOf = async (userId: string) =>
    Number(
      (await sys.apps.rewards!.get(DataSource).query(`SELECT count(*)::int AS n FROM redemptions WHERE user_id = $1 AND kind = 'topup'`, [userId]))[0].n,
    );
  const reading = () => sys.apps.esim!.get<EsimProvider>(ESIM_PROVIDER).lineDetails(iccid);

  beforeAll(async () => {
    sys = await startSystem({ services: ['identity', 'rewards', 'esim', 'notifications'], env: ENV, gatewayEnv: { REDEEM_WAIT_MS: '30000' } });
    replica = await startEsim(sys.ns.env('esim', { ...sys.mail.env(), PUBLIC_URL: sys.url, SANDBOXES_URL: sys.sandboxes.url, ...ENV }));
    ana = await signUpRedeemer(sys);
    await topUpTo(sys, ana, 2500);
    const res = await redeem(ana.client, newEsim('1GB', 'US'));
    expect(res.status).toBe(200);
    iccid = await waitFor(
      async () => {
        const { lines } = (await ana.client.get('/api/esim-lines')).json();
        return lines?.[0]?.iccid as string | undefined;
      },
      { what: 'the new eSIM in the wallet', timeoutMs: 30_000 },
    );
    await waitFor(async () => (await balance(ana.client)) === 1500, { what: 'the redemption settled' });
  }, 120_000);

  afterAll(async () => {
    await replica?.close();
    await sys?.stop();
  });

  it('is off until set, validates the rule, and answers only for a line in the wallet', async () => {
    const off = await ana.client.get(`/api/esim-lines/${iccid}/auto-topup`);
    expect(off.status).toBe(200);
    expect(off.json()).toMatchObject({ iccid, enabled: false, usedThisMonth: 0, lastTriggeredAt: null });
    expect((await ana.client.put(`/api/esim-lines/${iccid}/auto-topup`, { enabled: true, belowMb: 10, monthlyCap: 1 })).status).toBe(400);
    expect((await ana.client.put(`/api/esim-lines/${iccid}/auto-topup`, { enabled: true, belowMb: 300, monthlyCap: 0 })).status).toBe(400);
    const other = await ana.client.put(`/api/esim-lines/${UNKNOWN_ICCID}/auto-topup`, { enabled: true, belowMb: 300, monthlyCap: 1 });
    expect(other.status).toBe(404);
    expect(other.json()).toMatchObject({ reason: 'line_not_found' });
    expect((await sys.client().get(`/api/esim-lines/${iccid}/auto-topup`)).status).toBe(401);

    const on = await ana.client.put(`/api/esim-lines/${iccid}/auto-topup`, { enabled: true, belowMb: 300, monthlyCap: 1 });
    expect(on.status).toBe(200);
    expect(on.json()).toMatchObject({ iccid, enabled: true, belowMb: 300, monthlyCap: 1, usedThisMonth: 0 });
  });

  it('does nothing while the line has more than the rule says', async () => {
    expect(await sys.apps.esim!.get(AutoTopups).check(ana.id, await reading())).toEqual([]);
    expect(await topupsOf(ana.id)).toBe(0);
  });

  it('tops up 1 GB once with the points when two checks on two replicas race', async () => {
    await keepGoControl(sys, { consume: { iccid, mb: 800 } });
    const line = await reading();
    expect(line.remainingMb).toBe(224);
    const [first, second] = await Promise.all([sys.apps.esim!.get(AutoTopups).check(ana.id, line), replica.get(AutoTopups).check(ana.id, line)]);
    // Both checks may ask rewards for the trigger's redemption; it is the same one (its key is the trigger's).
    expect(new Set([...first, ...second]).size).toBe(1);
    expect(await topupsOf(ana.id)).toBe(1);
    await waitFor(async () => (await reading()).allowedMb === 2048, { what: 'the 1 GB added to the line', timeoutMs: 30_000 });
    await waitFor(async () => (await balance(ana.client)) === 500, { what: 'the 1,000 points spent once' });
    expect((await ana.client.get(`/api/esim-lines/${iccid}/auto-topup`)).json()).toMatchObject({ usedThisMonth: 1, lastTriggeredAt: expect.any(String) });
  });

  it('stops at the monthly cap', async () => {
    await keepGoControl(sys, { consume: { iccid, mb: 1000 } });
    const line = await reading();
    expect(line.remainingMb).toBeLessThan(300);
    await Promise.all([sys.apps.esim!.get(AutoTopups).check(ana.id, line), replica.get(AutoTopups).check(ana.id, line)]);
    expect(await topupsOf(ana.id)).toBe(1);
    expect(await balance(ana.client)).toBe(500);
  });
});
