import { daysSince, formatPrice, initials } from './format';
import { redemptionProgress } from './points';

describe('display helpers', () => {
  it('shows prices as cents / 100 with two decimals', () => {
    expect(formatPrice(299)).toBe('$2.99');
    expect(formatPrice(1099)).toBe('$10.99');
  });

  it('caps redemption progress at 100% and turns ready at 1000 points', () => {
    expect(redemptionProgress(0)).toEqual({ percent: 0, remaining: 1000, ready: false });
    expect(redemptionProgress(650)).toEqual({ percent: 65, remaining: 350, ready: false });
    expect(redemptionProgress(1000)).toEqual({ percent: 100, remaining: 0, ready: true });
    expect(redemptionProgress(4200)).toEqual({ percent: 100, remaining: 0, ready: true });
    expect(redemptionProgress(-50).percent).toBe(0);
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
});
