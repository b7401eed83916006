import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { signUp } from '../support/accounts';
import { expectVisible, launchBrowser, PHONE, phonePage } from '../support/browser';
import { wcagViolations } from '../support/axe';
import { startSystem, System } from '../support/system';

const pt = JSON.parse(readFileSync(path.resolve(__dirname, '../../frontend/src/i18n/locales/pt.json'), 'utf8'));
const en = JSON.parse(readFileSync(path.resolve(__dirname, '../../frontend/src/i18n/locales/en.json'), 'utf8'));
const ur = JSON.parse(readFileSync(path.resolve(__dirname, '../../frontend/src/i18n/locales/ur.json'), 'utf8'));

/** The little of the page's DOM these tests touch (the test's own types know only Node). */
type PageDocument = { querySelector(selector: string): Record<string, unknown> | null };

interface Watched {
  context: BrowserContext;
  page: Page;
  /** Console errors and uncaught exceptions (a failed hydration reports one). */
  errors: string[];
  userReads: () => number;
  documents: () => number;
  stylesheets: () => number;
}

/**
 * The pre-rendered pages in a phone-sized Chromium: the app adopts the HTML that is already on
 * screen (the same DOM nodes, no error), the page then works as the app, and a page load reads
 * the session at most once. Needs the built SPA.
 */
