import { Injectable } from '@nestjs/common';

/** `fail`: every secret-key API call is answered 500 `api_error` without being carried out; `ok`: behave. */
export type StripeFaultMode = 'ok' | 'fail';

/**
 * A fault tests inject into the Stripe emulator's API, and how many calls it received. Kept in
 * memory: a test instrument of one running process, not emulated Stripe state.
 */
@Injectable()
export class StripeEmulatorFaults {
  private mode: StripeFaultMode = 'ok';
  private readonly requests = new Map<string, number>();

  set(mode: StripeFaultMode): void {
    this.mode = mode;
  }

  /** Back to normal behaviour, and the request counts from zero. */
  reset(): void {
    this.mode = 'ok';
    this.requests.clear();
  }

  /** Counts the call ("POST /v1/payment_intents") and says whether it fails. */
  take(request: string): boolean {
    this.requests.set(request, (this.requests.get(request) ?? 0) + 1);
    return this.mode === 'fail';
  }

  state() {
    return { mode: this.mode, requests: Object.fromEntries(this.requests) };
  }
}
