import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { INestApplication } from '@nestjs/common';
import { Client } from 'pg';
import Stripe from 'stripe';
import { STRIPE_SANDBOX_WEBHOOK_SECRET, StripeEventAccepted, StripeEventRefused, type CreateEsimPaymentResponse } from '@esim/contracts';
import { TEST_DATABASE_URL, waitFor } from '@esim/testing';
import { DataSource } from 'typeorm';
import { KEEPGO_SANDBOX_ACCESS_TOKEN, KEEPGO_SANDBOX_API_KEY, KEEPGO_SANDBOX_PATH } from '../../services/esim/src/keepgo/keepgo-api';
import { STRIPE_API_VERSION } from '../../services/payments/src/stripe/stripe-api.service';
import { SANDBOX_PUBLISHABLE_KEY, SANDBOX_SECRET_KEY } from '../../services/payments/src/stripe/stripe-settings';
import type { HttpClient, HttpResponse } from '../support/http-client';
import type { System } from '../support/system';

export const portOf = (app: INestApplication | undefined): number => (app!.getHttpServer().address() as AddressInfo).port;

/** The Stripe SDK as the server uses it: the sandbox secret key, against the emulator (the sandboxes app). */
export function serverStripe(sys: System): Stripe {
  return new Stripe(SANDBOX_SECRET_KEY, {
    apiVersion: STRIPE_API_VERSION,
    host: '127.0.0.1',
    port: portOf(sys.sandboxes.app),
    protocol: 'http',
    maxNetworkRetries: 0,
  });
}

/** A form-encoded body as Stripe.js sends it (`a[b]=c`). */
export function formEncode(params: Record<string, unknown>, prefix = ''): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(params)) {
    const name = prefix ? `${prefix}[${key}]` : key;
    if (value !== null && typeof value === 'object') parts.push(formEncode(value as Record<string, unknown>, name));
    else if (value !== undefined) parts.push(`${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`);
  }
  return parts.filter(Boolean).join('&');
}

export interface BrowserAnswer {
  status: number;
  body: any;
}

/**
 * What the sandbox card form does (as Stripe.js would): confirm the intent with its client secret
 * and the publishable key, through the app's own origin (the gateway relays to the emulator).
 */
export async function browserConfirm(sys: System, payment: Pick<CreateEsimPaymentResponse, 'paymentIntentId' | 'clientSecret'>, method: Record<string, unknown>): Promise<BrowserAnswer> {
  const res = await fetch(`${sys.url}/sandbox/stripe/v1/payment_intents/${payment.paymentIntentId}/confirm`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: formEncode({ key: SANDBOX_PUBLISHABLE_KEY, client_secret: payment.clientSecret, return_url: `${sys.url}/success?plan=1GB`, ...method }),
  });
  return { status: res.status, body: await res.json() };
}

export const payWithVisa = (sys: System, payment: Pick<CreateEsimPaymentResponse, 'paymentIntentId' | 'clientSecret'>) =>
  browserConfirm(sys, payment, { payment_method: 'pm_card_visa' });

/** What the Pix checkout does (as Stripe.js's confirmPixPayment would): confirm the intent with Pix, for its QR code. */
export const confirmWithPix = (sys: System, payment: Pick<CreateEsimPaymentResponse, 'paymentIntentId' | 'clientSecret'>) =>
  browserConfirm(sys, payment, { payment_method_data: { type: 'pix' } });

/**
 * The Stripe emulator's stand-in for the buyer's bank, through the app's origin as the sandbox
 * checkout's buttons call it: `pay` settles the Pix code, `expire` lets it lapse.
 */
