import type { Browser, BrowserContext, Page } from 'playwright-core';
import { waitFor } from '@esim/testing';
import { signUp, SignedUpUser } from '../support/accounts';
import { wcagViolations } from '../support/axe';
import { expectVisible, launchBrowser, PHONE } from '../support/browser';
import { startSystem, System } from '../support/system';

type Win = {
  navigator: { serviceWorker: { ready: Promise<unknown>; controller: unknown } };
  caches: { keys(): Promise<string[]>; open(name: string): Promise<{ keys(): Promise<Array<{ url: string }>> }> };
  fetch(url: string, init?: unknown): Promise<{ ok: boolean; status: number }>;
};

/**
 * Buying an eSIM by card in the real web app on a phone-sized Chromium, against every service with
 * the Stripe and KeepGo emulators: dashboard → Buy 3GB for Brazil → /checkout → a declined card
 * (the payment failure) → 4242 → /success → Set Up eSIM → /esim-activation; the My eSIMs wallet
 * (QR with Share and Save, usage, setup guide, top-up link); the wallet and its QR code with the
 * network cut (the service worker); what it kept forgotten at sign-out; axe-core's WCAG A/AA check
 * of /checkout, /success and /esims in English and Urdu. Needs `npm run build -w @esim/frontend`.
 */
