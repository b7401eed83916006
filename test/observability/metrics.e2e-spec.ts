import type { INestApplication } from '@nestjs/common';
import type { AddressInfo } from 'node:net';
import { OperatorPort } from '@esim/platform';
import { waitFor } from '@esim/testing';
import { startEsim } from '../../services/esim/src/app';
import { callPostback, earningSettled, postbackFor, signedPostbackUrl, signUpEarner } from '../earning/earning-support';
import { createPayment, payWithVisa } from '../purchases/purchases-support';
import { credit, FAST_PROVISIONING, newEsim, PASSING_CAPTCHA, redeem } from '../redemption/redemption-support';
import type { HttpClient } from '../support/http-client';
import { ALL_SERVICES, ServiceKey, startSystem, System } from '../support/system';
import { Sample, samples, scrape, total } from './prometheus-text';

/** Where a process answers /metrics: its operator port when it has one (the gateway, the ingestion service), else its HTTP port. */
const urlOf = (app: INestApplication) => `http://127.0.0.1:${OperatorPort.portOf(app) ?? (app.getHttpServer().address() as AddressInfo).port}`;

/**
 * Every process (the gateway and each backend service) answers /metrics on its internal port with
 * the named series, counted by what really happened: a sign-up, a postback and its replay, a
 * redemption and a card payment, through the whole system on the real infrastructure.
 */
