import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** The WCAG 2.0 and 2.1 success criteria of levels A and AA, as axe-core tags them. */
const WCAG_A_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/**
 * Runs axe-core in the page and returns the WCAG A/AA violations, each with the selectors of the
 * offending nodes (readable in a failed expectation). The page's context needs `bypassCSP`: the
 * gateway's Content-Security-Policy forbids the inline script axe is injected as.
 */
export async function wcagViolations(page: Page, within?: string): Promise<AxeViolation[]> {
  // Colours are judged as painted: a dialog that is still fading in (ui.css, `rise-in`) has text
  // below its final contrast, and on a busy host axe could run before the 180 ms were over.
  // Endless animations (spinners) never finish and do not change colours: they are not waited for.
  await page.evaluate(() => {
    type Running = { effect: { getComputedTiming(): { endTime?: number } } | null; finished: Promise<unknown> };
    const doc = (globalThis as unknown as { document: { getAnimations(): Running[] } }).document;
    const finite = doc.getAnimations().filter((a) => a.effect?.getComputedTiming().endTime !== Infinity);
    return Promise.all(finite.map((a) => a.finished.catch(() => undefined)));
  });
  await page.addScriptTag({ content: AXE_SOURCE });
  // `within`: a CSS selector, to check one part of a page whose other parts belong to other tests.
  return page.evaluate(async ({ tags, within }) => {
    type AxeResult = { violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[] }> }> };
    const axe = (globalThis as unknown as { axe: { run(context: unknown, options: unknown): Promise<AxeResult> } }).axe;
    const result = await axe.run(within ? { include: [[within]] } : (globalThis as unknown as { document: unknown }).document, {
      runOnly: { type: 'tag', values: tags },
      resultTypes: ['violations'],
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => n.target.map(String).join(' ')),
    }));
  }, { tags: WCAG_A_AA, within });
}
