import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { STRIPE_SETTINGS, StripeSettings } from './stripe-settings';

/** Says loudly, at start-up, whether card payments are real. */
@Injectable()
export class StripeModeLog implements OnApplicationBootstrap {
  private readonly log = new Logger('Stripe');

  constructor(@Inject(STRIPE_SETTINGS) private readonly settings: StripeSettings) {}

  onApplicationBootstrap(): void {
    const { host, port, protocol } = this.settings.address;
    if (this.settings.sandbox) {
      this.log.warn(
        `SANDBOX: no STRIPE_SECRET_KEY, card payments go to the Stripe EMULATOR (the sandboxes process) at ${protocol}://${host}:${port}; browsers reach it at PUBLIC_URL/sandbox/stripe. No real money moves. Not for real users.`,
      );
    } else {
      this.log.log(`card payments are live: Stripe at ${protocol}://${host}:${port}`);
    }
  }
}
