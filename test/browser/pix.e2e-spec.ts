import type { Browser, BrowserContext, Page } from 'playwright-core';
import { signUp, SignedUpUser } from '../support/accounts';
import { wcagViolations } from '../support/axe';
import { expectVisible, launchBrowser, PHONE } from '../support/browser';
import type { HttpClient } from '../support/http-client';
import { startSystem, System } from '../support/system';
import { confirmPurchase, confirmWithPix, createPayment, keepGoControl, settlePix } from '../purchases/purchases-support';

/**
 * Paying by Pix in the real web app on a phone-sized Chromium, in Portuguese, against every
 * service with the Stripe and KeepGo emulators: /checkout for Brazil → Pix → the QR code, the
 * copy-and-paste code copied to the clipboard, the countdown → the code let expire from the
 * sandbox's bank buttons → a new code in one tap → paid from the "bank" → the page moves to
 * /success by itself (the webhook fulfils, the live stream says so) with the eSIM; the status
 * region announces the payment received by the live stream, before the page's 30-second fallback
 * read could have, without a reload. My eSIMs offers "Pedir reembolso" only on an eSIM KeepGo
 * reports untouched, says why on a used one (with the support address), and shows the refunded
 * one "Reembolsado — cancelado". axe-core's WCAG
 * A/AA check of the Pix checkout in Portuguese, English and Urdu. Needs `npm run build -w @esim/frontend`.
 */
