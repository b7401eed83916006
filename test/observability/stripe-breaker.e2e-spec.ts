import type { Browser } from 'playwright-core';
import { STRIPE_SANDBOX_SECRET_KEY } from '@esim/contracts';
import { waitFor } from '@esim/testing';
import pt from '../../frontend/src/i18n/locales/pt.json';
import { payWithVisa } from '../purchases/purchases-support';
import { signUp } from '../support/accounts';
import { wcagViolations } from '../support/axe';
import { expectVisible, launchBrowser, PHONE } from '../support/browser';
import type { HttpClient } from '../support/http-client';
import { startSystem, System } from '../support/system';

const FAILURES = 3;
const CREATE = 'POST /v1/payment_intents';
/** Long enough for a browser to load the checkout page after the breaker opens, before its probe. */
const HALF_OPEN_MS = 8000;

/**
 * Stripe's circuit breaker, seen by a buyer through the gateway: while the Stripe emulator fails,
 * payment creation fails; after FAILURES in a row the breaker opens and payments answers at once,
 * without calling Stripe, with the declared 503 `payment_provider_paused` (the SPA's "payments are
 * paused, nothing was charged"); once Stripe is back, one probe goes through and buying works.
 * The web app (phone-sized Chromium, in Portuguese) shows the buyer that text. Needs
 * `npm run build -w @esim/frontend`.
 */
describe('card payments while Stripe fails (circuit breaker)', () => {
  let sys: System;
  let buyer: HttpClient;
  let browser: Browser | undefined;

  const control = async (body?: Record<string, unknown>) => {
    const res = await fetch(`${sys.sandboxes.url}/sandbox/stripe/_control`, {
      method: body ? 'POST' : 'GET',
      headers: { authorization: `Bearer ${STRIPE_SANDBOX_SECRET_KEY}`, 'content-type': 'application/json' },
      body: body ? JSON.stringify(body) : undefined,
    });
    expect(res.status).toBe(200);
    return (await res.json()) as { mode: string; requests: Record<string, number> };
  };
  const created = async () => (await control()).requests[CREATE] ?? 0;
  const buy = async (client: HttpClient = buyer) => {
    const res = await client.post('/api/create-esim-payment', { planType: '1GB', country: 'US' });
    return { status: res.status, reason: res.status === 200 ? undefined : (res.json().reason as string), body: res.json() };
  };

  beforeAll(async () => {
    sys = await startSystem({
      serveSpa: true,
      // No SDK retries, so that each purchase is one call to Stripe.
      env: { STRIPE_BREAKER_FAILURES: String(FAILURES), STRIPE_BREAKER_HALF_OPEN_MS: String(HALF_OPEN_MS), STRIPE_MAX_NETWORK_RETRIES: '0' },
    });
    buyer = sys.client();
    await signUp(buyer, sys.mail, { name: 'Breaker' });
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await sys?.stop();
  });

  it('answers 503 payment_provider_paused without calling Stripe while its breaker is open, and buys again once Stripe is back', async () => {
    await control({ reset: true, mode: 'fail' });

    // Stripe fails: each attempt reaches it and is answered as unreachable.
    for (let i = 0; i < FAILURES; i++) expect(await buy()).toMatchObject({ status: 502, reason: 'payment_provider_unavailable' });
    expect(await created()).toBe(FAILURES);

    // Open: refused at once, declared, and Stripe sees nothing.
    const paused = await buy();
    expect(paused).toMatchObject({ status: 503, reason: 'payment_provider_paused', body: { code: 'unavailable' } });
    expect(await created()).toBe(FAILURES);

    // Stripe is back: the first purchase after the half-open delay is the probe; it goes through and closes the breaker.
    await control({ mode: 'ok' });
    const bought = await waitFor(
      async () => {
        const answer = await buy();
        if (answer.status === 503 && answer.reason === 'payment_provider_paused') return undefined;
        return answer;
      },
      { timeoutMs: HALF_OPEN_MS + 20_000, intervalMs: 1000, what: 'the breaker to let a purchase through' },
    );
    expect(bought.status).toBe(200);
    expect(await created()).toBe(FAILURES + 1);
    expect((await payWithVisa(sys, bought.body)).status).toBe(200);
    expect(await buy()).toMatchObject({ status: 200 });
    expect(await created()).toBe(FAILURES + 2);
  });

  it('tells the buyer in the web app, in their language, that payments are paused and nothing was charged', async () => {
    const bia = sys.client();
    await signUp(bia, sys.mail, { name: 'Bia' });
    browser = await launchBrowser();
    const context = await browser.newContext({ ...PHONE, baseURL: sys.url, locale: 'pt-BR', bypassCSP: true, serviceWorkers: 'block' });
    await context.addInitScript(() => (globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }).localStorage.setItem('locale', 'pt'));
    await context.addCookies([...bia.cookies].map(([name, value]) => ({ name, value, url: sys.url })));
    const page = await context.newPage();

    // Stripe fails until the breaker opens; the page is opened while it is open (within HALF_OPEN_MS).
    await control({ reset: true, mode: 'fail' });
    for (let i = 0; i < FAILURES; i++) expect(await buy(bia)).toMatchObject({ status: 502 });
    await page.goto('/checkout?plan=1GB&country=US');
    const toast = page.getByTestId('toast').filter({ hasText: pt.providerPause.payments });
    await expectVisible(toast);
    expect(await created()).toBe(FAILURES);
    expect(await wcagViolations(page)).toEqual([]);
    await context.close();
  });
});
