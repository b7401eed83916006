import type { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { waitFor } from '@esim/testing';
import { startEsim } from '../../services/esim/src/app';
import { AutoTopups } from '../../services/esim/src/auto-topup/auto-topups';
import { ESIM_PROVIDER, EsimProvider } from '../../services/esim/src/keepgo/esim-provider';
import { keepGoControl } from '../purchases/purchases-support';
import { balance, FAST_PROVISIONING, newEsim, redeem, Redeemer, signUpRedeemer, topUpTo, UNKNOWN_ICCID } from '../redemption/redemption-support';
import { startSystem, System } from '../support/system';
import { LiveStreamClient } from '../live/live-support';

const ENV = { ...FAST_PROVISIONING, ESIM_LINE_USAGE_REFRESH_SECONDS: '0' };

const STARTED = /^Automatic top-up: 1 GB on its way$/;
const REFUSED = /^Your automatic top-up did not run$/;

/**
 * "When below X MB, top up 1 GB with my points" (docs/wallet.md, "Top-up with points"): the rule
 * is kept per line of the user's wallet; a reading below it asks rewards for the same redemption
 * a one-tap top-up makes, once per trigger even when two checks on two esim replicas race, and
 * never past the monthly cap. The user is told each outcome once: by email (their switches
 * allow it), and a refusal on their open pages too.
 */
describe('wallet: automatic top-up with points', () => {
  let sys: System;
  let replica: INestApplication;
  let ana: Redeemer;
  let iccid = '';
  let live: LiveStreamClient | undefined;

  const topupsOf = async (userId: string) =>
    Number(
      (await sys.apps.rewards!.get(DataSource).query(`SELECT count(*)::int AS n FROM redemptions WHERE user_id = $1 AND kind = 'topup'`, [userId]))[0].n,
    );
  const reading = () => sys.apps.esim!.get<EsimProvider>(ESIM_PROVIDER).lineDetails(iccid);

  beforeAll(async () => {
    sys = await startSystem({ services: ['identity', 'rewards', 'esim', 'notifications'], env: ENV, gatewayEnv: { REDEEM_WAIT_MS: '30000' } });
    replica = await startEsim(sys.ns.env('esim', { ...sys.mail.env(), PUBLIC_URL: sys.url, SANDBOXES_URL: sys.sandboxes.url, ...ENV }));
    ana = await signUpRedeemer(sys);
    expect((await ana.client.patch('/api/user/settings', { locale: 'en' })).status).toBe(200);
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

  const mailsOf = (subject: RegExp) => sys.mail.mailsTo(ana.email).filter((m) => subject.test(m.subject));

  afterAll(async () => {
    live?.close();
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
    // Told once, though both checks got the redemption: only the one that settled the trigger announces it.
    const told = await sys.mail.waitForMail(ana.email, { subject: STARTED, timeoutMs: 30_000 });
    expect(told.text).toContain(`ending in ${iccid.slice(-4)} had 224 MB left, so 1 GB is being added with 1000 of your points`);
    expect(told.text).toMatch(/because automatic top-up is on for this line and email notifications are on\. .+ profile: http:\/\/.+\/profile/);
  });

  it('stops at the monthly cap, and says so once, by email and on the open page', async () => {
    live = LiveStreamClient.of(ana.client);
    await live.next((m) => m.event === 'user');
    await keepGoControl(sys, { consume: { iccid, mb: 1000 } });
    const line = await reading();
    expect(line.remainingMb).toBeLessThan(300);
    await Promise.all([sys.apps.esim!.get(AutoTopups).check(ana.id, line), replica.get(AutoTopups).check(ana.id, line)]);
    await sys.apps.esim!.get(AutoTopups).check(ana.id, line);
    expect(await topupsOf(ana.id)).toBe(1);
    expect(await balance(ana.client)).toBe(500);
    const told = await sys.mail.waitForMail(ana.email, { subject: REFUSED, timeoutMs: 30_000 });
    expect(told.text).toContain(`already reached your limit of 1 this month. Nothing was spent.`);
    const notice = await live.next((m) => m.data?.happened?.kind === 'auto-topup-refused', { timeoutMs: 30_000 });
    expect(notice.data.happened).toEqual({ kind: 'auto-topup-refused', last4: iccid.slice(-4), reason: 'monthly_cap' });
    // The refusal counts for nothing: the month shows the one top-up.
    expect((await ana.client.get(`/api/esim-lines/${iccid}/auto-topup`)).json()).toMatchObject({ usedThisMonth: 1 });
    expect(mailsOf(REFUSED)).toHaveLength(1);
    expect(mailsOf(STARTED)).toHaveLength(1);
  });

  it('with the cap raised, the same reading tries again: not enough points, nothing spent, said once', async () => {
    const sent = mailsOf(REFUSED).length;
    const after = live!.messages.length;
    expect((await ana.client.put(`/api/esim-lines/${iccid}/auto-topup`, { enabled: true, belowMb: 300, monthlyCap: 2 })).status).toBe(200);
    const line = await reading();
    await Promise.all([sys.apps.esim!.get(AutoTopups).check(ana.id, line), replica.get(AutoTopups).check(ana.id, line)]);
    await sys.apps.esim!.get(AutoTopups).check(ana.id, line);
    expect(await topupsOf(ana.id)).toBe(1);
    expect(await balance(ana.client)).toBe(500);
    const notice = await live!.next((m) => m.data?.happened?.kind === 'auto-topup-refused', { after, timeoutMs: 30_000 });
    expect(notice.data.happened).toEqual({ kind: 'auto-topup-refused', last4: iccid.slice(-4), reason: 'no_points' });
    await waitFor(async () => mailsOf(REFUSED).length > sent, { what: 'the no-points email', timeoutMs: 30_000 });
    const [mail] = mailsOf(REFUSED).slice(sent);
    expect(mail.text).toContain('you do not have the 1000 spendable points that 1 GB costs. Nothing was spent.');
    // Said once: a further check announces nothing; the next heartbeat proves nothing else was pushed.
    await live!.nextHeartbeat(30_000);
    expect(live!.messages.slice(after).filter((m) => m.data?.happened?.kind === 'auto-topup-refused')).toHaveLength(1);
    expect(mailsOf(REFUSED)).toHaveLength(sent + 1);
  });
});
