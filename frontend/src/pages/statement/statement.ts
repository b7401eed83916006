import type { PointsStatement, StatementEntry } from '@esim/contracts';

/** Key of the first page of `GET /api/points-statement`; invalidated after a redemption. */
export const STATEMENT_QUERY_KEY = ['/api/points-statement'] as const;

export function statementUrl(before: string | null): string {
  return before ? `/api/points-statement?before=${encodeURIComponent(before)}` : '/api/points-statement';
}

/** Pages in order, as one list; an entry repeated across a page boundary is shown once. */
export function statementEntries(pages: readonly PointsStatement[] | undefined): StatementEntry[] {
  const seen = new Set<string>();
  const out: StatementEntry[] = [];
  for (const page of pages ?? []) {
    for (const entry of page.entries) {
      if (seen.has(entry.id)) continue;
      seen.add(entry.id);
      out.push(entry);
    }
  }
  return out;
}

/** "+120", "−1,000" (a true minus sign), "0": the signed change to the available balance. */
export function signedPoints(points: number, formatNumber: (n: number) => string): string {
  if (points > 0) return `+${formatNumber(points)}`;
  if (points < 0) return `\u2212${formatNumber(-points)}`;
  return formatNumber(0);
}

export type StatementReference =
  | { type: 'transaction'; provider: string | null; id: string }
  | { type: 'redemption'; id: string }
  | { type: 'provider'; provider: string }
  | null;

/** What the movement refers to: the provider's transaction, or our redemption. */
export function statementReference(entry: Pick<StatementEntry, 'provider' | 'transactionId' | 'redemptionId'>): StatementReference {
  if (entry.redemptionId) return { type: 'redemption', id: entry.redemptionId };
  if (entry.transactionId) return { type: 'transaction', provider: entry.provider, id: entry.transactionId };
  if (entry.provider) return { type: 'provider', provider: entry.provider };
  return null;
}

/** Badge style of each state. */
export const STATE_BADGE: Readonly<Record<StatementEntry['state'], string>> = {
  pending: 'badge badge--warning',
  done: 'badge badge--success',
  reversed: 'badge badge--danger',
  released: 'badge',
};
