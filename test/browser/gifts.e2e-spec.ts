import type { Browser, BrowserContext, Page } from 'playwright-core';
import { waitFor } from '@esim/testing';
import { credit, ledgerBalance } from '../redemption/redemption-support';
import { signUp, SignedUpUser, uniqueEmail } from '../support/accounts';
import { wcagViolations } from '../support/axe';
import { expectVisible, launchBrowser, PHONE } from '../support/browser';
import { HttpClient } from '../support/http-client';
import { startSystem, System } from '../support/system';

const BOSS = uniqueEmail('boss');
const DESKTOP = { viewport: { width: 1280, height: 900 } };

/**
 * Admin gifts as the person meets them (docs/redemption-screens.md), on a phone-sized Chromium
 * against every service: the gift email's link opens the dashboard's gift card whatever the
 * balance; /iccid claims the gift by default when points could pay too, and points only when
 * chosen; /history lists the gift as pending, then delivered; the admin's stat card and user row
 * count gifts granted, claimed and waiting. English, Portuguese and Urdu (right to left), with
 * axe-core's WCAG A/AA check of every screen opened. Needs `npm run build -w @esim/frontend` first.
 */
describe('web app: data gifts', () => {
  let sys: System;
  let browser: Browser;
  let boss: SignedUpUser & { client: HttpClient };
  let gina: SignedUpUser & { client: HttpClient };
  let paulo: SignedUpUser & { client: HttpClient };
  const contexts: BrowserContext[] = [];

  /** A context signed in with the client's session, its interface in `locale`; CSP bypassed for axe-core. */
  async function signedIn(who: { client: HttpClient }, locale: string, size: object = PHONE): Promise<Page> {
    const context = await browser.newContext({ ...size, baseURL: sys.url, locale, bypassCSP: true, serviceWorkers: 'block' });
    contexts.push(context);
    await context.addInitScript((lng) => (globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }).localStorage.setItem('locale', lng), locale);
    await context.addCookies([...who.client.cookies].map(([name, value]) => ({ name, value, url: sys.url })));
    return context.newPage();
  }

  async function passCaptcha(page: Page): Promise<void> {
    const dialog = page.getByRole('dialog', { name: 'Security check' });
    await expectVisible(dialog);
    await dialog.getByRole('checkbox', { name: "I'm not a robot" }).check();
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await dialog.waitFor({ state: 'hidden' });
  }

  const grant = async (userId: string, planTier: string) => {
    const res = await boss.client.post(`/api/admin/gift-data/${userId}`, { planTier, iccid: 'admin-gifted' });
    expect(res.status).toBe(201);
    return res.json().giftId as string;
  };

  beforeAll(async () => {
    sys = await startSystem({ serveSpa: true, env: { ADMIN_EMAILS: BOSS, ESIM_PROVISIONING_POLL_MS: '100', ESIM_PROVISIONING_RETRY_MS: '200' }, gatewayEnv: { REDEEM_WAIT_MS: '8000' } });
    const withClient = async (o: Parameters<typeof signUp>[2]) => {
      const client = sys.client();
      return { ...(await signUp(client, sys.mail, o)), client };
    };
    [boss, gina, paulo] = await Promise.all([withClient({ email: BOSS, name: 'Boss' }), withClient({ name: 'Gina Gift', locale: 'pt' }), withClient({ name: 'Paulo Points' })]);
    // Paulo has 4,000 points: enough for the 3 GB plan he is also gifted.
    await waitFor(async () => (await ledgerBalance(sys, paulo.id)) > 0, { what: "Paulo's bonus" });
    await credit(sys, paulo.id, 4000 - (await ledgerBalance(sys, paulo.id)));
    browser = await launchBrowser();
  }, 180_000);
  afterAll(async () => {
    await Promise.allSettled(contexts.map((c) => c.close()));
    await browser?.close();
    await sys?.stop();
  });

  it('takes a Portuguese user with 100 points from the gift email to the gift card and on to /iccid, the gift chosen', async () => {
    const mails = sys.mail.messages.length;
    const giftId = await grant(gina.id, '1GB');
    const mail = await sys.mail.waitForMail(gina.email, { after: mails });
    const link = mail.text.match(/https?:\/\/\S+\/dashboard#gifts/)?.[0];
    expect(link).toBeDefined();

    const page = await signedIn(gina, 'pt');
    await page.goto(link!);
    const card = page.getByTestId('gift-card');
    await expectVisible(card.getByRole('heading', { name: 'Um presente de dados para você' }));
    await expectVisible(card.getByText('Você ganhou um presente de 1 GB'));
    // Below the points threshold: the card is the way to the gift.
    await expect(page.getByRole('button', { name: 'Resgatar recompensa de dados' }).isDisabled()).resolves.toBe(true);
    expect(await wcagViolations(page)).toEqual([]);

    await card.getByRole('link', { name: 'Resgatar 1 GB' }).click();
    await page.waitForURL((url) => url.pathname === '/iccid' && url.searchParams.get('gift') === giftId);
    await expectVisible(page.getByTestId('redeem-banner').getByText('Seu presente de dados está pronto'));
    await expect(page.getByTestId('plan-1GB').getByRole('radio').isChecked()).resolves.toBe(true);
    // Points cannot pay: no choice to make, the gift pays.
    await expect(page.getByTestId('pay-with').count()).resolves.toBe(0);
    await expectVisible(page.getByTestId('redeem-submit').getByText('Resgatar dados grátis'));
    expect(await wcagViolations(page)).toEqual([]);
  });

  it('shows the same card and a pending gift in /history in Urdu (right to left)', async () => {
    const page = await signedIn(gina, 'ur');
    await page.goto('/dashboard');
    await expectVisible(page.getByTestId('gift-card').getByText('آپ کے لیے ڈیٹا کا تحفہ'));
    await expect(page.locator('html').getAttribute('dir')).resolves.toBe('rtl');
    expect(await wcagViolations(page)).toEqual([]);

    await page.goto('/history');
    const item = page.getByTestId('gift-history-item');
    await expectVisible(item.getByText('آپ کے حاصل کرنے کا انتظار'));
    await expect(item.getAttribute('data-state')).resolves.toBe('pending');
    expect(await wcagViolations(page)).toEqual([]);
  });

  it('claims a 3 GB gift instead of spending 3,000 of 4,000 points, unless points are chosen', async () => {
    const giftId = await grant(paulo.id, '3GB');
    const page = await signedIn(paulo, 'en');
    await page.goto('/dashboard');
    const card = page.getByTestId('gift-card');
    await expectVisible(card.getByText('You have a 3 GB gift'));
    expect(await wcagViolations(page)).toEqual([]);

    await card.getByRole('link', { name: 'Claim 3 GB' }).click();
    await page.waitForURL((url) => url.pathname === '/iccid' && url.searchParams.get('gift') === giftId);
    await expect(page.getByTestId('plan-3GB').getByRole('radio').isChecked()).resolves.toBe(true);
    const payWith = page.getByRole('group', { name: 'Pay with' });
    await expectVisible(payWith);
    await expect(payWith.getByRole('radio', { name: /My 3 GB gift/ }).isChecked()).resolves.toBe(true);
    const submit = page.getByTestId('redeem-submit');
    await expectVisible(submit.getByText('Claim your free data'));
    await expectVisible(page.getByText('Your data gift covers this plan, so no points are spent.'));
    expect(await wcagViolations(page)).toEqual([]);

    // Points are a choice, not the default; choosing them changes what the button does.
    await payWith.getByRole('radio', { name: /My points/ }).check();
    await expectVisible(submit.getByText('Purchase - 3,000 Points'));
    await payWith.getByRole('radio', { name: /My 3 GB gift/ }).check();
    await expectVisible(submit.getByText('Claim your free data'));

    await submit.click();
    await passCaptcha(page);
    await page.waitForURL(/\/esim-activation/, { timeout: 30_000 });
    expect(await ledgerBalance(sys, paulo.id)).toBe(4000);
    expect((await paulo.client.get('/api/gifts')).json().pendingGifts).toEqual([]);

    await page.goto('/history');
    const item = page.getByTestId('gift-history-item');
    await expectVisible(item.getByText('3 GB gift'));
    await expectVisible(item.getByText(/^Claimed: 3 GB delivered on /));
    expect(await wcagViolations(page)).toEqual([]);
    await page.goto('/dashboard');
    await expectVisible(page.getByTestId('data-gifted').getByText('3 GB'));
    await expect(page.getByTestId('gift-card').count()).resolves.toBe(0);
  }, 90_000);

  it("counts gifts granted, claimed and waiting in the admin's stat card and user rows", async () => {
    const page = await signedIn(boss, 'en', DESKTOP);
    await page.goto('/admin');
    await expectVisible(page.getByTestId('totalDataGifted-note').getByText('4 GB granted · 3 GB claimed · 1 GB waiting'));
    await page.getByRole('searchbox', { name: 'Search users' }).fill('Gina Gift');
    const rows = page.getByTestId('admin-user-row');
    await waitFor(async () => (await rows.count()) === 1 && (await rows.first().getAttribute('data-user-id')) === gina.id, { what: 'the search result' });
    await expectVisible(rows.first().getByTestId('admin-user-gifts').getByText('1 GB granted · 0 GB claimed · 1 GB waiting'));

    // A new gift shows in the row and the card at once, long before any claim.
    await rows.first().getByRole('button', { name: 'Gift data to Gina Gift' }).click();
    const dialog = page.getByRole('dialog', { name: 'Gift data to a user' });
    await dialog.getByRole('combobox', { name: 'Plan' }).selectOption('5GB');
    await dialog.getByRole('button', { name: 'Send gift' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expectVisible(rows.first().getByTestId('admin-user-gifts').getByText('6 GB granted · 0 GB claimed · 6 GB waiting'));
    await expectVisible(page.getByTestId('totalDataGifted-note').getByText('9 GB granted · 3 GB claimed · 6 GB waiting'));
    expect(await wcagViolations(page)).toEqual([]);
  });
});
