import { signUp } from '../support/accounts';
import type { HttpClient } from '../support/http-client';
import { startSystem, System } from '../support/system';
import { confirmWithPix, createPayment } from './purchases-support';

/** Concurrent GETs per burst: more than the sandbox page's QR image ever gets from real browsers. */
const BURST = 150;

/**
 * The Pix QR image through the gateway's /sandbox proxy (services/gateway/src/http/sandboxes-proxy.ts,
 * the forward of offerwalls/webhooks-proxy.ts) to the Stripe emulator, many browsers at once: every
 * GET is answered with the image, in bursts one after another on the same pooled connections. The
 * emulator renders a code's image once (sandboxes/src/stripe/pix-qr-images.ts); rendered per GET,
 * a burst held the emulators' process for seconds and most of these GETs never got an answer.
 */
describe('the Pix QR image through the /sandbox proxy', () => {
  let sys: System;
  let buyer: HttpClient;

  beforeAll(async () => {
    sys = await startSystem({ services: ['identity', 'payments', 'notifications'] });
    buyer = sys.client();
    await signUp(buyer, sys.mail, { name: 'Bia', locale: 'pt' });
  }, 180_000);
  afterAll(async () => {
    await sys?.stop();
  });

  it('answers every one of many concurrent GETs, burst after burst', async () => {
    const payment = await createPayment(buyer, { planType: '1GB', country: 'BR', paymentMethod: 'pix' });
    const confirmed = await confirmWithPix(sys, payment);
    expect(confirmed.status).toBe(200);
    const png = new URL(confirmed.body.next_action.pix_display_qr_code.image_url_png);
    const url = `${sys.url}${png.pathname}${png.search}`;
    const outcomes: string[] = [];
    for (let burst = 0; burst < 3; burst++) {
      outcomes.push(
        ...(await Promise.all(
          Array.from({ length: BURST }, async () => {
            try {
              const res = await fetch(url, { signal: AbortSignal.timeout(30_000) });
              const body = Buffer.from(await res.arrayBuffer());
              return res.status === 200 && body.subarray(1, 4).toString() === 'PNG' ? 'png' : `${res.status}`;
            } catch (err) {
              return (err as Error).name;
            }
          }),
        )),
      );
    }
    const counts = outcomes.reduce<Record<string, number>>((acc, o) => ({ ...acc, [o]: (acc[o] ?? 0) + 1 }), {});
    expect(counts).toEqual({ png: 3 * BURST });
  }, 180_000);
});
