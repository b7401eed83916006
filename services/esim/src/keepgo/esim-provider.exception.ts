/**
 * What went wrong with the eSIM provider. The definite codes mean the provider answered and did
 * nothing, so a reservation can be voided; `unavailable` means it could not be reached or failed
 * on its side, so the caller may try again later (after asking by reference if `outcomeUnknown`).
 */
export type EsimProviderErrorCode =
  /** The ICCID is not a line of our account. */
  | 'line_not_found'
  /** The line exists but KeepGo offers no refill for it (e.g. it is deactivated). */
  | 'no_refills_available'
  /** No bundle covers the country, or no refill matches the plan's size and validity. */
  | 'no_suitable_offer'
  /** Our KeepGo account balance cannot pay for it. */
  | 'insufficient_balance'
  /** KeepGo rejected our credentials (configuration, not the user's request). */
  | 'unauthorized'
  /** Any other refusal KeepGo answered (4xx, or `ack` other than "success"). */
  | 'refused'
  /** Timeout, network failure, 5xx, 429 or an unreadable answer, after the bounded retries. */
  | 'unavailable';

const DEFINITE: ReadonlySet<EsimProviderErrorCode> = new Set([
  'line_not_found',
  'no_refills_available',
  'no_suitable_offer',
  'insufficient_balance',
  'unauthorized',
  'refused',
]);

export class EsimProviderException extends Error {
  /** The provider refused: nothing was done, and asking again gives the same answer. */
  readonly definite: boolean;
  /** A create/refill may have been carried out although no answer came back. */
  readonly outcomeUnknown: boolean;
  readonly httpStatus: number | null;
  /** The provider's own message, when it sent one. */
  readonly providerMessage: string | null;
  /** Not sent at all: KeepGo's circuit breaker is open (ProviderCalls); trying again at once is pointless. */
  readonly paused: boolean;

  constructor(
    readonly code: EsimProviderErrorCode,
    message: string,
    opts: { outcomeUnknown?: boolean; httpStatus?: number | null; providerMessage?: string | null; cause?: unknown; paused?: boolean } = {},
  ) {
    // The messages are for people and logs; the SPA words a refusal by its code (docs/keepgo.md).
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'EsimProviderException';
    this.definite = DEFINITE.has(code);
    this.outcomeUnknown = !this.definite && (opts.outcomeUnknown ?? false);
    this.httpStatus = opts.httpStatus ?? null;
    this.providerMessage = opts.providerMessage ?? null;
    this.paused = opts.paused ?? false;
  }

  get transient(): boolean {
    return !this.definite;
  }

  static lineNotFound(iccid: string, providerMessage?: string | null): EsimProviderException {
    return new EsimProviderException('line_not_found', `KeepGo: line not found (ICCID ${iccid})`, { providerMessage, httpStatus: 404 });
  }

  static noRefillsAvailable(iccid: string, providerMessage?: string | null): EsimProviderException {
    return new EsimProviderException('no_refills_available', `KeepGo: No refills available for line ${iccid}`, { providerMessage });
  }

  static noSuitableOffer(what: string, providerMessage?: string | null): EsimProviderException {
    return new EsimProviderException('no_suitable_offer', `KeepGo: No suitable ${what}`, { providerMessage });
  }

  /** The breaker refused the call before it was sent: transient, and certainly not carried out. */
  static paused(cause: Error): EsimProviderException {
    return new EsimProviderException('unavailable', `KeepGo API unavailable: ${cause.message}`, {
      outcomeUnknown: false,
      paused: true,
      cause,
    });
  }

  static isTransient(err: unknown): boolean {
    return err instanceof EsimProviderException && err.transient;
  }
}