describe('web app: buying an eSIM by card, and the wallet offline', () => {
  let sys: System;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let user: SignedUpUser;
  let successUrl = '';
  let iccid = '';
  let lpaCode = '';

  /**
   * A phone-sized context in `locale` (the browser's; `language`, the app's, defaults to it) with
   * the session of the main one; CSP bypassed for axe-core.
   */
  async function phoneContext(locale: string, language = locale): Promise<{ context: BrowserContext; page: Page }> {
    const ctx = await browser.newContext({ ...PHONE, baseURL: sys.url, locale, bypassCSP: true });
    await ctx.addInitScript(
      (lng) => (globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }).localStorage.setItem('locale', lng),
      language,
    );
    if (context) await ctx.addCookies(await context.cookies());
    return { context: ctx, page: await ctx.newPage() };
  }

  async function payWith(card: string): Promise<void> {
    await page.getByLabel('Card number').fill(card);
    await page.getByLabel('Expiry date (MM / YY)').fill('12 / 34');
    await page.getByLabel('Security code (CVC)').fill('123');
    await page.getByRole('button', { name: 'Pay for 3GB eSIM' }).click();
  }

  beforeAll(async () => {
    sys = await startSystem({ serveSpa: true, env: { PURCHASE_CONFIRM_WAIT_MS: '10000' } });
    user = await signUp(sys.client(), sys.mail, { name: 'Buying Bia' });
    browser = await launchBrowser();
    ({ context, page } = await phoneContext('en'));
  });
  afterAll(async () => {
    await browser?.close();
    await sys?.stop();
  });

  it('is installable: every page links the manifest (name, standalone, PNG icons) and registers the service worker after loading', async () => {
    const html = await (await fetch(`${sys.url}/dashboard`)).text();
    expect(html).toMatch(/<link rel="manifest" href="\/manifest.webmanifest">/);
    expect(html).toMatch(/<script[^>]*src="\/registerSW.js"[^>]*defer/);
    const manifest = await fetch(`${sys.url}/manifest.webmanifest`);
    expect(manifest.headers.get('content-type')).toMatch(/^application\/manifest\+json/);
    const body = (await manifest.json()) as { icons: Array<{ src: string; sizes: string; purpose: string }> };
    expect(body).toMatchObject({ name: 'Dados Grátis', start_url: '/', display: 'standalone', theme_color: '#4c3bcf' });
    expect(body.icons.map((i) => `${i.sizes} ${i.purpose}`).sort()).toEqual(['192x192 any', '512x512 any', '512x512 maskable']);
    for (const icon of body.icons) {
      const res = await fetch(`${sys.url}${icon.src}`);
      expect([res.status, res.headers.get('content-type')]).toEqual([200, 'image/png']);
    }
    const worker = await fetch(`${sys.url}/sw.js`);
    expect([worker.status, worker.headers.get('cache-control')]).toEqual([200, 'no-cache']);
    // The precache list the build injected: the app's code, not the icons.
    const list = await worker.text();
    expect(list).toMatch(/"url":"assets\/boot-[\w-]+\.js"/);
    const precached = [...list.matchAll(/"url":"([^"]+)"/g)].map((m) => m[1]);
    expect(precached.filter((url) => url.startsWith('icons/'))).toEqual([]);
  });

  it('buys 3GB for Brazil from the dashboard: the checkout, a declined card, then 4242', async () => {
    await page.goto('/auth?login=true');
    await page.locator('#root[data-app="ready"]').waitFor({ state: 'attached' });
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(/\/dashboard/);

    // Prices follow the country, from GET /api/plans: US dollars for the US, reais for Brazil.
    await page.getByRole('combobox', { name: 'Country where you will use the eSIM' }).selectOption('US');
    await expectVisible(page.getByTestId('plan-price-3GB').filter({ hasText: /^\$4\.99$/ }));
    await page.getByRole('combobox', { name: 'Country where you will use the eSIM' }).selectOption('BR');
    await expectVisible(page.getByTestId('plan-price-3GB').filter({ hasText: 'R$24.90' }));
    await page.getByRole('link', { name: 'Buy 3GB' }).click();
    await page.waitForURL(/\/checkout\?plan=3GB&country=BR$/);
    await expectVisible(page.getByRole('heading', { level: 1, name: 'Complete Purchase' }));
    await expect(page.getByRole('link', { name: 'Back to dashboard' }).first().getAttribute('href')).resolves.toBe('/dashboard');
    await expect(page.getByTestId('checkout-summary').innerText()).resolves.toMatch(
      /Popular · 3 GB[\s\S]*Brazil[\s\S]*30 days[\s\S]*R\$24\.90/,
    );
    // The sandbox says so, lists Stripe's test cards, and reads the intent as Stripe.js would.
    await expectVisible(page.getByText('Test mode: no real card is charged'));
    for (const card of ['4242 4242 4242 4242', '4000 0000 0000 0002', '4000 0000 0000 9995']) await expectVisible(page.getByText(card));
    await expectVisible(page.getByTestId('charge-note').filter({ hasText: 'Your card will be charged R$24.90.' }));
    expect(await wcagViolations(page)).toEqual([]);

    // The form's own checks first: nothing is sent.
    await page.getByRole('button', { name: 'Pay for 3GB eSIM' }).click();
    await expectVisible(page.getByText('Enter your card number.'));
    await expect(page.getByLabel('Card number').getAttribute('aria-invalid')).resolves.toBe('true');

    await payWith('4000 0000 0000 0002');
    const toast = page.getByTestId('toast');
    await expectVisible(toast.filter({ hasText: 'Payment failed' }));
    await expectVisible(toast.filter({ hasText: 'Your card was declined.' }));
    await expectVisible(page.getByTestId('payment-error').filter({ hasText: 'Your card was declined.' }));
    expect(page.url()).toMatch(/\/checkout\?/);

    await payWith('4000 0000 0000 9995');
    await expectVisible(page.getByTestId('payment-error').filter({ hasText: 'Your card has insufficient funds.' }));

    await page.getByRole('button', { name: 'Use test card 4242 4242 4242 4242' }).click();
    await expect(page.getByLabel('Card number').inputValue()).resolves.toBe('4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Pay for 3GB eSIM' }).click();
    await page.waitForURL(/\/success\?payment_intent=pi_[A-Za-z0-9]+&plan=3GB$/, { timeout: 15_000 });
    successUrl = new URL(page.url()).pathname + new URL(page.url()).search;
  }, 90_000);

  it("confirms on /success: 'eSIM Purchased!' with the plan, the GB, Activated, the masked ICCID and the QR code", async () => {
    await expectVisible(page.getByRole('heading', { level: 1, name: 'eSIM Purchased!' }));
    await expect(page.getByTestId('purchase-plan').textContent()).resolves.toBe('3GB');
    await expect(page.getByTestId('purchase-data').textContent()).resolves.toBe('3 GB');
    await expect(page.getByTestId('purchase-status').textContent()).resolves.toBe('Activated');
    const masked = (await page.getByTestId('purchase-iccid').textContent()) ?? '';
    expect(masked).toMatch(/^89\d{3}••••\d{3}$/);
    const qr = page.getByRole('img', { name: 'QR code to install your eSIM' });
    await expectVisible(qr);
    await expect(qr.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).resolves.toBeGreaterThan(0);
    await expect(page.getByRole('link', { name: 'Return to Dashboard' }).getAttribute('href')).resolves.toBe('/dashboard');
    expect(await wcagViolations(page)).toEqual([]);

    await page.getByRole('link', { name: 'Set Up eSIM' }).click();
    await page.waitForURL(/\/esim-activation\?iccid=89\d+&lpa=/);
    const query = new URL(page.url()).searchParams;
    iccid = query.get('iccid')!;
    lpaCode = query.get('lpa')!;
    expect(masked).toBe(`${iccid.slice(0, 5)}••••${iccid.slice(-3)}`);
    expect(lpaCode).toMatch(/^LPA:1\$[^$]+\$.+/);
    await expectVisible(page.getByRole('heading', { level: 1, name: 'Activate your eSIM' }));
    await expect(page.getByTestId('activation-lpa').textContent()).resolves.toBe(lpaCode);
    await expect(page.getByTestId('activation-iccid').textContent()).resolves.toBe(iccid);
  }, 60_000);

  it('lists the eSIM in My eSIMs: Ready, GB, price, ICCID, QR with Share and Save, usage, setup guide and top-up', async () => {
    await page.goto('/esims');
    await expectVisible(page.getByRole('heading', { level: 1, name: 'My eSIMs' }));
    const entry = page.getByTestId('wallet-entry');
    await expectVisible(entry);
    await expect(entry.count()).resolves.toBe(1);
    await expectVisible(entry.getByRole('heading', { name: '3GB eSIM' }));
    await expect(entry.getByTestId('wallet-status').textContent()).resolves.toBe('Ready');
    await expect(entry.getByTestId('wallet-data').textContent()).resolves.toBe('3 GB');
    await expect(entry.getByTestId('wallet-price').textContent()).resolves.toBe('R$24.90');
    await expect(entry.getByTestId('wallet-iccid').textContent()).resolves.toBe(`${iccid.slice(0, 5)}••••${iccid.slice(-3)}`);
    await expect(entry.getByTestId('wallet-lpa').textContent()).resolves.toBe(lpaCode);
    const qr = entry.getByRole('img', { name: 'QR code of your 3GB eSIM' });
    await expect(qr.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).resolves.toBeGreaterThan(0);
    // What is left, from the provider: the whole plan, 30 days.
    await expectVisible(entry.getByTestId('wallet-usage-left').filter({ hasText: '3 GB left of 3 GB' }));
    await expect(entry.getByTestId('wallet-usage-days').textContent()).resolves.toBe('Days left: 30');
    await entry.getByRole('button', { name: 'Refresh the data left' }).click();
    await expectVisible(entry.getByTestId('wallet-usage-left').filter({ hasText: '3 GB left of 3 GB' }));
    await expect(entry.getByRole('link', { name: 'Top up the 3GB eSIM' }).getAttribute('href')).resolves.toBe(`/iccid?iccid=${iccid}`);
    expect(await wcagViolations(page)).toEqual([]);

    // Save downloads the PNG; this desktop Chromium has no share sheet: the spec's 'share failed'.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      entry.getByRole('button', { name: 'Save the QR code of the 3GB eSIM' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`esim-qr-${iccid.slice(-4)}.png`);
    await entry.getByRole('button', { name: 'Share the QR code of the 3GB eSIM' }).click();
    await expectVisible(
      page
        .getByTestId('toast')
        .filter({ hasText: 'Share failed' })
        .filter({ hasText: 'Could not share QR code. Try downloading instead.' }),
    );

    await entry.getByRole('button', { name: 'Setup Guide' }).click();
    await page.waitForURL(/\/esim-activation\?/);
    await expect(page.getByTestId('activation-lpa').textContent()).resolves.toBe(lpaCode);
  });

  it('shows the prices in reais, written the Brazilian way, in Portuguese', async () => {
    const pt = await phoneContext('pt-BR', 'pt');
    const plain = (text: string | null) => (text ?? '').replace(/\s/g, ' ');
    try {
      await pt.page.goto('/dashboard');
      // A visitor whose browser speaks Brazilian Portuguese starts on Brazil's prices.
      await expectVisible(pt.page.getByTestId('plan-price-3GB').filter({ hasText: /R\$\s24,90/ }));
      expect(plain(await pt.page.getByTestId('plan-price-10GB').textContent())).toBe('R$ 54,90');

      await pt.page.goto('/checkout?plan=3GB&country=BR');
      await expectVisible(pt.page.getByTestId('checkout-total').filter({ hasText: /R\$\s24,90/ }));
      await expectVisible(pt.page.getByTestId('charge-note').filter({ hasText: /R\$\s24,90/ }));

      await pt.page.goto('/esims');
      const entry = pt.page.getByTestId('wallet-entry');
      await expectVisible(entry.getByTestId('wallet-price'));
      expect(plain(await entry.getByTestId('wallet-price').textContent())).toBe('R$ 24,90');
    } finally {
      await pt.context.close();
    }
  }, 60_000);

  it('passes axe-core on /checkout, /success and /esims in Urdu, right to left', async () => {
    const ur = await phoneContext('ur');
    try {
      await ur.page.goto('/checkout?plan=1GB&country=US');
      await expectVisible(ur.page.getByRole('heading', { level: 1, name: 'خریداری مکمل کریں' }));
      await expectVisible(ur.page.getByTestId('charge-note'));
      await expect(
        ur.page.evaluate(() => (globalThis as unknown as { document: { documentElement: { dir: string } } }).document.documentElement.dir),
      ).resolves.toBe('rtl');
      expect(await wcagViolations(ur.page)).toEqual([]);

      // Confirming again is harmless: the same eSIM.
      await ur.page.goto(successUrl);
      await expectVisible(ur.page.getByRole('heading', { level: 1, name: 'eSIM خرید لی گئی!' }));
      expect(await wcagViolations(ur.page)).toEqual([]);

      await ur.page.goto('/esims');
      await expectVisible(ur.page.getByRole('heading', { level: 1, name: 'میری eSIMs' }));
      await expectVisible(ur.page.getByTestId('wallet-usage-left'));
      expect(await wcagViolations(ur.page)).toEqual([]);
    } finally {
      await ur.context.close();
    }
  }, 60_000);

  it('opens the wallet, its QR code and the setup guide with the network cut', async () => {
    // The service worker installed on the first page and took over; the wallet's reads are kept.
    await waitFor(
      async () => {
        await page.goto('/esims');
        return page.evaluate(async () => {
          await (globalThis as unknown as Win).navigator.serviceWorker.ready;
          return !!(globalThis as unknown as Win).navigator.serviceWorker.controller;
        });
      },
      { what: 'the service worker to control the page', timeoutMs: 20_000 },
    );
    await page.goto('/esims');
    await expectVisible(page.getByTestId('wallet-usage-left'));

    await context.setOffline(true);
    try {
      // Nothing else is answered from a copy: the network really is gone.
      await expect(page.evaluate(() => (globalThis as unknown as Win).fetch('/api/gifts').then((r) => r.status))).rejects.toThrow();

      await page.reload();
      await expectVisible(page.getByRole('heading', { level: 1, name: 'My eSIMs' }));
      await expectVisible(page.getByTestId('wallet-offline').filter({ hasText: 'You are offline' }));
      const entry = page.getByTestId('wallet-entry');
      await expect(entry.getByTestId('wallet-status').textContent()).resolves.toBe('Ready');
      await expect(entry.getByTestId('wallet-lpa').textContent()).resolves.toBe(lpaCode);
      const qr = entry.getByRole('img', { name: 'QR code of your 3GB eSIM' });
      await expectVisible(qr);
      await expect(qr.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).resolves.toBeGreaterThan(0);
      await expectVisible(entry.getByTestId('wallet-usage-left').filter({ hasText: '3 GB left of 3 GB' }));

      // The setup guide, opened as a new page load: the shell, the guide, and the QR code from the kept wallet.
      await page.goto(`/esim-activation?iccid=${encodeURIComponent(iccid)}&lpa=${encodeURIComponent(lpaCode)}`);
      await expectVisible(page.getByRole('heading', { level: 1, name: 'Activate your eSIM' }));
      await expect(page.getByTestId('activation-lpa').textContent()).resolves.toBe(lpaCode);
      const guideQr = page.getByRole('img', { name: 'QR code to install your eSIM' });
      await expectVisible(guideQr);
      await expect(guideQr.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).resolves.toBeGreaterThan(0);
      await expectVisible(page.getByRole('tab', { name: 'Android' }));
    } finally {
      await context.setOffline(false);
    }
  }, 60_000);

  it('forgets the kept answers when the user signs out', async () => {
    const kept = () =>
      page.evaluate(async () => {
        const w = globalThis as unknown as Win;
        if (!(await w.caches.keys()).includes('esim-offline-api-v1')) return [];
        return (await (await w.caches.open('esim-offline-api-v1')).keys()).map((r) => new URL(r.url).pathname).sort();
      });
    await page.goto('/esims');
    await expectVisible(page.getByTestId('wallet-entry'));
    await expect(kept()).resolves.toEqual(expect.arrayContaining(['/api/esim-lines', '/api/esim-purchases', '/api/user']));
    await expect(
      page.evaluate(() =>
        (globalThis as unknown as Win).fetch('/api/logout', { method: 'POST', credentials: 'include' }).then((r) => r.status),
      ),
    ).resolves.toBe(200);
    await expect(kept()).resolves.toEqual([]);
  });
});
