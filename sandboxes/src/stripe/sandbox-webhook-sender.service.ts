import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import Stripe from 'stripe';
import { STRIPE_SETTINGS, StripeSettings } from './stripe-settings';

/** Stripe retries a failed delivery for days; the emulator a few times, quickly. */
const RETRY_DELAYS_MS = [500, 2_000, 5_000, 15_000];
const SEND_TIMEOUT_MS = 10_000;

/**
 * Delivers the emulator's events to our webhook endpoint the way Stripe does: a JSON POST signed
 * in the `Stripe-Signature` header (`t=…,v1=…`, HMAC-SHA256 of `t.payload` with the endpoint's
 * secret, made by the SDK's own generateTestHeaderString), retried until a 2xx answer.
 */
@Injectable()
export class SandboxWebhookSender implements OnApplicationShutdown {
  private readonly log = new Logger('StripeSandbox');
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<Promise<void>>();
  private stopped = false;

  constructor(@Inject(STRIPE_SETTINGS) private readonly settings: StripeSettings) {}

  /** Queues the delivery and returns at once, as Stripe answers the API call before it sends webhooks. */
  deliver(event: Stripe.Event): void {
    this.attempt(event, 0);
  }

  private attempt(event: Stripe.Event, attempt: number): void {
    if (this.stopped) return;
    const p = this.send(event, attempt).finally(() => this.inFlight.delete(p));
    this.inFlight.add(p);
  }

  private async send(event: Stripe.Event, attempt: number): Promise<void> {
    const payload = JSON.stringify(event, null, 2);
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: this.settings.webhookSecret });
    let outcome: string;
    try {
      const res = await fetch(this.settings.webhookUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'stripe-signature': signature,
          'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks) dados-gratis-sandbox',
        },
        body: payload,
        signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
      });
      await res.arrayBuffer().catch(() => undefined);
      if (res.ok) {
        this.log.log(`SANDBOX webhook ${event.type} ${event.id} delivered to ${this.settings.webhookUrl}: HTTP ${res.status}`);
        return;
      }
      outcome = `HTTP ${res.status}`;
    } catch (err) {
      outcome = (err as Error).message;
    }
    const delay = RETRY_DELAYS_MS[attempt];
    if (delay === undefined || this.stopped) {
      this.log.error(`SANDBOX webhook ${event.type} ${event.id} to ${this.settings.webhookUrl} failed (${outcome}); giving up after ${attempt + 1} attempts`);
      return;
    }
    this.log.warn(`SANDBOX webhook ${event.type} ${event.id} to ${this.settings.webhookUrl} failed (${outcome}); retrying in ${delay} ms`);
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.attempt(event, attempt + 1);
    }, delay);
    timer.unref();
    this.timers.add(timer);
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    await Promise.allSettled([...this.inFlight]);
  }
}
