import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { redeemablePlan, SIGNUP_BONUS_POINTS } from '@esim/contracts';
import { waitFor } from '@esim/testing';
import { credit, newEsim, PASSING_CAPTCHA, redeem } from '../redemption/redemption-support';
import { wcagViolations } from '../support/axe';
import { signUp, SignedUpUser, uniqueEmail } from '../support/accounts';
import { expectVisible, launchBrowser, PHONE, signInThroughForm } from '../support/browser';
import type { HttpClient } from '../support/http-client';
import { startSystem, System } from '../support/system';

const BOSS = uniqueEmail('risk-boss');
const DESKTOP = { viewport: { width: 1280, height: 900 } };
type User = SignedUpUser & { client: HttpClient };

/**
 * The risk rules in the real web app (docs/earning.md, "Risk rules"): a person whose redemptions an
 * admin paused reads why on the dashboard and sends an appeal; a person linked to another account
 * by a device reads that each redemption is checked; the admin's review screen lists the redemption
 * waiting and the appeal, and decides (reject with a reason, lift, not the same person), each in the
 * audit trail; the person then reads the answer. axe-core finds no WCAG A/AA violation on these
 * screens, in English and in Urdu (right to left). Needs `npm run build -w @esim/frontend` first.
 */
describe('web app: paused and reviewed redemptions', () => {
  let sys: System;
  let browser: Browser;
  let boss: User;
  let pia: User;
  let rui: User;
  let ron: User;
  let reviewId: string;
  const device = randomUUID();

  async function signedIn(user: SignedUpUser, locale: string, viewport: object): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ ...viewport, baseURL: sys.url, locale, bypassCSP: true, serviceWorkers: 'block' });
    const page = await context.newPage();
    await signInThroughForm(page, user);
    return { context, page };
  }
  const standing = async (u: User) => (await u.client.get('/api/redemption-standing')).json() as { state: string };

  beforeAll(async () => {
    sys = await startSystem({ serveSpa: true, env: { ADMIN_EMAILS: BOSS, CREDIT_HOLD_SECONDS: '0' } });
    const withClient = async (o: Parameters<typeof signUp>[2]): Promise<User> => {
      const client = sys.client();
      return { ...(await signUp(client, sys.mail, o)), client };
    };
    [boss, pia, rui, ron] = await Promise.all([
      withClient({ email: BOSS, name: 'Boss' }),
      withClient({ name: 'Pia Paused' }),
      withClient({ name: 'Rui Linked', deviceId: device }),
      withClient({ name: 'Ron Linked', deviceId: device }),
    ]);
    expect((await boss.client.post(`/api/admin/accounts/${pia.id}/redemption-control`, { action: 'pause', reason: 'Many offers reversed this week.' })).status).toBe(200);
    await waitFor(async () => (await standing(rui)).state === 'review', { what: "Rui's link" });
    await waitFor(async () => (await rui.client.get('/api/user')).json().points === SIGNUP_BONUS_POINTS, { what: "Rui's bonus" });
    await credit(sys, rui.id, redeemablePlan('1GB').pointsCost);
    expect((await rui.client.post('/api/verify-captcha', { token: PASSING_CAPTCHA })).status).toBe(200);
    const held = await redeem(rui.client, newEsim());
    expect(held.json().status).toBe('pending_review');
    reviewId = held.json().redemptionId;
    browser = await launchBrowser();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await sys?.stop();
  });

  it('tells a person on a phone why their redemptions are paused and takes their appeal (en)', async () => {
    const { page, context } = await signedIn(pia, 'en', PHONE);
    await page.goto('/dashboard?lng=en');
    const card = page.getByTestId('redemption-standing');
    await expectVisible(card.getByRole('heading', { name: 'Redemptions paused' }));
    await expectVisible(card.getByText('A person on our team paused them after looking at your account.'));
    expect(await wcagViolations(page)).toEqual([]);

    await card.getByLabel('Your message').fill('Too short');
    await card.getByRole('button', { name: 'Send appeal' }).click();
    await expectVisible(card.getByText('Please tell us a little more (at least 10 characters).'));
    await card.getByLabel('Your message').fill('I did every one of those offers myself, on my own phone.');
    await card.getByRole('button', { name: 'Send appeal' }).click();
    await expectVisible(card.getByTestId('appeal-waiting'));
    expect(await wcagViolations(page)).toEqual([]);

    // The redeem page says the same before anyone fills the form in.
    await page.goto('/iccid?lng=en');
    await expectVisible(page.getByTestId('redemption-standing').getByRole('heading', { name: 'Redemptions paused' }));
    await context.close();
  });

  it('says the same in Urdu, right to left, for a redemption under review; the admin screens too (ur)', async () => {
    const user = await signedIn(rui, 'ur', PHONE);
    await user.page.goto('/dashboard?lng=ur');
    await expect(user.page.locator('html').getAttribute('dir')).resolves.toBe('rtl');
    const card = user.page.getByTestId('redemption-standing');
    await expectVisible(card.getByRole('heading', { name: 'ہر ریڈیمپشن ہماری ٹیم جانچتی ہے' }));
    await expectVisible(card.getByText('آپ والے آلے پر ایک اور اکاؤنٹ استعمال ہوا۔ ہماری شرائط میں ہر فرد کا ایک اکاؤنٹ ہے۔'));
    expect(await wcagViolations(user.page)).toEqual([]);
    await user.context.close();

    const admin = await signedIn(boss, 'ur', DESKTOP);
    await admin.page.goto('/admin?lng=ur');
    await expectVisible(admin.page.getByRole('heading', { name: 'ریڈیمپشن کی جانچ اور اپیلیں' }));
    await expectVisible(admin.page.getByTestId('redemption-review').filter({ hasText: 'Rui Linked' }));
    await expectVisible(admin.page.getByTestId('linked-group').filter({ hasText: 'Ron Linked' }).getByRole('button', { name: 'ایک ہی فرد نہیں' }));
    expect(await wcagViolations(admin.page)).toEqual([]);
    await admin.context.close();
  });

  it('lets an admin reject the redemption, lift the pause and clear the link, each with a reason in the trail; the person reads the answer (en)', async () => {
    const { page, context } = await signedIn(boss, 'en', DESKTOP);
    await page.goto('/admin?lng=en');
    const review = page.getByTestId('redemption-review').filter({ hasText: 'Rui Linked' });
    await expectVisible(review.getByText('Linked by a device'));
    expect(await wcagViolations(page)).toEqual([]);
    // No reason: the form says so and decides nothing.
    await review.getByRole('button', { name: 'Reject' }).click();
    await expectVisible(review.getByText('Please give a reason.'));
    await review.getByLabel('Reason the person will read').fill('One account per person: please use your first one.');
    await review.getByRole('button', { name: 'Reject' }).click();
    await waitFor(async () => (await page.getByTestId('redemption-review').filter({ hasText: 'Rui Linked' }).count()) === 0, { what: 'the review leaves the queue' });
    expect((await rui.client.get(`/api/redemptions/${reviewId}`)).json()).toMatchObject({ status: 'rejected', message: 'One account per person: please use your first one.' });

    const appeal = page.getByTestId('redemption-appeal').filter({ hasText: 'Pia Paused' });
    await expectVisible(appeal.getByText('I did every one of those offers myself, on my own phone.'));
    await appeal.getByLabel('Reason the person will read').fill('Checked with the wall: your offers were genuine.');
    await appeal.getByRole('button', { name: 'Lift' }).click();
    await waitFor(async () => (await page.getByTestId('redemption-appeal').count()) === 0, { what: 'the appeal answered' });

    const group = page.getByTestId('linked-group').filter({ hasText: 'Ron Linked' });
    await group.getByLabel('Reason the person will read').fill('Brothers sharing a phone, checked by mail.');
    await group.getByRole('button', { name: 'Not the same person' }).click();
    await waitFor(async () => (await standing(rui)).state === 'open' && (await standing(ron)).state === 'open', { what: 'the link cleared' });
    await waitFor(async () => (await page.getByTestId('linked-group').filter({ hasText: 'Ron Linked' }).count()) === 0, { what: 'the group leaves the list' });

    const trail = await waitFor(
      async () => {
        const { entries } = (await boss.client.get('/api/admin/audit?limit=50')).json() as { entries: Array<{ action: string; outcome: string | null; details: Record<string, unknown> }> };
        const mine = entries.filter((e) => ['redemption_review_reject', 'redemptions_lift', 'linked_accounts_not_same_person'].includes(e.action) && e.outcome);
        return mine.length === 3 ? mine : null;
      },
      { what: 'the three decisions in the trail' },
    );
    expect(trail.every((e) => e.outcome === 'succeeded' && typeof e.details.reason === 'string')).toBe(true);
    await expectVisible(page.locator('[data-testid="audit-entry"][data-action="linked_accounts_not_same_person"]').first().getByText('Linked accounts: not the same person'));
    await context.close();

    const user = await signedIn(pia, 'en', PHONE);
    await user.page.goto('/dashboard?lng=en');
    const card = user.page.getByTestId('redemption-standing');
    await expectVisible(card.getByRole('heading', { name: 'Your redemptions are open again' }));
    await expectVisible(card.getByTestId('appeal-answer').getByText(/Checked with the wall: your offers were genuine\./));
    expect(await wcagViolations(user.page)).toEqual([]);
    await user.context.close();
  });
  it('redeems through /iccid for an account under review, shows it waiting for approval (en, ur); an admin approves and the eSIM is delivered', async () => {
    const shared = randomUUID();
    const [vic] = await Promise.all([
      (async () => { const client = sys.client(); return { ...(await signUp(client, sys.mail, { name: 'Vic Review', deviceId: shared })), client }; })(),
      (async () => { const client = sys.client(); return { ...(await signUp(client, sys.mail, { name: 'Val Review', deviceId: shared })), client }; })(),
    ]);
    await waitFor(async () => (await standing(vic)).state === 'review', { what: "Vic's link" });
    await waitFor(async () => (await vic.client.get('/api/user')).json().points === SIGNUP_BONUS_POINTS, { what: "Vic's bonus" });
    await credit(sys, vic.id, 2 * redeemablePlan('1GB').pointsCost);

    const redeemThroughPage = async (locale: string, names: { dialog: string; robot: string; go: string; waiting: string }) => {
      const user = await signedIn(vic, locale, PHONE);
      await user.page.goto(`/iccid?lng=${locale}`);
      await user.page.getByTestId('redeem-submit').click();
      const dialog = user.page.getByRole('dialog', { name: names.dialog });
      await expectVisible(dialog);
      await dialog.getByRole('checkbox', { name: names.robot }).check();
      await dialog.getByRole('button', { name: names.go }).click();
      await dialog.waitFor({ state: 'hidden' });
      // The page stays and says so, its heading focused for a screen reader.
      const heading = user.page.getByTestId('redeem-review').getByRole('heading', { name: names.waiting });
      await expectVisible(heading);
      await waitFor(() => heading.evaluate((el) => el === (el.ownerDocument as { activeElement: unknown }).activeElement), { what: 'the notice focused' });
      await expect(user.page.getByTestId('redeem-submit').count()).resolves.toBe(0);
      expect(await wcagViolations(user.page)).toEqual([]);
      return user;
    };
    const en = await redeemThroughPage('en', { dialog: 'Security check', robot: "I'm not a robot", go: 'Continue', waiting: 'Waiting for approval' });
    const ur = await redeemThroughPage('ur', { dialog: 'سیکیورٹی جانچ', robot: 'میں روبوٹ نہیں ہوں', go: 'جاری رکھیں', waiting: 'منظوری کا انتظار' });
    await expect(ur.page.locator('html').getAttribute('dir')).resolves.toBe('rtl');
    await ur.context.close();
    const held = await waitFor(
      async () => {
        const { reviews } = (await boss.client.get('/api/admin/redemption-reviews')).json() as { reviews: Array<{ redemptionId: string; userId: string }> };
        const mine = reviews.filter((r) => r.userId === vic.id);
        return mine.length === 2 ? mine : null;
      },
      { what: "Vic's two redemptions waiting" },
    );

    const admin = await signedIn(boss, 'en', DESKTOP);
    await admin.page.goto('/admin?lng=en');
    for (let i = 0; i < held.length; i++) {
      const review = admin.page.getByTestId('redemption-review').filter({ hasText: 'Vic Review' }).first();
      await review.getByLabel('Reason the person will read').fill('Checked: a shared family phone.');
      await review.getByRole('button', { name: 'Approve' }).click();
      await waitFor(async () => (await admin.page.getByTestId('redemption-review').filter({ hasText: 'Vic Review' }).count()) === held.length - i - 1, {
        what: 'the approved review leaves the queue',
      });
    }
    await admin.context.close();

    // The fact first: both approved redemptions delivered their eSIM; then the person's wallet, on reload.
    await waitFor(async () => (await vic.client.get('/api/esim-lines')).json().lines?.length === 2, { what: "Vic's two eSIMs delivered", timeoutMs: 60_000 });
    await en.page.goto('/esims?lng=en');
    await waitFor(async () => (await en.page.getByTestId('wallet-entry').count()) === 2, { what: 'both eSIMs in the wallet' });
    expect(await wcagViolations(en.page)).toEqual([]);
    await en.context.close();
  }, 180_000);
});
