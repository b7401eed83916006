/** System accounts, created by the ledger migration; every point a user holds came from one of them. */
export const SYSTEM_ACCOUNTS = ['signup_bonus', 'offerwalls', 'redemptions', 'claims', 'referrals', 'carried_forward'] as const;
export type SystemAccount = (typeof SYSTEM_ACCOUNTS)[number];

/**
 * What a transfer is. Credits move points from a system account to a user; a reversal takes one
 * credit back; a reservation holds points (pending) until it is posted (redemption) or voided
 * (release). A held offer-wall credit (`held_until` set) cannot be spent until its `hold_release`
 * makes it available (migration 1736200000000). A `claim_credit` pays a missing-credit claim an
 * admin accepted, once per claim (reference = the claim's id; migration 1736300000000); a
 * `referral_bonus` pays one side of a referral, once (reference = `<friend id>:<side>`; migration 1736300000001).
 * A `carried_forward` holds the sum of an account's settled transfers older than the transaction
 * retention, which it replaced (rewards-retention.ts; migration 1739500000000).
 */
export type TransferKind =
  | 'signup_bonus'
  | 'offerwall_credit'
  | 'offerwall_reversal'
  | 'reservation'
  | 'redemption'
  | 'release'
  | 'hold_release'
  | 'claim_credit'
  | 'referral_bonus'
  | 'carried_forward';
export type CreditKind = Extract<TransferKind, 'signup_bonus' | 'offerwall_credit' | 'claim_credit' | 'referral_bonus'>;

export interface Transfer {
  id: string;
  kind: TransferKind;
  debitAccountId: string;
  creditAccountId: string;
  amount: number;
  /** Idempotency reference, unique per kind. */
  reference: string;
  /** The transfer this one reverses, posts or voids. */
  linkedId: string | null;
  createdAt: Date;
}

/** `created` is false when the (kind, reference) was used before: `transfer` is the earlier one. */
export interface TransferResult {
  transfer: Transfer;
  created: boolean;
}

export interface Balance {
  /** Settled points. */
  posted: number;
  /** Points held by reservations (zero or negative for a user). */
  pending: number;
  /** What the user can spend: posted plus pending. */
  available: number;
}

export interface UserAccount {
  id: string;
  closed: boolean;
}
