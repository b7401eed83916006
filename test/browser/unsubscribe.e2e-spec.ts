import type { Browser, Page } from 'playwright-core';
import { waitFor } from '@esim/testing';
import { MarketingDigest } from '../../services/notifications/src/marketing/marketing-digest.service';
import { signUp, SignedUpUser } from '../support/accounts';
import { wcagViolations } from '../support/axe';
import { expectVisible, launchBrowser, PHONE } from '../support/browser';
import { HttpClient } from '../support/http-client';
import { startSystem, System } from '../support/system';

const DIGEST = /^This week: earn free data with new offers$/;

/**
 * The promotional digest's unsubscribe link (docs/accounts.md, "What each switch governs"),
 * opened on a phone by someone not signed in, in English and Urdu (right to left): opening it
 * changes nothing, the button turns promotional email off; axe-core finds no WCAG A/AA
 * violation. Needs `npm run build -w @esim/frontend` first.
 */
describe('web app: unsubscribing from promotional email without signing in', () => {
  let sys: System;
  let browser: Browser;

  async function subscribed(name: string): Promise<{ client: HttpClient; user: SignedUpUser }> {
    const client = sys.client();
    const user = await signUp(client, sys.mail, { name });
    expect((await client.patch('/api/user/settings', { locale: 'en', marketingEmails: true })).status).toBe(200);
    return { client, user };
  }

  /** The path of the unsubscribe link in the person's digest. */
  async function linkOf(user: SignedUpUser): Promise<string> {
    const mail = await sys.mail.waitForMail(user.email, { subject: DIGEST, timeoutMs: 30_000 });
    const url = new URL(/(http:\/\/\S+\/unsubscribe\?token=\S+)/.exec(mail.text)![1]);
    return `${url.pathname}${url.search}`;
  }

  const marketingOf = async (client: HttpClient) => (await client.get('/api/user')).json().settings.marketingEmails as boolean;

  async function page(locale: string): Promise<Page> {
    const context = await browser.newContext({ ...PHONE, baseURL: sys.url, locale, bypassCSP: true, serviceWorkers: 'block' });
    return context.newPage();
  }

  beforeAll(async () => {
    sys = await startSystem({ serveSpa: true, services: ['identity', 'rewards', 'esim', 'notifications'] });
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await sys?.stop();
  });

  it('asks first, then turns promotional email off (en)', async () => {
    const ana = await subscribed('Ana Mail');
    await sys.apps.notifications!.get(MarketingDigest).run(new Date(Date.UTC(2030, 0, 7)));
    const p = await page('en');
    await p.goto(`${await linkOf(ana.user)}&lng=en`);
    const stop = p.getByRole('button', { name: 'Stop promotional emails' });
    await expectVisible(stop);
    expect(await wcagViolations(p)).toEqual([]);
    // Opening the link changed nothing.
    expect(await marketingOf(ana.client)).toBe(true);
    await stop.click();
    await expectVisible(p.getByText('Done: you will get no more promotional emails.', { exact: false }));
    await waitFor(async () => (await marketingOf(ana.client)) === false, { what: 'the switch off' });
    expect(await wcagViolations(p)).toEqual([]);
  });

  it('works with the keyboard in Urdu, right to left, and says when a link is not valid', async () => {
    const bia = await subscribed('Bia Mail');
    await sys.apps.notifications!.get(MarketingDigest).run(new Date(Date.UTC(2030, 0, 14)));
    const p = await page('ur');
    await p.goto(`${await linkOf(bia.user)}&lng=ur`);
    await expect(p.locator('html').getAttribute('dir')).resolves.toBe('rtl');
    const stop = p.getByRole('button', { name: 'تشہیری ای میلز بند کریں' });
    await expectVisible(stop);
    await stop.focus();
    await p.keyboard.press('Enter');
    await expectVisible(p.getByText('ہو گیا', { exact: false }));
    await waitFor(async () => (await marketingOf(bia.client)) === false, { what: 'the switch off' });
    expect(await wcagViolations(p)).toEqual([]);

    await p.goto(`/unsubscribe?token=${bia.user.id}.forged&lng=ur`);
    await p.getByRole('button', { name: 'تشہیری ای میلز بند کریں' }).click();
    await expectVisible(p.getByRole('alert').filter({ hasText: 'یہ ان سبسکرائب لنک درست نہیں' }));
    expect(await wcagViolations(p)).toEqual([]);
  });
});
