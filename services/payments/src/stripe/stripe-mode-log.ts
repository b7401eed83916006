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
      // The HTTP server is not listening yet at bootstrap; the emulator is this service's own port.
      const where = host ? `${protocol}://${host}:${port}` : 'this service over loopback (its HTTP port, /v1)';
      this.log.warn(
        `SANDBOX: no STRIPE_SECRET_KEY, card payments go to the local Stripe EMULATOR at ${where}; browsers reach it at PUBLIC_URL/sandbox/stripe, and its webhooks go to ${this.settings.webhookUrl}. No real money moves. Not for real users.`,
      );
    } else {
      this.log.log(`card payments are live: Stripe at ${protocol}://${host}:${port}`);
    }
  }
}
