import { Logger } from '@nestjs/common';
import { Job, Queue, Worker } from 'bullmq';
import type Redis from 'ioredis';
import { contextFrom, createRedisClient, Gauge, inSpan, Metrics, serviceTracer, SpanKind, traceHeaders, tracingEnabled } from '@esim/platform';
import type { NotificationsConfig } from '../config';
import { composeEmail, EmailJob, emailJobSchema } from '../templates/emails';
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

  constructor(private readonly config: NotificationsConfig, private readonly transport: MailTransport) {
    this.connection = createRedisClient(config, { maxRetriesPerRequest: null });
    const prefix = `${config.REDIS_PREFIX}bull`;
    this.queue = new Queue(QUEUE, { connection: this.connection, prefix });
    // A worker blocks on its connection waiting for jobs, so it needs one of its own.
    this.workerConnection = this.connection.duplicate();
    this.worker = new Worker(QUEUE, (job: Job) => this.deliver(job), { connection: this.workerConnection, prefix, concurrency: 4 });
    this.worker.on('failed', (job, err) => {
      const final = job && job.attemptsMade >= (job.opts.attempts ?? 1);
      this.log[final ? 'error' : 'warn'](`email ${job?.id} (${job?.data?.kind}) failed${final ? ' for good' : ', will retry'}: ${err.message}`);
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

  async enqueue(email: EmailJob, jobId: string): Promise<void> {
    // The trace of the event that asked for the email continues in the send (`trace`, beside the job's fields).
    await this.queue.add(email.kind, { ...emailJobSchema.parse(email), trace: traceHeaders() }, {
      jobId,
      attempts: this.config.EMAIL_ATTEMPTS,
      backoff: { type: 'exponential', delay: this.config.EMAIL_BACKOFF_MS },
      removeOnComplete: { age: 24 * 3600, count: 10_000 },
      removeOnFail: { age: 14 * 24 * 3600 },
    });
  }

  private async deliver(job: Job): Promise<void> {
    const email = emailJobSchema.parse(job.data);
    const trace = (job.data as { trace?: Record<string, string> }).trace;
    const span = tracingEnabled() && trace ? { kind: SpanKind.CLIENT, parent: contextFrom(trace), attributes: { 'email.kind': email.kind } } : undefined;
    await inSpan(this.tracer, 'email send', span, async () => {
      const rendered = composeEmail(email);
      await this.transport.send({ to: email.to, ...rendered });
    });
    this.log.log(`sent ${email.kind} email (job ${job.id})`);
  }

  async close(): Promise<void> {
    await this.worker.close();
    await this.queue.close();
    this.transport.close();
    for (const c of [this.workerConnection, this.connection]) await c.quit().catch(() => c.disconnect());
  }
}