describe('Prometheus metrics of every service', () => {
  let sys: System;
  let client: HttpClient;
  let userId: string;
  const scraped: Partial<Record<ServiceKey | 'gateway', Sample[]>> = {};
  const of = (s: ServiceKey | 'gateway') => scraped[s]!;

  beforeAll(async () => {
    sys = await startSystem({ env: FAST_PROVISIONING, gatewayEnv: { REDEEM_WAIT_MS: '30000' } });
    client = sys.client();
    userId = (await signUpEarner(client, sys.mail, {}, sys)).id;

    const url = signedPostbackUrl(sys, 'cpx', postbackFor(userId, 120));
    expect((await callPostback(url)).status).toBe(200);
    expect((await callPostback(url)).status).toBe(200); // the provider retries: a duplicate
    await earningSettled(sys);

    // A redemption of 1000 points, settled by the sandbox eSIM provider.
    await credit(sys, userId, 1000);
    expect((await client.post('/api/verify-captcha', { token: PASSING_CAPTCHA })).status).toBe(200);
    const redeemed = await redeem(client, newEsim());
    expect(redeemed.status).toBe(200);
    expect(redeemed.json().status).toBe('esim_activation_ready');

    // A card payment, paid with the sandbox's Visa.
    const payment = await createPayment(client, { planType: '1GB', country: 'US' });
    expect((await payWithVisa(sys, payment)).status).toBe(200);

    // A route with a parameter, answered 404: labelled by its template.
    expect((await client.get('/api/redemptions/5f0c4c5e-0000-4000-8000-000000000000')).status).toBe(404);
    await waitFor(async () => total(await scrape(urlOf(sys.apps.payments!)), 'purchases_total', { status: 'processing' }) >= 1, { what: 'the payment to be taken' });

    scraped.gateway = await scrape(urlOf(sys.apps.gateway!));
    for (const s of ALL_SERVICES) scraped[s] = await scrape(urlOf(sys.apps[s]!));
  }, 180_000);

  afterAll(() => sys?.stop());

  it('labels every series of a process with its service, and each process has the process defaults', () => {
    for (const s of [...ALL_SERVICES, 'gateway'] as const) {
      expect(new Set(of(s).map((x) => x.labels.service))).toEqual(new Set([s]));
      expect(total(of(s), 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
      expect(total(of(s), 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    }
  });

  it('times HTTP requests by route template, never the raw path, and not /metrics itself', () => {
    const gw = of('gateway');
    expect(total(gw, 'http_request_duration_seconds_count', { method: 'POST', route: '/api/register', status: '200' })).toBe(1);
    expect(total(gw, 'http_request_duration_seconds_count', { method: 'POST', route: '/api/verify-email', status: '200' })).toBe(1);
    expect(total(gw, 'http_request_duration_seconds_count', { method: 'GET', route: '/api/redemptions/:id', status: '404' })).toBe(1);
    // The postbacks the gateway streams to the ingestion service, by the mount path.
    expect(total(gw, 'http_request_duration_seconds_count', { method: 'GET', route: '/webhooks/offerwalls/*', status: '200' })).toBe(2);
    expect(total(gw, 'http_request_duration_seconds_bucket', { route: '/api/register', le: '+Inf' })).toBe(1);
    const routes = new Set(samples(gw, 'http_request_duration_seconds_count').map((x) => x.labels.route));
    expect([...routes].filter((r) => /[0-9a-f]{8}-[0-9a-f]{4}/.test(r))).toEqual([]);
    expect(routes.has('/metrics')).toBe(false);
    // At the ingestion service, the callback route by its template.
    expect(total(of('webhooks'), 'http_request_duration_seconds_count', { method: 'GET', route: '/webhooks/offerwalls/:provider', status: '200' })).toBe(2);
  });

  it('times RPC calls by pattern at the caller and at the service that answers', () => {
    expect(total(of('gateway'), 'rpc_client_duration_seconds_count', { pattern: 'identity.register', outcome: 'ok' })).toBe(1);
    expect(total(of('gateway'), 'rpc_client_duration_seconds_count', { pattern: 'rewards.get-redemption', outcome: 'not_found' })).toBe(1);
    expect(total(of('identity'), 'rpc_server_duration_seconds_count', { pattern: 'identity.register', outcome: 'ok' })).toBe(1);
    expect(total(of('identity'), 'rpc_server_duration_seconds_count', { pattern: 'identity.verify-email', outcome: 'ok' })).toBe(1);
    expect(total(of('rewards'), 'rpc_server_duration_seconds_count', { pattern: 'rewards.redeem-points', outcome: 'ok' })).toBe(1);
    expect(total(of('payments'), 'rpc_server_duration_seconds_count', { pattern: 'payments.create-esim-payment', outcome: 'ok' })).toBe(1);
  });

  it('counts event deliveries by outcome in each consumer, and what each relay published', () => {
    expect(total(of('identity'), 'outbox_published_events_total', { event: 'identity.user-registered.v1' })).toBe(1);
    expect(total(of('identity'), 'outbox_published_events_total', { event: 'identity.verification-code-issued.v1' })).toBe(1);
    expect(total(of('webhooks'), 'outbox_published_events_total', { event: 'webhooks.offerwall-postbacks-accepted.v1' })).toBe(1);
    expect(total(of('rewards'), 'event_consumer_deliveries_total', { event: 'identity.user-registered.v1', outcome: 'applied' })).toBe(1);
    expect(total(of('webhooks'), 'event_consumer_deliveries_total', { event: 'identity.user-registered.v1', outcome: 'applied' })).toBe(1);
    expect(total(of('rewards'), 'event_consumer_deliveries_total', { event: 'webhooks.offerwall-postbacks-accepted.v1', outcome: 'applied' })).toBe(1);
    expect(total(of('notifications'), 'event_consumer_deliveries_total', { event: 'identity.verification-code-issued.v1', outcome: 'applied' })).toBe(1);
    expect(total(of('esim'), 'event_consumer_deliveries_total', { event: 'rewards.points-reserved.v1', outcome: 'applied' })).toBe(1);
    expect(total(of('rewards'), 'event_consumer_duration_seconds_count', { event: 'identity.user-registered.v1' })).toBe(1);
  });

  it('reports the outbox backlog, its age and parked events, and each queue\'s lag and dead letters', () => {
    for (const s of ALL_SERVICES) {
      expect(samples(of(s), 'outbox_pending_events')).toHaveLength(1);
      expect(samples(of(s), 'outbox_oldest_pending_age_seconds')).toHaveLength(1);
      expect(total(of(s), 'outbox_parked_events')).toBe(0);
    }
    for (const s of ['rewards', 'notifications', 'webhooks', 'esim', 'payments', 'identity', 'gateway'] as const) {
      const queue = `${sys.ns.id}.${s}.events`;
      expect(samples(of(s), 'event_consumer_lag_messages', { queue })).toHaveLength(1);
      expect(samples(of(s), 'event_consumer_dead_letter_messages', { queue: `${queue}.dlq` })).toEqual([expect.objectContaining({ value: 0 })]);
    }
  });

  it('counts postback outcomes by wall, redemptions and purchases by status, and the email queue by state', () => {
    expect(total(of('webhooks'), 'postback_outcomes_total', { wall: 'cpx', outcome: 'accepted' })).toBe(1);
    expect(total(of('webhooks'), 'postback_outcomes_total', { wall: 'cpx', outcome: 'duplicate' })).toBe(1);
    expect(total(of('rewards'), 'redemptions_total', { status: 'processing' })).toBe(1);
    expect(total(of('rewards'), 'redemptions_total', { status: 'esim_activation_ready' })).toBe(1);
    expect(total(of('payments'), 'purchases_total', { status: 'pending' })).toBe(1);
    expect(total(of('payments'), 'purchases_total', { status: 'processing' })).toBe(1);
    expect(samples(of('notifications'), 'email_queue_jobs').map((x) => x.labels.state).sort()).toEqual(['active', 'delayed', 'failed', 'waiting']);
  });

  it('times and counts every provider call by provider, operation and outcome, with each breaker closed', () => {
    // The redemption's new line at KeepGo (esim), the payment's intent at Stripe (payments), the sign-up code by SMTP (notifications).
    const calls: [ServiceKey, string, string][] = [
      ['esim', 'keepgo', 'POST /line/create'],
      ['payments', 'stripe', 'paymentIntents.create'],
      ['notifications', 'smtp', 'send'],
    ];
    for (const [service, provider, operation] of calls) {
      expect(total(of(service), 'provider_requests_total', { provider, operation, outcome: 'ok' })).toBeGreaterThanOrEqual(1);
      expect(total(of(service), 'provider_request_duration_seconds_count', { provider, operation, outcome: 'ok' })).toBeGreaterThanOrEqual(1);
      expect(total(of(service), 'provider_request_duration_seconds_bucket', { provider, operation, outcome: 'ok', le: '+Inf' })).toBeGreaterThanOrEqual(1);
      expect(samples(of(service), 'provider_circuit_state')).toEqual([expect.objectContaining({ labels: expect.objectContaining({ provider }), value: 0 })]);
      expect(total(of(service), 'provider_requests_total', { provider, outcome: 'failed' })).toBe(0);
      expect(total(of(service), 'provider_requests_total', { provider, outcome: 'rejected' })).toBe(0);
    }
    expect(total(of('payments'), 'provider_requests_total', { provider: 'stripe', operation: 'paymentIntents.create' })).toBe(1);
    // The ICCID never becomes a label value.
    const operations = samples(of('esim'), 'provider_requests_total').map((x) => x.labels.operation);
    expect(operations.filter((o) => /\d{18}/.test(o))).toEqual([]);
  });

  it('answers only a bearer of METRICS_TOKEN when one is set', async () => {
    const token = 'scrape-token-0123456789';
    // One more esim replica, configured with a token.
    const guarded = await startEsim(sys.ns.env('esim', { HEALTH_PORT: '0', METRICS_TOKEN: token }));
    try {
      const url = urlOf(guarded);
      expect((await fetch(`${url}/metrics`)).status).toBe(401);
      expect((await fetch(`${url}/metrics`, { headers: { authorization: 'Bearer wrong-token-0123456789' } })).status).toBe(401);
      expect(total(await scrape(url, { headers: { authorization: `Bearer ${token}` } }), 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
      expect((await fetch(`${url}/health/live`)).status).toBe(200);
    } finally {
      await guarded.close();
    }
  });
});
