import type { CreditClaim, CreditClaimRequest, CreditClaimsResponse } from '@esim/contracts';
import { apiJson } from '../../lib/api';

/** The user's claims (keyed by URL: the default query function GETs `queryKey[0]`). */
export const CREDIT_CLAIMS_QUERY_KEY = ['/api/credit-claims'] as const;

export const fileClaim = (claim: CreditClaimRequest) => apiJson<CreditClaim>('POST', '/api/credit-claims', claim);
export type { CreditClaimsResponse };

/** Today as the user's calendar shows it (YYYY-MM-DD), the form's default and its latest day. */
export function localToday(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