describe('delivery: pre-rendered pages hydrate in the browser', () => {
  let sys: System;
  let browser: Browser;

  beforeAll(async () => {
    sys = await startSystem({ serveSpa: true });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await sys?.stop();
  });

  /**
   * A phone page whose stored language is `locale` (before every navigation), or, with `fresh`, a
   * browser that has chosen none yet; `axe` lets axe-core's injected script past the gateway's
   * Content-Security-Policy.
   */
  async function open(locale: string, { axe = false, fresh = false } = {}): Promise<Watched> {
    const { context, page } =
      axe || fresh
        ? await (async () => {
            const ctx = await browser.newContext({ ...PHONE, baseURL: sys.url, locale, serviceWorkers: 'block', bypassCSP: axe });
            if (!fresh)
              await ctx.addInitScript((lng) => (globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }).localStorage.setItem('locale', lng), locale);
            return { context: ctx, page: await ctx.newPage() };
          })()
        : await phonePage(browser, sys.url, locale);
    const errors: string[] = [];
    let userReads = 0;
    let documents = 0;
    let stylesheets = 0;
    page.on('console', (msg) => msg.type() === 'error' && errors.push(msg.text()));
    page.on('pageerror', (err) => errors.push(err.message));
    page.on('request', (req) => {
      if (new URL(req.url()).pathname === '/api/user' && req.method() === 'GET') userReads += 1;
      if (req.resourceType() === 'document') documents += 1;
      if (req.resourceType() === 'stylesheet') stylesheets += 1;
    });
    return { context, page, errors, userReads: () => userReads, documents: () => documents, stylesheets: () => stylesheets };
  }

  /** Holds the app's entry script back until `release()`, so the test sees the page before any script. */
  async function holdScripts(page: Page): Promise<() => void> {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/index-[\w-]+\.js$/, async (route) => {
      await gate;
      await route.continue();
    });
    return release;
  }

  /**
   * Waits until the app has hydrated the whole pre-rendered page and `selector` is in it. The page
   * is hydrated part by part, in several tasks (frontend/src/lib/hydrateLater.tsx); boot.tsx marks
   * #root with data-hydrated once the last part is. Whether the page's nodes were adopted or
   * replaced, the tests check by a mark on a painted node.
   */
  const isHydrated = (selector: string) => (page: Page) =>
    page.waitForFunction((sel) => {
      const doc = (globalThis as unknown as { document: PageDocument }).document;
      return !!doc.querySelector('#root[data-hydrated]') && !!doc.querySelector(sel);
    }, selector);

  /** Counts the Intl number and date formats the page builds (each loads locale data: a long task on a phone). */
  async function countIntlFormats(context: BrowserContext): Promise<void> {
    await context.addInitScript(() => {
      const g = globalThis as unknown as { Intl: Record<string, unknown>; intlFormatsBuilt: number };
      g.intlFormatsBuilt = 0;
      for (const name of ['NumberFormat', 'DateTimeFormat']) {
        g.Intl[name] = new Proxy(g.Intl[name] as object, {
          construct(target, args) {
            g.intlFormatsBuilt += 1;
            return Reflect.construct(target as new (...a: unknown[]) => object, args);
          },
        });
      }
    });
  }
  const intlFormatsBuilt = (page: Page) => page.evaluate(() => (globalThis as unknown as { intlFormatsBuilt: number }).intlFormatsBuilt);

  it('hydrates the landing page onto the HTML already painted, without asking for a session it knows is absent', async () => {
    const w = await open('pt');
    await countIntlFormats(w.context);
    const release = await holdScripts(w.page);
    // The plans' prices arrive after hydration (GET /api/plans) and are formatted then: held back
    // here, so the count below is hydration's alone.
    const heldPlans: Route[] = [];
    await w.page.route('**/api/plans**', (route) => void heldPlans.push(route));
    // Not 'domcontentloaded': that waits for module scripts, which are held back.
    await w.page.goto('/', { waitUntil: 'commit' });
    await w.page.locator('footer').waitFor({ state: 'attached' });
    // Before any script: the heading and the sign-up button are there.
    await expect(w.page.locator('h1').textContent()).resolves.toBe(pt.landing.hero.title);
    await expect(w.page.getByRole('link', { name: pt.landing.hero.signUp }).isVisible()).resolves.toBe(true);
    await w.page.evaluate(() => {
      (globalThis as unknown as { document: PageDocument }).document.querySelector('h1')!.prerenderedNode = true;
    });

    release();
    await isHydrated('h1')(w.page);
    // The app adopted the very node the browser painted instead of replacing it.
    await expect(w.page.evaluate(() => (globalThis as unknown as { document: PageDocument }).document.querySelector('h1')?.prerenderedNode)).resolves.toBe(true);
    // The numbers came formatted with the page ("1.000" in Portuguese): hydrating built no Intl format.
    await expect(w.page.locator('main').textContent()).resolves.toContain('1.000 MB');
    await expect(intlFormatsBuilt(w.page)).resolves.toBe(0);
    await w.page.unroute('**/api/plans**');
    for (const route of heldPlans) await route.continue();

    // Now it is the app: the button navigates without loading a new document.
    await w.page.getByRole('link', { name: pt.landing.hero.signUp }).click();
    await w.page.waitForURL(/\/auth\?signup=true$/);
    await expectVisible(w.page.getByRole('heading', { name: pt.auth.signup.title }));
    expect(w.documents()).toBe(1);
    expect(w.userReads()).toBe(0);
    expect(w.errors).toEqual([]);
    await w.context.close();
  });

  it('hydrates the legal pages and the sign-in page without a hydration error, with their styles inline', async () => {
    for (const [pathname, selector] of [
      ['/privacy', 'h1'],
      ['/terms', 'h1'],
      ['/auth', 'form'],
    ] as const) {
      const w = await open('pt');
      await countIntlFormats(w.context);
      await w.page.goto(pathname);
      await isHydrated(selector)(w.page);
      expect(w.errors).toEqual([]);
      // The legal pages' effective date came formatted with the page.
      await expect(intlFormatsBuilt(w.page)).resolves.toBe(0);
      expect(w.userReads()).toBe(0);
      // The stylesheet came inline, and loading the page's chunk did not fetch it again.
      await w.page.waitForLoadState('networkidle');
      expect(w.stylesheets()).toBe(0);
      if (pathname === '/privacy') {
        // Opened directly there is no history: "back" goes home, inside the app.
        await w.page.getByRole('button', { name: pt.common.back }).click();
        await w.page.waitForURL(`${sys.url}/`);
        await expectVisible(w.page.getByRole('heading', { name: pt.landing.hero.title }));
        expect(w.documents()).toBe(1);
      }
      await w.context.close();
    }
  });

  /** Marks the painted h1 so the test can tell whether hydration adopted it or replaced it. */
  const markHeading = (page: Page) =>
    page.evaluate(() => {
      (globalThis as unknown as { document: PageDocument }).document.querySelector('h1')!.prerenderedNode = true;
    });
  const headingAdopted = (page: Page) =>
    page.evaluate(() => (globalThis as unknown as { document: PageDocument }).document.querySelector('h1')?.prerenderedNode);

  it('paints a returning visitor\'s language (the cookie set when they chose it) before any script, and hydrates it without switching', async () => {
    // The visitor chose English on an earlier visit: localStorage and the cookie remember it.
    const w = await open('en');
    await w.context.addCookies([{ name: 'locale', value: 'en', domain: new URL(sys.url).hostname, path: '/' }]);
    const release = await holdScripts(w.page);
    await w.page.goto('/', { waitUntil: 'commit' });
    await w.page.locator('footer').waitFor({ state: 'attached' });
    await expect(w.page.locator('h1').textContent()).resolves.toBe(en.landing.hero.title);
    await expect(w.page.locator('html').getAttribute('lang')).resolves.toBe('en');
    await markHeading(w.page);
    release();
    await isHydrated('h1')(w.page);
    await expect(headingAdopted(w.page)).resolves.toBe(true);
    await expect(w.page.locator('h1').textContent()).resolves.toBe(en.landing.hero.title);
    expect(w.errors).toEqual([]);
    await w.context.close();
  });

  it('remembers a language chosen on the page in a cookie, so the next visit paints in it (Urdu right to left)', async () => {
    const w = await open('pt', { fresh: true });
    await w.page.goto('/?lng=ur');
    await isHydrated('h1')(w.page);
    const cookies = await w.context.cookies();
    expect(cookies.find((c) => c.name === 'locale')?.value).toBe('ur');
    const release = await holdScripts(w.page);
    await w.page.goto('/privacy', { waitUntil: 'commit' });
    await w.page.locator('h1').waitFor({ state: 'attached' });
    await expect(w.page.locator('html').getAttribute('dir')).resolves.toBe('rtl');
    await expect(w.page.locator('h1').textContent()).resolves.toBe(ur.legal.privacy.title);
    release();
    await isHydrated('h1')(w.page);
    expect(w.errors).toEqual([]);
    await w.context.close();
  });

  it('hydrates the sign-up view the landing page links to, in the language its URL names', async () => {
    for (const [url, texts] of [
      ['/auth?signup=true', pt],
      ['/auth?signup=true&lng=en&utm_source=mail', en],
    ] as const) {
      const w = await open('pt');
      const release = await holdScripts(w.page);
      await w.page.goto(url, { waitUntil: 'commit' });
      await w.page.locator('form').waitFor({ state: 'attached' });
      await expect(w.page.locator('h1').textContent()).resolves.toBe(texts.auth.signup.title);
      await markHeading(w.page);
      release();
      await isHydrated('form')(w.page);
      await expect(headingAdopted(w.page)).resolves.toBe(true);
      expect(w.errors).toEqual([]);
      expect(w.userReads()).toBe(0);
      await w.context.close();
    }
  });

  it('switches a visitor who chose another language to it, without an error', async () => {
    const w = await open('en');
    await w.page.goto('/');
    await expectVisible(w.page.getByRole('heading', { name: en.landing.hero.title }));
    await expect(w.page.locator('html').getAttribute('lang')).resolves.toBe('en');
    expect(w.errors).toEqual([]);
    await w.context.close();
  });

  it('paints the signed-in shell (header, bottom bar, a busy skeleton) before any script, then the page in its place', async () => {
    const client = sys.client();
    await signUp(client, sys.mail);
    for (const locale of ['pt', 'ur'] as const) {
      const texts = locale === 'pt' ? pt : ur;
      const w = await open(locale, { axe: true });
      const host = new URL(sys.url).hostname;
      await w.context.addCookies([
        ...[...client.cookies].map(([name, value]) => ({ name, value, domain: host, path: '/' })),
        { name: 'locale', value: locale, domain: host, path: '/' },
      ]);
      const release = await holdScripts(w.page);
      await w.page.goto('/dashboard', { waitUntil: 'commit' });
      const shell = w.page.getByTestId('signed-in-shell');
      await shell.waitFor({ state: 'visible' });
      await expect(shell.getAttribute('aria-busy')).resolves.toBe('true');
      await expect(w.page.getByRole('status').textContent()).resolves.toBe(texts.common.loading);
      await expect(w.page.getByRole('navigation', { name: texts.nav.label }).isVisible()).resolves.toBe(true);
      await expect(w.page.locator('html').getAttribute('dir')).resolves.toBe(locale === 'ur' ? 'rtl' : 'ltr');
      expect(await wcagViolations(w.page)).toEqual([]);
      release();
      await expectVisible(w.page.getByTestId('points-balance'));
      await expect(w.page.locator('main').getAttribute('aria-busy')).resolves.toBeNull();
      expect(w.userReads()).toBe(1);
      expect(w.errors).toEqual([]);
      await w.context.close();
    }
  });

  it('reads the session once per page load when signed in, and sends the user from / to the dashboard', async () => {
    const client = sys.client();
    await signUp(client, sys.mail);
    const w = await open('en');
    const host = new URL(sys.url).hostname;
    await w.context.addCookies([...client.cookies].map(([name, value]) => ({ name, value, domain: host, path: '/' })));

    await w.page.goto('/');
    await w.page.waitForURL(/\/dashboard$/);
    await expectVisible(w.page.getByRole('heading', { level: 1 }));
    expect(w.userReads()).toBe(1);

    await w.page.reload();
    await expectVisible(w.page.getByRole('heading', { level: 1 }));
    await w.page.waitForLoadState('networkidle');
    expect(w.userReads()).toBe(2);
    expect(w.errors).toEqual([]);
    await w.context.close();
  });
});
