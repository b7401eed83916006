import { LOCALES } from '@esim/contracts';
import {
  daysSince,
  formatDate,
  formatNumber,
  formatPrice,
  initials,
  nativeLanguageName,
  prerenderedFormatsScript,
  takeFormatted,
} from './format';
import { pendingProgress, redemptionProgress } from './points';

describe('display helpers', () => {
  it('shows prices in their own currency, written the way the language writes money', () => {
    const plain = (text: string) => text.replace(/\s/g, ' ');
    expect(formatPrice(299, 'USD', 'en')).toBe('$2.99');
    expect(formatPrice(1099, 'usd', 'en')).toBe('$10.99');
    expect(plain(formatPrice(1990, 'BRL', 'pt'))).toBe('R$ 19,90');
    expect(plain(formatPrice(2490, 'brl', 'pt-BR'))).toBe('R$ 24,90');
    expect(formatPrice(1990, 'BRL', 'en')).toBe('R$19.90');
  });

  it('caps redemption progress at 100% and turns ready at 1000 points', () => {
    expect(redemptionProgress(0)).toEqual({ percent: 0, remaining: 1000, ready: false });
    expect(redemptionProgress(650)).toEqual({ percent: 65, remaining: 350, ready: false });
    expect(redemptionProgress(1000)).toEqual({ percent: 100, remaining: 0, ready: true });
    expect(redemptionProgress(4200)).toEqual({ percent: 100, remaining: 0, ready: true });
    expect(redemptionProgress(-50).percent).toBe(0);
  });

  it('draws held points after the spendable ones, never past the threshold, and from zero under a negative balance', () => {
    expect(pendingProgress(300, 0)).toBe(0);
    expect(pendingProgress(300, 500)).toBe(50);
    expect(pendingProgress(300, 5000)).toBe(70);
    expect(pendingProgress(1200, 800)).toBe(0);
    expect(pendingProgress(-300, 800)).toBe(80);
  });

  it('counts the first day as day 1', () => {
    const created = '2025-08-29T10:00:00Z';
    expect(daysSince(created, new Date('2025-08-29T18:00:00Z'))).toBe(1);
    expect(daysSince(created, new Date('2025-09-01T11:00:00Z'))).toBe(4);
  });

  it('makes avatar initials', () => {
    expect(initials('Ana Silva')).toBe('AS');
    expect(initials('  josé  ')).toBe('J');
    expect(initials('')).toBe('?');
  });

  it('names every interface language in itself, exactly as Intl does', () => {
    for (const code of LOCALES) {
      const name = new Intl.DisplayNames([code], { type: 'language' }).of(code)!;
      expect(nativeLanguageName(code)).toBe(name.charAt(0).toLocaleUpperCase(code) + name.slice(1));
    }
    expect(nativeLanguageName('sv')).toBe('Svenska');
  });

  it('records what the pre-renderer formatted, per locale, for the page it writes them into', () => {
    takeFormatted();
    formatNumber(1000, 'pt');
    formatDate('2025-08-29T12:00:00Z', 'pt');
    formatNumber(1000, 'en');
    expect(takeFormatted()).toEqual([
      { locale: 'pt', texts: { 'n 1000': '1.000', 'd {"dateStyle":"long"} 1756468800000': '29 de agosto de 2025' } },
      { locale: 'en', texts: { 'n 1000': '1,000' } },
    ]);
    expect(takeFormatted()).toEqual([]);
    // Data inside <script>: no text can close the element.
    expect(prerenderedFormatsScript({ locale: 'pt', texts: { x: '</script><b>' } })).toBe(
      '<script type="application/json" id="prerendered-formats">{"locale":"pt","texts":{"x":"\\u003c/script>\\u003cb>"}}</script>',
    );
  });

  it('formats with reused Intl formatters, per locale and options', () => {
    expect(formatNumber(1000, 'pt')).toBe('1.000');
    expect(formatNumber(1000, 'en')).toBe('1,000');
    expect(formatNumber(1234.5, 'pt')).toBe('1.234,5');
    expect(formatDate('2025-08-29T12:00:00Z', 'en')).toBe('August 29, 2025');
    expect(formatDate('2025-08-29T12:00:00Z', 'en', { month: 'short', year: 'numeric' })).toBe('Aug 2025');
    expect(formatDate('not a date', 'en')).toBe('');
  });
});
