import type { Browser, Page } from 'playwright-core';
import { waitFor } from '@esim/testing';
import { wcagViolations } from '../support/axe';
import { expectVisible, launchBrowser, PHONE, signInThroughForm } from '../support/browser';
import { FAST_PROVISIONING, newEsim, redeem, Redeemer, signUpRedeemer, topUpTo } from '../redemption/redemption-support';
import { startSystem, System } from '../support/system';

/**
 * A line in My eSIMs, phone-sized, in English and Urdu (right to left): its data left and the
 * automatic top-up switch ("when below X MB, top up 1 GB with my points"), turned on with the
 * keyboard-reachable switch and saved; axe-core finds no WCAG A/AA violation. Needs
 * `npm run build -w @esim/frontend` first.
 */
describe('web app: a line shows its usage and the automatic top-up switch', () => {
  let sys: System;
  let browser: Browser;
  let ana: Redeemer;
  let iccid = '';

  async function signedIn(locale: string): Promise<Page> {
    const context = await browser.newContext({ ...PHONE, baseURL: sys.url, locale, bypassCSP: true, serviceWorkers: 'block' });
    const page = await context.newPage();
    await signInThroughForm(page, ana);
    return page;
  }

  const rule = async () => (await ana.client.get(`/api/esim-lines/${iccid}/auto-topup`)).json();

  beforeAll(async () => {
    sys = await startSystem({
      serveSpa: true,
      services: ['identity', 'rewards', 'esim', 'payments', 'notifications'],
      env: FAST_PROVISIONING,
      gatewayEnv: { REDEEM_WAIT_MS: '30000' },
    });
    ana = await signUpRedeemer(sys, { name: 'Ana Line' });
    await topUpTo(sys, ana, 1500);
    expect((await redeem(ana.client, newEsim('1GB', 'US'))).status).toBe(200);
    iccid = await waitFor(async () => (await ana.client.get('/api/esim-lines')).json().lines?.[0]?.iccid as string | undefined, {
      what: 'the eSIM in the wallet',
      timeoutMs: 30_000,
    });
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await sys?.stop();
  });

  it('shows the data left and turns the automatic top-up on (en)', async () => {
    const page = await signedIn('en');
    await page.goto('/esims?lng=en');
    await expectVisible(page.getByTestId('wallet-usage-left').filter({ hasText: '1 GB left of 1 GB' }));
    const toggle = page.getByRole('switch', { name: 'Top up 1 GB with my points when below 200 MB' });
    await expectVisible(toggle);
    await expect(toggle.isChecked()).resolves.toBe(false);
    await toggle.focus();
    await page.keyboard.press('Space');
    await waitFor(async () => (await rule()).enabled === true, { what: 'the rule saved' });
    // The page shows it once the save's answer is in, which may come after the rule is stored.
    await waitFor(() => toggle.isChecked(), { what: 'the switch on' });
    await page.getByLabel('When below', { exact: true }).selectOption('500');
    await waitFor(async () => (await rule()).belowMb === 500, { what: 'the threshold saved' });
    await expectVisible(page.getByRole('switch', { name: 'Top up 1 GB with my points when below 500 MB' }));
    expect(await wcagViolations(page)).toEqual([]);
  });

  it('says the same in Urdu, right to left', async () => {
    const page = await signedIn('ur');
    await page.goto('/esims?lng=ur');
    await expect(page.locator('html').getAttribute('dir')).resolves.toBe('rtl');
    await expectVisible(page.getByTestId('wallet-usage-left'));
    const toggle = page.getByTestId('auto-topup').getByRole('switch');
    await expectVisible(toggle);
    await expect(toggle.isChecked()).resolves.toBe(true);
    await expectVisible(page.getByTestId('auto-topup').getByText('میرے پوائنٹس سے 1 GB ری چارج کریں', { exact: false }));
    expect(await wcagViolations(page)).toEqual([]);
  });
});
