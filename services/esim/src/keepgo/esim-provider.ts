import type { PrepaidPlanId, RedeemablePlanTier } from '@esim/contracts';

/**
 * The port in front of the eSIM supplier (KeepGo). The redemption saga, purchases and the admin
 * console depend on this interface, injected with ESIM_PROVIDER; the only implementation is the
 * real KeepGo HTTP adapter, which talks to the local emulator when no credentials are set.
 *
 * Every failure is an EsimProviderException whose `code` says what happened and whether it is
 * definite (the provider refused: nothing was done) or transient (it may be worth asking again,
 * and for a create/refill the outcome may be unknown: ask with `findOperation` first).
 */
export const ESIM_PROVIDER = Symbol('ESIM_PROVIDER');

/** Plan tiers from the catalogue in libs/contracts (1GB, 3GB, 5GB, and 10GB for card purchases). */
export type EsimPlanTier = RedeemablePlanTier | PrepaidPlanId;

export interface CreateLineRequest {
  /** ISO 3166-1 alpha-2 country code, upper case (e.g. 'US'). */
  country: string;
  plan: EsimPlanTier;
  /** Our idempotency reference (e.g. the redemption id): the same reference never makes two lines. */
  reference: string;
  /**
   * Awaited right before the order goes to the provider (and not at all when the request is
   * refused before that): the caller records that an order may be at the provider from here on.
   * If it throws, nothing is sent.
   */
  beforeSend?: () => Promise<void>;
}

export interface RefillRequest {
  iccid: string;
  plan: EsimPlanTier;
  /** Our idempotency reference: the same reference never refills twice. */
  reference: string;
}

export interface ProvisionedLine {
  kind: 'create';
  reference: string;
  iccid: string;
  /** SGP.22 activation code, `LPA:1$<SM-DP+ address>$<matching id>`. */
  lpaCode: string;
  /** Phone number, when the line has one (data-only lines often do not, at first). */
  msisdn: string | null;
  /** KeepGo's transaction id, when it was seen (a line found again by reference may lack it). */
  transactionId: string | null;
  bundleId: number;
  amountMb: number;
  amountDays: number | null;
}

export interface CompletedRefill {
  kind: 'refill';
  reference: string;
  iccid: string;
  transactionId: string | null;
  dataBundleId: number | null;
  amountMb: number;
  amountDays: number | null;
}

/** What a previous create or refill did, found again by our reference. */
export type ProviderOperation = ProvisionedLine | CompletedRefill;

export type OperationQuery =
  | { kind: 'create'; reference: string }
  /** A refill is looked up on its line, so the ICCID is needed. */
  | { kind: 'refill'; reference: string; iccid: string };

export interface LineDetails {
  iccid: string;
  msisdn: string | null;
  lpaCode: string | null;
  /** KeepGo's status text: 'Registered', 'Activated', 'Deactivated', … */
  status: string;
  /** Data left on the line in MB (KeepGo counts in KB; 1 MB = 1024 KB), when known. */
  remainingMb: number | null;
  allowedMb: number | null;
  remainingDays: number | null;
  bundleName: string | null;
}

export interface LineSummary {
  iccid: string;
  status: string;
  remainingMb: number | null;
  remainingDays: number | null;
}

export interface LinesPage {
  /** All lines on the account (KeepGo's `sim_cards.total`). */
  total: number;
  page: number;
  perPage: number;
  lastPage: number;
  items: LineSummary[];
}

export interface AccountBalance {
  currency: 'USD';
  /** As KeepGo sends it (a decimal string, e.g. "8.63"). */
  amount: string;
}

export interface EsimProvider {
  /** True when this is the local emulator, not the real KeepGo. */
  readonly sandbox: boolean;
  createLine(request: CreateLineRequest): Promise<ProvisionedLine>;
  refill(request: RefillRequest): Promise<CompletedRefill>;
  lineDetails(iccid: string): Promise<LineDetails>;
  listLines(page?: { page?: number; perPage?: number }): Promise<LinesPage>;
  accountBalance(): Promise<AccountBalance>;
  /** Deactivates the line now (KeepGo: a deactivation date of today); the eSIM stops working. */
  deactivateLine(iccid: string): Promise<void>;
  /**
   * Did the provider already do the operation with this reference? The operation, or null when
   * the provider shows no trace of it. Throws a transient EsimProviderException when the provider
   * cannot be asked: then the answer is unknown, never "no".
   */
  findOperation(query: OperationQuery): Promise<ProviderOperation | null>;
}
