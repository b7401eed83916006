import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { context, trace } from '@opentelemetry/api';
import { createLogger, RequestContext } from '@esim/platform';
import { extractCode, waitFor } from '@esim/testing';
import { InMemoryTracing, ReadableSpan, startInMemoryTracing } from '../../libs/platform/src/observability/in-memory-tracing';
import { uniqueEmail } from '../support/accounts';
import { startSystem, System } from '../support/system';

const serviceOf = (s: ReadableSpan) => s.instrumentationScope.name;
const parentOf = (s: ReadableSpan) => s.parentSpanContext?.spanId;

/** The spans of one trace, once `done` says all that is expected has ended. */
async function traceOf(tracing: InMemoryTracing, traceId: string, done: (spans: ReadableSpan[]) => boolean, what: string): Promise<ReadableSpan[]> {
  return waitFor(
    () => {
      const spans = tracing.spans().filter((s) => s.spanContext().traceId === traceId);
      return done(spans) ? spans : undefined;
    },
    { what, timeoutMs: 30_000 },
  );
}

const has = (spans: ReadableSpan[], service: string, name: string) => spans.some((s) => serviceOf(s) === service && s.name === name);

/**
 * Traces with an in-memory exporter, over the whole system booted in this process: HTTP at the
 * gateway → RPC → the outbox → events → the email sent, one trace, each span named by the service
 * that made it.
 */
describe('traces across services', () => {
  let tracing: InMemoryTracing;
  let sys: System;

  beforeAll(async () => {
    tracing = startInMemoryTracing();
    sys = await startSystem({ services: ['identity', 'rewards', 'notifications', 'webhooks'] });
  });
  afterAll(async () => {
    await sys?.stop();
    await tracing?.stop();
  });

  it('one sign-up is one trace spanning the gateway, identity, notifications and rewards', async () => {
    // The sign-up's two requests carry the client's trace, as an instrumented SPA sends it.
    const traceId = randomBytes(16).toString('hex');
    const clientSpan = randomBytes(8).toString('hex');
    const headers = { traceparent: `00-${traceId}-${clientSpan}-01` };
    const client = sys.client();
    const email = uniqueEmail('traced');
    const password = 'correct horse battery';
    const reg = await client.post('/api/register', { name: 'Ana', email, password, acceptTerms: true, acceptPrivacy: true, locale: 'en' }, { headers });
    expect(reg.status).toBe(200);
    const code = extractCode(await sys.mail.waitForMail(email));
    const verified = await client.post('/api/verify-email', { email, code, password, name: 'Ana' }, { headers });
    expect(verified.status).toBe(200);

    const spans = await traceOf(
      tracing,
      traceId,
      (s) => has(s, 'notifications', 'email send') && has(s, 'rewards', 'identity.user-registered.v1 process') && has(s, 'webhooks', 'identity.user-registered.v1 process'),
      'the sign-up trace to reach notifications and rewards',
    );
    expect(new Set(spans.map(serviceOf))).toEqual(new Set(['gateway', 'identity', 'notifications', 'rewards', 'webhooks']));
    // HTTP → RPC → outbox → events → email, each hop a child of the one before.
    for (const [service, name] of [
      ['gateway', 'POST /api/register'],
      ['gateway', 'identity.register'],
      ['identity', 'identity.register'],
      ['identity', 'identity.verification-code-issued.v1 publish'],
      ['notifications', 'identity.verification-code-issued.v1 process'],
      ['notifications', 'email send'],
      ['gateway', 'POST /api/verify-email'],
      ['identity', 'identity.verify-email'],
      ['identity', 'identity.user-registered.v1 publish'],
      ['rewards', 'identity.user-registered.v1 process'],
    ]) {
      expect(has(spans, service, name)).toBe(true);
    }
    // One tree: every span's parent is in the trace, or is the client's own span.
    const ids = new Set([clientSpan, ...spans.map((s) => s.spanContext().spanId)]);
    expect(spans.filter((s) => !ids.has(parentOf(s)!)).map((s) => `${serviceOf(s)} ${s.name}`)).toEqual([]);
    const byId = new Map(spans.map((s) => [s.spanContext().spanId, s]));
    const chain = (s: ReadableSpan | undefined): string[] => (s ? [...chain(byId.get(parentOf(s)!)), `${serviceOf(s)}: ${s.name}`] : []);
    expect(chain(spans.find((s) => serviceOf(s) === 'rewards' && s.name === 'identity.user-registered.v1 process'))).toEqual([
      'gateway: POST /api/verify-email',
      'gateway: identity.verify-email',
      'identity: identity.verify-email',
      'identity: identity.user-registered.v1 publish',
      'rewards: identity.user-registered.v1 process',
    ]);
    // Nothing this sign-up caused went to another trace.
    const correlationIds = new Set([reg.headers.get('x-correlation-id'), verified.headers.get('x-correlation-id')]);
    const elsewhere = tracing.spans().filter((s) => correlationIds.has(s.attributes.correlation_id as string) && s.spanContext().traceId !== traceId);
    expect(elsewhere).toEqual([]);
  });

  it('a request without a caller\'s trace starts its own at the gateway', async () => {
    const client = sys.client();
    const email = uniqueEmail('untraced');
    const reg = await client.post('/api/register', { name: 'Bo', email, password: 'correct horse battery', acceptTerms: true, acceptPrivacy: true, locale: 'pt' });
    expect(reg.status).toBe(200);
    const correlationId = reg.headers.get('x-correlation-id');
    const root = await waitFor(() => tracing.spans().find((s) => s.name === 'POST /api/register' && s.attributes.correlation_id === correlationId), { what: 'the request span' });
    expect(parentOf(root)).toBeUndefined();
    expect(root.attributes['http.route']).toBe('/api/register');
    expect(root.attributes['http.response.status_code']).toBe(200);
    const spans = await traceOf(tracing, root.spanContext().traceId, (s) => has(s, 'notifications', 'email send'), 'the email to join the trace');
    expect(new Set(spans.map(serviceOf))).toEqual(new Set(['gateway', 'identity', 'notifications']));
  });

  it('writes the correlation id and the trace id together in log lines', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const log = createLogger('identity', 'info', 'json', sink);
    const span = trace.getTracer('identity').startSpan('work');
    await RequestContext.run({ correlationId: 'corr-12345678' }, () => context.with(trace.setSpan(context.active(), span), async () => log.info('inside')));
    span.end();
    log.info('outside');
    const [inside, outside] = lines.map((l) => JSON.parse(l));
    expect(inside).toMatchObject({ msg: 'inside', correlationId: 'corr-12345678', traceId: span.spanContext().traceId, spanId: span.spanContext().spanId });
    expect(outside.traceId).toBeUndefined();
    expect(outside.correlationId).toBeUndefined();
  });
});
