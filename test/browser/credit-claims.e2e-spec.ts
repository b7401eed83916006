import type { Browser, BrowserContext, Page } from 'playwright-core';
import { SIGNUP_BONUS_POINTS } from '@esim/contracts';
import { waitFor } from '@esim/testing';
import { wcagViolations } from '../support/axe';
import { signUp, SignedUpUser, uniqueEmail } from '../support/accounts';
import { expectVisible, launchBrowser, PHONE, signInThroughForm } from '../support/browser';
import type { HttpClient } from '../support/http-client';
import { startSystem, System } from '../support/system';

const BOSS = uniqueEmail('boss');
const DEPUTY = uniqueEmail('deputy');
const DESKTOP = { viewport: { width: 1280, height: 900 } };

/**
 * Missing-credit claims in the real web app (docs/earning.md, "Missing credit"): the form from
 * /task on a phone, filled in with the wall, the user's id there and today; the claim kept and
 * listed; the admin's review in /admin crediting it through the ledger, which the user then sees
 * in /history; two admins crediting one claim at once over HTTP credit it once. axe-core finds no
 * WCAG A/AA violation on the form and the review, in English and in Urdu (right to left). Needs
 * `npm run build -w @esim/frontend` first.
 */
describe('web app: missing-credit claims', () => {
  let sys: System;
  let browser: Browser;
  let ana: SignedUpUser & { client: HttpClient };
  let boss: SignedUpUser & { client: HttpClient };
  let deputy: SignedUpUser & { client: HttpClient };

  const points = async (user: { client: HttpClient }) => (await user.client.get('/api/user')).json().points as number;

  async function signedIn(user: SignedUpUser, locale: string, device: object): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ ...device, baseURL: sys.url, locale, bypassCSP: true, serviceWorkers: 'block' });
    const page = await context.newPage();
    await signInThroughForm(page, user);
    return { context, page };
  }

  beforeAll(async () => {
    sys = await startSystem({ serveSpa: true, env: { ADMIN_EMAILS: `${BOSS},${DEPUTY}` } });
    const withClient = async (o: Parameters<typeof signUp>[2]) => {
      const client = sys.client();
      return { ...(await signUp(client, sys.mail, o)), client };
    };
    [ana, boss, deputy] = await Promise.all([withClient({ name: 'Ana Claim' }), withClient({ email: BOSS, name: 'Boss' }), withClient({ email: DEPUTY, name: 'Deputy' })]);
    await waitFor(async () => (await points(ana)) === SIGNUP_BONUS_POINTS, { what: "Ana's bonus" });
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await sys?.stop();
  });

  it('files a claim from /task on a phone, filled in with the wall, the id there and today, and lists it (en)', async () => {
    const { page, context } = await signedIn(ana, 'en', PHONE);
    await page.goto('/task?lng=en');
    await page.getByRole('link', { name: 'I completed an offer and got nothing' }).click();
    await page.waitForURL(/\/claims/);
    const form = page.getByTestId('claim-form');
    await expectVisible(form);
    const walls = (await (await page.request.get('/api/offerwalls')).json()) as { walls: Array<{ id: string; name: string; uid: string }> };
    const first = walls.walls[0];
    await expect(form.getByLabel('Offer wall').inputValue()).resolves.toBe(first.id);
    await expect(form.getByLabel(`Your ID at ${first.name}`).inputValue()).resolves.toBe(first.uid);
    const today = await page.evaluate(() => {
      const d = new Date();
      return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
    });
    await expect(form.getByLabel('When did you complete it?').inputValue()).resolves.toBe(today);
    await expectVisible(page.getByTestId('claim-guide').getByText(new RegExp(`^${first.name} may take up to \\d+ hours`)));
    await expectVisible(page.getByRole('link', { name: `Contact ${first.name} support` }));

    // Nothing named: the form says so and sends nothing.
    await form.getByRole('button', { name: 'Send claim' }).click();
    await expectVisible(form.getByText("Please give the offer's name."));
    expect((await ana.client.get('/api/credit-claims')).json().claims).toEqual([]);

    await form.getByLabel('Offer name').fill('Phone survey');
    await form.getByRole('button', { name: 'Send claim' }).click();
    const item = page.getByTestId('claim-item').filter({ hasText: 'Phone survey' });
    await expectVisible(item.getByText('Waiting for review'));
    expect(await wcagViolations(page)).toEqual([]);

    await page.goto('/history?lng=en');
    await expectVisible(page.getByRole('link', { name: 'I completed an offer and got nothing' }));
    await context.close();
  });

  it('lets an admin credit the claim in /admin through the ledger; the user sees it credited and in /history (en)', async () => {
    const { page, context } = await signedIn(boss, 'en', DESKTOP);
    await page.goto('/admin?lng=en');
    const review = page.getByTestId('claim-review').filter({ hasText: 'Phone survey' });
    await expectVisible(review.getByText('Ana Claim', { exact: false }));
    expect(await wcagViolations(page)).toEqual([]);
    await review.getByLabel('Points to credit').fill('150');
    await review.getByRole('button', { name: 'Credit' }).click();
    await expectVisible(page.getByText('Claim credited'));
    await waitFor(async () => (await page.getByTestId('claim-review').filter({ hasText: 'Phone survey' }).count()) === 0, { what: 'the claim leaves the queue' });
    await waitFor(async () => (await points(ana)) === SIGNUP_BONUS_POINTS + 150, { what: 'the claim credit' });
    const audit = (await boss.client.get('/api/admin/audit?limit=20')).json() as { entries: Array<{ action: string; outcome: string | null }> };
    expect(audit.entries.find((e) => e.action === 'credit_claim_credit')).toMatchObject({ outcome: 'succeeded' });
    await context.close();

    const user = await signedIn(ana, 'en', PHONE);
    await user.page.goto('/claims?lng=en');
    await expectVisible(user.page.getByTestId('claim-item').filter({ hasText: 'Phone survey' }).getByText('150 MB added to your balance.'));
    await user.page.goto('/history?lng=en');
    await expectVisible(user.page.getByTestId('statement-entry').filter({ hasText: 'Missing credit added' }).getByText('Offer: Phone survey'));
    await user.context.close();
  });

  it('two admins crediting one claim at once credit it once; the second is told it was already decided', async () => {
    const wall = (await ana.client.get('/api/offerwalls')).json().walls[0].id as string;
    const filed = await ana.client.post('/api/credit-claims', { wall, offerName: 'Racing game level 5', completedOn: '2026-01-02' });
    expect(filed.status).toBe(201);
    const before = await points(ana);
    const id = filed.json().id as string;
    const answers = await Promise.all([boss, deputy].map((a) => a.client.post(`/api/admin/credit-claims/${id}/decision`, { decision: 'credit', points: 90 })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(answers.find((a) => a.status === 409)!.json().reason).toBe('claim_already_decided');
    await waitFor(async () => (await points(ana)) === before + 90, { what: 'the one credit' });
    const statement = (await ana.client.get('/api/points-statement')).json().entries as Array<{ kind: string; offerName?: string }>;
    expect(statement.filter((e) => e.kind === 'claim_credited' && e.offerName === 'Racing game level 5')).toHaveLength(1);
  });

  it('a rejected claim shows the admin’s reason to the user; the form and the review say the same in Urdu, right to left', async () => {
    const wall = (await ana.client.get('/api/offerwalls')).json().walls[0].id as string;
    const { id } = (await ana.client.post('/api/credit-claims', { wall, offerName: 'Quiz night', completedOn: '2026-01-03' })).json();
    await ana.client.post('/api/credit-claims', { wall, offerName: 'Open claim', completedOn: '2026-01-03' });
    expect((await boss.client.post(`/api/admin/credit-claims/${id}/decision`, { decision: 'reject', reason: 'The wall has no record of it.' })).status).toBe(200);

    const user = await signedIn(ana, 'ur', PHONE);
    await user.page.goto('/claims?lng=ur');
    await expect(user.page.locator('html').getAttribute('dir')).resolves.toBe('rtl');
    await expectVisible(user.page.getByTestId('claim-form'));
    await expectVisible(user.page.getByTestId('claim-item').filter({ hasText: 'Quiz night' }).getByText('کریڈٹ نہیں کیا گیا: The wall has no record of it.'));
    expect(await wcagViolations(user.page)).toEqual([]);
    await user.context.close();

    const admin = await signedIn(boss, 'ur', DESKTOP);
    await admin.page.goto('/admin?lng=ur');
    await expectVisible(admin.page.getByTestId('claim-review').filter({ hasText: 'Open claim' }));
    await expectVisible(admin.page.getByRole('heading', { name: 'غائب کریڈٹ کے دعوے' }));
    expect(await wcagViolations(admin.page)).toEqual([]);
    await admin.context.close();
  });
});