describe('web app: paying by Pix', () => {
  let sys: System;
  let browser: Browser;
  let session: BrowserContext;
  let user: SignedUpUser;
  /** The same user over HTTP, for purchases made outside the page. */
  let api: HttpClient;

  /** A phone-sized context in `locale` with the signed-in session; CSP bypassed for axe-core. */
  async function phoneContext(locale: string, language: string): Promise<{ context: BrowserContext; page: Page }> {
    const ctx = await browser.newContext({ ...PHONE, baseURL: sys.url, locale, bypassCSP: true });
    await ctx.addInitScript(
      (lng) => (globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }).localStorage.setItem('locale', lng),
      language,
    );
    await ctx.addCookies(await session.cookies());
    return { context: ctx, page: await ctx.newPage() };
  }

  beforeAll(async () => {
    sys = await startSystem({ serveSpa: true, env: { PURCHASE_CONFIRM_WAIT_MS: '10000' } });
    api = sys.client();
    user = await signUp(api, sys.mail, { name: 'Pix Paula' });
    browser = await launchBrowser();
    session = await browser.newContext({ ...PHONE, baseURL: sys.url, locale: 'en' });
    await session.addInitScript(() => (globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }).localStorage.setItem('locale', 'en'));
    const page = await session.newPage();
    await page.goto('/auth?login=true');
    await page.locator('#root[data-app="ready"]').waitFor({ state: 'attached' });
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(/\/dashboard/);
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await sys?.stop();
  });

  it('pays 3GB for Brazil by Pix in Portuguese: QR, copy, expiry, a new code, paid, /success by itself', async () => {
    const { context, page } = await phoneContext('pt-BR', 'pt');
    try {
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: sys.url });
      await page.goto('/checkout?plan=3GB&country=BR');
      await page.getByRole('radio', { name: 'Pix' }).check();
      await page.waitForURL(/\/checkout\?plan=3GB&country=BR&method=pix$/);
      await expectVisible(page.getByRole('heading', { name: 'Pagamento com Pix' }));
      await expectVisible(page.getByText(/Pague R\$\s24,90 com Pix/));
      await expectVisible(page.getByRole('img', { name: /QR code Pix de R\$\s24,90/ }));
      const code = page.getByLabel('Pix Copia e Cola');
      const first = await code.inputValue();
      expect(first).toMatch(/^000201.*br\.gov\.bcb\.pix.*6304[0-9A-F]{4}$/);
      await expect(page.getByTestId('pix-countdown').textContent()).resolves.toMatch(/^\d{1,2}:\d{2}(:\d{2})?$/);
      await expectVisible(page.getByText('Modo de teste: nenhum Pix real é cobrado'));
      expect(await wcagViolations(page)).toEqual([]);

      await page.getByRole('button', { name: 'Copiar código' }).click();
      await expectVisible(page.getByRole('button', { name: 'Código copiado' }));
      await expect(page.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText())).resolves.toBe(first);

      // Nobody paid in time: the code is gone, and a new one is one tap away.
      await page.getByRole('button', { name: 'Deixar expirar' }).click();
      await expectVisible(page.getByText('Este código Pix expirou e não pode mais ser pago.'));
      expect(await wcagViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Gerar novo código' }).click();
      await expectVisible(page.getByRole('img', { name: /QR code Pix/ }));
      const second = await page.getByLabel('Pix Copia e Cola').inputValue();
      expect(second).not.toBe(first);

      // Paid from the "bank app": nothing to click here, the page moves on when the payment lands.
      await page.getByRole('button', { name: 'Simular pagamento' }).click();
      await page.waitForURL(/\/success\?payment_intent=pi_[A-Za-z0-9]+&plan=3GB$/, { timeout: 20_000 });
      await expectVisible(page.getByRole('heading', { level: 1, name: 'eSIM comprado!' }));
      await expectVisible(page.getByTestId('purchase-iccid'));
    } finally {
      await context.close();
    }
  }, 120_000);

  it('announces the payment received by the live stream in the status region, without a reload', async () => {
    const { context, page } = await phoneContext('pt-BR', 'pt');
    try {
      // The page also reads its purchases every 30 s (the stream's fallback): everything below
      // must happen before the first of those reads, so only the live stream can have done it.
      const opened = Date.now();
      await page.goto('/checkout?plan=1GB&country=BR&method=pix');
      const status = page.getByTestId('pix-status');
      await expectVisible(page.getByRole('img', { name: /QR code Pix/ }));
      expect(await status.textContent()).toContain('Aguardando o pagamento…');
      expect(await status.getAttribute('role')).toBe('status');
      expect(await status.getAttribute('aria-live')).toBe('polite');
      // Every text the status region takes, kept in the document (a reload would lose it).
      await page.evaluate(() => {
        const w = globalThis as unknown as { pixStatusTexts: string[]; document: { querySelector(s: string): { textContent: string | null } | null } };
        const region = w.document.querySelector('[data-testid="pix-status"]')!;
        w.pixStatusTexts = [];
        new (globalThis as unknown as { MutationObserver: new (cb: () => void) => { observe(n: unknown, o: object): void } }).MutationObserver(() =>
          w.pixStatusTexts.push(region.textContent ?? ''),
        ).observe(region, { childList: true, subtree: true, characterData: true });
      });

      await page.getByRole('button', { name: 'Simular pagamento' }).click();
      const before30s = 28_000 - (Date.now() - opened);
      expect(before30s).toBeGreaterThan(0);
      await page.waitForFunction(
        () => ((globalThis as unknown as { pixStatusTexts?: string[] }).pixStatusTexts ?? []).some((t) => t.includes('Pagamento recebido!')),
        undefined,
        { timeout: before30s },
      );
      await page.waitForURL(/\/success\?payment_intent=pi_[A-Za-z0-9]+&plan=1GB$/, { timeout: 20_000 });
      // Moved by the app in the same document: the recorded texts are still there.
      const texts = await page.evaluate(() => (globalThis as unknown as { pixStatusTexts?: string[] }).pixStatusTexts);
      expect(texts).toEqual(expect.arrayContaining([expect.stringContaining('Pagamento recebido! Preparando seu eSIM…')]));
    } finally {
      await context.close();
    }
  }, 120_000);

  it('My eSIMs offers a refund only where KeepGo reports the eSIM untouched, says why elsewhere, and shows the refunded one cancelled', async () => {
    /** A Pix purchase paid and delivered, over HTTP as the bank app and the webhook do it. */
    const bought = async (): Promise<string> => {
      const payment = await createPayment(api, { planType: '1GB', country: 'BR', paymentMethod: 'pix' });
      expect((await confirmWithPix(sys, payment)).status).toBe(200);
      expect((await settlePix(sys, payment, 'pay')).status).toBe(200);
      const confirmed = (await confirmPurchase(api, payment.paymentIntentId)).json();
      expect(confirmed).toMatchObject({ status: 'activated' });
      return confirmed.iccid;
    };
    const untouched = await bought();
    const used = await bought();
    await keepGoControl(sys, { line: { iccid: used, usedMb: 5 } });
    // KeepGo read once for the list (esim keeps the readings briefly), as a first visit would.
    const reports = (await api.get('/api/esim-purchases')).json() as Array<{ iccid: string; refund: { reason: string | null } }>;
    expect(reports.find((p) => p.iccid === used)?.refund.reason).toBe('used');

    const { context, page } = await phoneContext('pt-BR', 'pt');
    try {
      await page.goto('/esims');
      const card = (iccid: string) => page.getByTestId('wallet-entry').filter({ hasText: iccid.slice(-3) }).filter({ hasText: iccid.slice(0, 5) });
      const usedCard = card(used);
      await expectVisible(usedCard.getByText('Comprado com Pix'));
      await expectVisible(usedCard.getByText('Este eSIM já usou dados, então não pode ser reembolsado aqui.'));
      await expect(usedCard.getByRole('button', { name: 'Pedir reembolso' }).count()).resolves.toBe(0);
      const mail = usedCard.getByRole('link', { name: 'support@localhost' });
      await expectVisible(mail);
      expect(await mail.getAttribute('href')).toMatch(/^mailto:support@localhost\?subject=Reembolso%20%E2%80%94%20compra%20[0-9a-f-]{36}$/);
      expect(await wcagViolations(page)).toEqual([]);

      const fresh = card(untouched);
      await fresh.getByRole('button', { name: 'Pedir reembolso' }).click();
      await expectVisible(fresh.getByTestId('wallet-status').getByText('Reembolsado — cancelado'));
      await expectVisible(fresh.getByText(/^Reembolsado em /));
      await expect(fresh.getByTestId('wallet-usage').count()).resolves.toBe(0);
      expect(await wcagViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);

  it.each([
    ['en', 'en', 'Pay with Pix', 'Pix copy and paste code'],
    ['ur', 'ur', 'Pix سے ادائیگی کریں', 'Pix کاپی پیسٹ کوڈ'],
  ])('passes axe-core on the Pix checkout in %s', async (locale, language, heading, codeLabel) => {
    const { context, page } = await phoneContext(locale, language);
    try {
      await page.goto('/checkout?plan=1GB&country=BR&method=pix');
      await expectVisible(page.getByRole('heading', { name: heading }));
      await expectVisible(page.getByTestId('pix-qr'));
      await expectVisible(page.getByLabel(codeLabel));
      expect(await wcagViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);
});
