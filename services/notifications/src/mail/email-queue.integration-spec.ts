import type { INestApplication } from '@nestjs/common';
import { Metrics } from '@esim/platform';
import { TestMailServer, TestNamespace, waitFor } from '@esim/testing';
import { startNotifications } from '../app';
import { EmailQueue } from './email-queue';

const FAILURES = 3;

/**
 * The SMTP circuit breaker, through the real email queue (BullMQ on Redis) and the real SMTP
 * transport, against a real SMTP server that refuses mail on command: emails sent while the
 * server is down are held, not hammered against it nor given up, and each arrives once when it
 * is back.
 */
describe('emails while the SMTP server is down (circuit breaker)', () => {
  const ns = new TestNamespace();
  const server = new TestMailServer();
  let app: INestApplication;
  let emails: EmailQueue;

  const series = async (name: string) => (await app.get(Metrics).registry.getSingleMetric(name)!.get()).values.filter((v) => v.labels.provider === 'smtp');
  const counted = async (outcome: string) => (await series('provider_requests_total')).filter((v) => v.labels.outcome === outcome).reduce((n, v) => n + v.value, 0);
  const circuit = async () => (await series('provider_circuit_state'))[0]?.value;
  const send = (to: string, id: string) => emails.enqueue({ kind: 'passwordChanged', to, locale: 'pt', data: {} }, id);

  beforeAll(async () => {
    await server.start();
    app = await startNotifications(
      ns.env('notifications', {
        ...server.env(),
        // Enough attempts that an email outlives the outage only if the breaker spares them.
        EMAIL_ATTEMPTS: String(FAILURES + 1),
        EMAIL_BACKOFF_MS: '50',
        SMTP_BREAKER_FAILURES: String(FAILURES),
        SMTP_BREAKER_HALF_OPEN_MS: '3000',
      }),
    );
    emails = app.get(EmailQueue);
  });
  afterAll(async () => {
    await app?.close();
    await server.stop();
    await ns.cleanup();
  });

  it('opens after consecutive refusals, holds the emails without sending or spending their attempts, and delivers each once when the server is back', async () => {
    server.fail(421);
    const to = ['a@breaker.test', 'b@breaker.test', 'c@breaker.test'];
    await send(to[0], 'breaker-a');

    // The first email's retries reach the server FAILURES times, then the breaker opens.
    await waitFor(async () => (await circuit()) === 2, { timeoutMs: 15_000, what: 'the SMTP breaker to open' });
    expect(server.attempts).toBe(FAILURES);
    expect(await counted('failed')).toBe(FAILURES);

    // Two more while it is open: refused unsent, held in the queue.
    await send(to[1], 'breaker-b');
    await send(to[2], 'breaker-c');
    await waitFor(async () => (await counted('rejected')) >= 3, { timeoutMs: 10_000, what: 'the three emails to be held by the breaker' });
    expect(server.attempts).toBe(FAILURES);
    expect(server.messages).toHaveLength(0);

    // Back: the half-open probe goes through, the breaker closes, every email arrives once.
    server.recover();
    for (const address of to) await server.waitForMail(address, { timeoutMs: 20_000 });
    await waitFor(async () => (await circuit()) === 0, { what: 'the SMTP breaker to close' });
    for (const address of to) expect(server.mailsTo(address)).toHaveLength(1);
    expect(await counted('ok')).toBe(3);
    // Nothing was given up: the outage spent none of the held emails' attempts.
    await waitFor(async () => {
      const counts = await (emails as unknown as { queue: { getJobCounts(...s: string[]): Promise<Record<string, number>> } }).queue.getJobCounts('completed', 'failed');
      return counts.completed === 3 && counts.failed === 0;
    }, { what: 'the three jobs to complete' });
  });
});
