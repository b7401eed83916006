import { Logger } from '@nestjs/common';
import { DelayedError, Job, Queue, Worker } from 'bullmq';
import type Redis from 'ioredis';
import {
  contextFrom,
  createRedisClient,
  Gauge,
  inSpan,
  Metrics,
  ProviderCircuitOpenError,
  serviceTracer,
  SpanKind,
  traceHeaders,
  tracingEnabled,
} from '@esim/platform';
import type { NotificationsConfig } from '../config';
import { composeEmail, EmailJob, emailJobSchema } from '../templates/emails';
import type { SentEmails } from '../sent-emails/sent-emails';
import { MailTransport } from './mail-transport';

const QUEUE = 'email';

/**
 * Emails go through a BullMQ queue so a mail server that is down or slow delays them instead of
 * losing them: each job is retried with exponential backoff. The job id is the id of the event
 * that asked for the email, so a redelivered event never sends twice.
 */
export class EmailQueue {
  private readonly log = new Logger('EmailQueue');
  private readonly connection: Redis;
  private readonly workerConnection: Redis;
  private readonly queue: Queue;
  private readonly worker: Worker;
  private readonly tracer = serviceTracer('notifications');

  constructor(
    private readonly config: NotificationsConfig,
    private readonly transport: MailTransport,
    /** Where each sent email of an account is recorded (what and when), for the account's data export. */
    private readonly sent?: SentEmails,
  ) {
    this.connection = createRedisClient(config, { maxRetriesPerRequest: null });
    const prefix = `${config.REDIS_PREFIX}bull`;
    this.queue = new Queue(QUEUE, { connection: this.connection, prefix });
    // A worker blocks on its connection waiting for jobs, so it needs one of its own.
    this.workerConnection = this.connection.duplicate();
    this.worker = new Worker(QUEUE, (job: Job, token?: string) => this.deliver(job, token), { connection: this.workerConnection, prefix, concurrency: 4 });
    this.worker.on('failed', (job, err) => {
      const final = job && job.attemptsMade >= (job.opts.attempts ?? 1);
      this.log[final ? 'error' : 'warn'](
        `email ${job?.id} (${job?.data?.kind}) failed${final ? ' for good' : ', will retry'}: ${err.message}`,
      );
      // A job kept for its failure keeps no address, name or code (docs/accounts.md, "Deletion").
      if (final && job) void job.updateData(EmailQueue.spent(job)).catch(() => undefined);
    });
  }

  /** `email_queue_jobs{state}`, read from BullMQ when scraped. */
  watch(metrics: Metrics): void {
    const queue = this.queue;
    metrics.gauge({
      name: 'email_queue_jobs',
      help: 'Email jobs in the BullMQ queue by state: waiting (to be sent), active (being sent), delayed (waiting for a retry after a failure), failed (gave up after EMAIL_ATTEMPTS).',
      labelNames: ['state'],
      async collect(this: Gauge<'state'>) {
        this.reset();
        const states = ['waiting', 'active', 'delayed', 'failed'] as const;
        const counts = await queue.getJobCounts(...states).catch(() => undefined);
        // (BullMQ answers `paused` beside `waiting`, whatever was asked.)
        if (counts) for (const state of states) this.set({ state }, counts[state] ?? 0);
      },
    });
  }

  /**
   * `recipientId` names the account the email goes to, where there is one (a sign-up code goes to
   * an address with no account yet): a deleted account's emails still queued are dropped by it.
   */
  async enqueue(email: EmailJob, jobId: string, recipientId?: string): Promise<void> {
    // The trace of the event that asked for the email continues in the send (`trace`, beside the job's fields).
    await this.queue.add(
      email.kind,
      { ...emailJobSchema.parse(email), trace: traceHeaders(), recipientId },
      {
        jobId,
        attempts: this.config.EMAIL_ATTEMPTS,
        backoff: { type: 'exponential', delay: this.config.EMAIL_BACKOFF_MS },
        removeOnComplete: { age: 24 * 3600, count: 10_000 },
        removeOnFail: { age: 14 * 24 * 3600 },
      },
    );
  }

  private async deliver(job: Job, token?: string): Promise<void> {
    try {
      await this.send(job);
    } catch (err) {
      // The mail server's breaker is open: this email was not handed over. It waits for the breaker's
      // probe instead of spending one of its EMAIL_ATTEMPTS (BullMQ: a job moved to delayed and
      // DelayedError thrown keeps its attempt count), so an outage loses no email however long.
      if (err instanceof ProviderCircuitOpenError && token) {
        await job.moveToDelayed(Date.now() + this.config.SMTP_BREAKER_HALF_OPEN_MS, token);
        throw new DelayedError();
      }
      throw err;
    }
  }

  private async send(job: Job): Promise<void> {
    const email = emailJobSchema.parse(job.data);
    const trace = (job.data as { trace?: Record<string, string> }).trace;
    const span =
      tracingEnabled() && trace
        ? { kind: SpanKind.CLIENT, parent: contextFrom(trace), attributes: { 'email.kind': email.kind } }
        : undefined;
    const subject = await inSpan(this.tracer, 'email send', span, async () => {
      const rendered = composeEmail(email);
      await this.transport.send({ to: email.to, ...rendered });
      return rendered.subject;
    });
    const recipientId = (job.data as { recipientId?: string }).recipientId;
    if (recipientId && this.sent) await this.sent.record(String(job.id), recipientId, email.kind, subject);
    // The job stays a day for its id (a redelivered event must not send again), but what it said and
    // to whom has gone out: it keeps only its kind and account.
    await job.updateData(EmailQueue.spent(job));
    this.log.log(`sent ${email.kind} email (job ${job.id})`);
  }

  /** What a sent or abandoned job keeps: its kind and the account, never the address, name or content. */
  private static spent(job: Job): { kind: string; recipientId?: string } {
    const data = job.data as { kind: string; recipientId?: string };
    return { kind: data.kind, recipientId: data.recipientId };
  }

  /**
   * Drops every email of a deleted account still held (waiting, delayed for a retry, kept after a
   * failure or a send); one being sent at this moment finishes and is stripped like any sent one.
   */
  async forget(recipientId: string): Promise<number> {
    let removed = 0;
    const jobs = await this.queue.getJobs(['waiting', 'delayed', 'prioritized', 'paused', 'failed', 'completed']);
    for (const job of jobs) {
      if (!job || (job.data as { recipientId?: string }).recipientId !== recipientId) continue;
      if (
        await job.remove().then(
          () => true,
          () => false,
        )
      )
        removed++;
    }
    return removed;
  }

  async close(): Promise<void> {
    await this.worker.close();
    await this.queue.close();
    this.transport.close();
    for (const c of [this.workerConnection, this.connection]) await c.quit().catch(() => c.disconnect());
  }
}