export async function settlePix(sys: System, payment: Pick<CreateEsimPaymentResponse, 'paymentIntentId' | 'clientSecret'>, outcome: 'pay' | 'expire'): Promise<BrowserAnswer> {
  const res = await fetch(`${sys.url}/sandbox/stripe/pix/${payment.paymentIntentId}/${outcome}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_secret: payment.clientSecret }),
  });
  return { status: res.status, body: await res.json() };
}

export async function createPayment(client: HttpClient, body: Record<string, unknown>): Promise<CreateEsimPaymentResponse> {
  const res = await client.post('/api/create-esim-payment', body);
  if (res.status !== 200) throw new Error(`create-esim-payment failed: ${res.status} ${res.text}`);
  return res.json();
}

export const confirmPurchase = (client: HttpClient, paymentIntentId: string): Promise<HttpResponse> =>
  client.post('/api/confirm-esim-purchase-by-intent', { paymentIntentId });

/** Posts a webhook delivery to the public endpoint as Stripe would, signed with `secret` at `timestamp`. */
export async function sendWebhook(
  sys: System,
  event: unknown,
  opts: { secret?: string; timestamp?: number; unsigned?: boolean } = {},
): Promise<{ status: number; body: any }> {
  const payload = JSON.stringify(event, null, 2);
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
  if (!opts.unsigned) {
    headers['stripe-signature'] = Stripe.webhooks.generateTestHeaderString({ payload, secret: opts.secret ?? STRIPE_SANDBOX_WEBHOOK_SECRET, timestamp: opts.timestamp });
  }
  const res = await fetch(`${sys.url}/webhooks/stripe`, { method: 'POST', headers, body: payload });
  return { status: res.status, body: await res.json().catch(() => null) };
}

/** Test controls of the KeepGo emulator (the sandboxes app: fail, reset, request counts). */
export async function keepGoControl(sys: System, body: Record<string, unknown> = {}): Promise<any> {
  const res = await fetch(`${sys.sandboxes.url}${KEEPGO_SANDBOX_PATH}/_control`, {
    method: body && Object.keys(body).length ? 'POST' : 'GET',
    headers: { 'content-type': 'application/json', apiKey: KEEPGO_SANDBOX_API_KEY, accessToken: KEEPGO_SANDBOX_ACCESS_TOKEN },
    body: body && Object.keys(body).length ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`KeepGo control: ${res.status} ${await res.text()}`);
  return res.json();
}

/** Read access to a service's schema (payments by default), to check what was recorded. */
export async function paymentsDb(sys: System, service: 'payments' | 'webhooks' | 'esim' = 'payments'): Promise<Client> {
  const db = new Client({ connectionString: TEST_DATABASE_URL, options: `-c search_path=${sys.ns.schema(service)}` });
  await db.connect();
  return db;
}

/** Read access to the ingestion service's schema: Stripe's deliveries are in its webhook_transactions. */
export const webhooksDb = (sys: System): Promise<Client> => paymentsDb(sys, 'webhooks');

/** Waits until every `event` the producer's outbox holds is in the consumer's inbox (applied there). */
async function allConsumed(producer: DataSource, consumer: DataSource, routingKey: string, what: string, timeoutMs: number): Promise<void> {
  await waitFor(
    async () => {
      const sent: Array<{ id: string }> = await producer.query('SELECT id FROM outbox_events WHERE routing_key = $1', [routingKey]);
      const [{ applied }] = await consumer.query('SELECT count(*)::int AS applied FROM inbox_events WHERE event_id = ANY($1::uuid[])', [sent.map((r) => r.id)]);
      return applied === sent.length;
    },
    { what, timeoutMs },
  );
}

/**
 * Waits until payments has applied every Stripe event the ingestion service accepted (each one's
 * envelope is in payments' inbox): Stripe's answer comes first, the effect after it.
 */
export async function stripeEventsApplied(sys: System, timeoutMs = 20_000): Promise<void> {
  const [webhooks, payments] = [sys.apps.webhooks!.get(DataSource), sys.apps.payments!.get(DataSource)];
  await allConsumed(webhooks, payments, StripeEventAccepted.routingKey, 'payments to apply every accepted Stripe event', timeoutMs);
}

/**
 * Waits until payments has applied every accepted Stripe event and the ingestion service has
 * recorded every refusal payments reported back: after it, a delivery still `accepted` was applied.
 */
export async function stripeRefusalsRecorded(sys: System, timeoutMs = 20_000): Promise<void> {
  await stripeEventsApplied(sys, timeoutMs);
  const [webhooks, payments] = [sys.apps.webhooks!.get(DataSource), sys.apps.payments!.get(DataSource)];
  await allConsumed(payments, webhooks, StripeEventRefused.routingKey, 'the ingestion service to record every refusal payments reported', timeoutMs);
}

/** A webhook delivery as Stripe (here its emulator) sent it: the signature header and the raw body. */
export interface StripeDelivery {
  signature: string | undefined;
  payload: string;
}

/**
 * A local endpoint to set as STRIPE_WEBHOOK_URL: answers every delivery 200, as a reachable
 * webhook address does, and keeps it in `deliveries` in the order it came.
 */
export async function catchStripeWebhooks(): Promise<{ url: string; deliveries: StripeDelivery[]; close(): Promise<void> }> {
  const deliveries: StripeDelivery[] = [];
  const hook = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      deliveries.push({ signature: req.headers['stripe-signature'] as string | undefined, payload: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
    });
  });
  await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`,
    deliveries,
    close: () => new Promise<void>((resolve) => hook.close(() => resolve())),
  };
}
