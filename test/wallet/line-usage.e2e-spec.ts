import { LINE_USAGE_NOT_FOUND_MESSAGE, LINE_USAGE_UNAVAILABLE_MESSAGE } from '@esim/contracts';
import { waitFor } from '@esim/testing';
import { confirmPurchase, createPayment, keepGoControl, payWithVisa } from '../purchases/purchases-support';
import { signUp } from '../support/accounts';
import type { HttpClient } from '../support/http-client';
import { startSystem, System } from '../support/system';

const DETAILS = 'GET /line/:iccid/get_details';

/**
 * My eSIMs: what is left on a line, read from KeepGo (here its emulator) through the esim service,
 * for the line's owner only, reused for ESIM_LINE_USAGE_CACHE_SECONDS, asked again on a refresh,
 * and the last answer kept when KeepGo is down.
 */
describe('wallet: data and validity left on a line', () => {
  let sys: System;
  let ana: HttpClient;
  let bruno: HttpClient;
  let first = '';
  let second = '';

  const detailsAsked = async () => Number((await keepGoControl(sys)).requests?.[DETAILS] ?? 0);

  /** Buys a plan by card as the SPA does; answers the ICCID of the eSIM it issued. */
  async function buy(client: HttpClient, planType: '1GB' | '3GB'): Promise<string> {
    const payment = await createPayment(client, { planType, country: 'BR' });
    expect((await payWithVisa(sys, payment)).status).toBe(200);
    return waitFor(
      async () => {
        const body = (await confirmPurchase(client, payment.paymentIntentId)).json();
        return body.status === 'activated' ? (body.iccid as string) : undefined;
      },
      { what: `the eSIM of ${planType}`, timeoutMs: 20_000 },
    );
  }

  beforeAll(async () => {
    sys = await startSystem({
      services: ['identity', 'esim', 'payments', 'notifications'],
      env: {
        PURCHASE_CONFIRM_WAIT_MS: '5000',
        ESIM_LINE_USAGE_CACHE_SECONDS: '300',
        ESIM_LINE_USAGE_REFRESH_SECONDS: '0',
        KEEPGO_RETRY_BACKOFF_MS: '10',
      },
    });
    ana = sys.client();
    bruno = sys.client();
    await signUp(ana, sys.mail, { name: 'Ana' });
    await signUp(bruno, sys.mail, { name: 'Bruno' });
    first = await buy(ana, '3GB');
    second = await buy(ana, '1GB');
  }, 90_000);
  afterAll(async () => {
    await sys?.stop();
  });

  it('lists the bought lines in the wallet', async () => {
    const { lines } = (await ana.get('/api/esim-lines')).json();
    expect(lines.map((l: { iccid: string; source: string }) => [l.iccid, l.source]).sort()).toEqual(
      [
        [first, 'bought'],
        [second, 'bought'],
      ].sort(),
    );
  });

  it("answers the line's data and validity from the provider, then reuses the answer", async () => {
    const before = await detailsAsked();
    const res = await ana.get(`/api/esim-lines/${first}/usage`);
    expect(res.status).toBe(200);
    const usage = res.json();
    expect(usage).toEqual({
      iccid: first,
      status: expect.any(String),
      remainingMb: 3072,
      allowedMb: 3072,
      remainingDays: 30,
      checkedAt: expect.any(String),
    });
    expect(Date.now() - Date.parse(usage.checkedAt)).toBeLessThan(30_000);
    expect(await detailsAsked()).toBe(before + 1);

    const again = (await ana.get(`/api/esim-lines/${first}/usage`)).json();
    expect(again).toEqual(usage);
    expect(await detailsAsked()).toBe(before + 1);
  });

  it('asks the provider again on a refresh and shows what changed', async () => {
    await sys.sandboxes.db('keepgo').query('UPDATE keepgo_sandbox_data_bundles SET remaining_usage_kb = $1 WHERE iccid = $2', [1000 * 1024, first]);
    const before = await detailsAsked();
    expect((await ana.get(`/api/esim-lines/${first}/usage`)).json().remainingMb).toBe(3072);
    const refreshed = (await ana.get(`/api/esim-lines/${first}/usage?refresh=true`)).json();
    expect(refreshed).toMatchObject({ iccid: first, remainingMb: 1000, allowedMb: 3072 });
    expect(await detailsAsked()).toBe(before + 1);
  });

  it("refuses someone else's line without asking the provider, and a malformed ICCID, and a visitor", async () => {
    const before = await detailsAsked();
    const other = await bruno.get(`/api/esim-lines/${first}/usage?refresh=true`);
    expect(other.status).toBe(404);
    expect(other.json()).toMatchObject({ message: LINE_USAGE_NOT_FOUND_MESSAGE, reason: 'line_not_found' });
    expect((await ana.get('/api/esim-lines/1234/usage')).status).toBe(400);
    expect((await ana.get(`/api/esim-lines/${first}/usage?refresh=maybe`)).status).toBe(400);
    expect((await sys.client().get(`/api/esim-lines/${first}/usage`)).status).toBe(401);
    expect(await detailsAsked()).toBe(before);
  });

  it('keeps showing the last answer while the provider is down, and says so for a line never read', async () => {
    const last = (await ana.get(`/api/esim-lines/${first}/usage`)).json();
    await keepGoControl(sys, { mode: 'fail', path: '/get_details' });
    try {
      const stale = await ana.get(`/api/esim-lines/${first}/usage?refresh=true`);
      expect(stale.status).toBe(200);
      expect(stale.json()).toEqual(last);

      const unread = await ana.get(`/api/esim-lines/${second}/usage`);
      expect(unread.status).toBe(503);
      expect(unread.json()).toMatchObject({ message: LINE_USAGE_UNAVAILABLE_MESSAGE, reason: 'provider_unavailable' });
    } finally {
      await keepGoControl(sys, { reset: true });
    }
    expect((await ana.get(`/api/esim-lines/${second}/usage`)).json()).toMatchObject({ iccid: second, remainingMb: 1024, allowedMb: 1024 });
  });
});
