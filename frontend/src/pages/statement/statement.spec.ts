import type { PointsStatement, StatementEntry } from '@esim/contracts';
import { signedPoints, statementEntries, statementReference, statementUrl } from './statement';

const entry = (id: string, over: Partial<StatementEntry> = {}): StatementEntry => ({
  id,
  kind: 'earned',
  points: 120,
  amount: 120,
  state: 'done',
  provider: 'bitlabs',
  transactionId: `tx-${id}`,
  redemptionId: null,
  occurredAt: '2025-01-01T10:00:00Z',
  ...over,
});

describe('points statement', () => {
  it('asks for older pages with the cursor', () => {
    expect(statementUrl(null)).toBe('/api/points-statement');
    expect(statementUrl('2025-01-01T10:00:00Z|a b')).toBe('/api/points-statement?before=2025-01-01T10%3A00%3A00Z%7Ca%20b');
  });

  it('joins the pages in order and shows an entry repeated at a page boundary once', () => {
    const pages: PointsStatement[] = [
      { entries: [entry('3'), entry('2')], nextCursor: 'c1' },
      { entries: [entry('2'), entry('1')], nextCursor: null },
    ];
    expect(statementEntries(pages).map((e) => e.id)).toEqual(['3', '2', '1']);
    expect(statementEntries(undefined)).toEqual([]);
  });

  it('signs amounts with a plus or a true minus', () => {
    const fmt = (n: number) => n.toLocaleString('en');
    expect(signedPoints(120, fmt)).toBe('+120');
    expect(signedPoints(-1000, fmt)).toBe('\u22121,000');
    expect(signedPoints(0, fmt)).toBe('0');
  });

  it('refers to our redemption, else to the provider transaction', () => {
    expect(statementReference(entry('1'))).toEqual({ type: 'transaction', provider: 'bitlabs', id: 'tx-1' });
    expect(statementReference(entry('1', { kind: 'reserved', provider: 'keepgo', transactionId: null, redemptionId: 'r-1' }))).toEqual({
      type: 'redemption',
      id: 'r-1',
    });
    expect(statementReference(entry('1', { kind: 'signup_bonus', provider: null, transactionId: null }))).toBeNull();
  });
});
