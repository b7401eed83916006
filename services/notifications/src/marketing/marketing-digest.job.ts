import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Queue, Worker } from 'bullmq';
import type Redis from 'ioredis';
import { CONFIG, createRedisClient } from '@esim/platform';
import type { NotificationsConfig } from '../config';
import { MarketingDigest } from './marketing-digest.service';

const QUEUE = 'marketing-digest';
const SCHEDULER = 'weekly-digest';

/**
 * Runs the promotional digest once per MARKETING_DIGEST_EVERY_SECONDS with a BullMQ job scheduler:
 * every replica upserts the same scheduler id, Redis keeps one, and each run is one job that one
 * worker takes, so replicas do not each send it. MarketingDigest's table makes a run again (a
 * retry, a restart) send nothing twice.
 */
@Injectable()
export class MarketingDigestJob implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly log = new Logger('MarketingDigestJob');
  private readonly connection: Redis;
  private readonly workerConnection: Redis;
  readonly queue: Queue;
  private worker?: Worker;

  constructor(
    private readonly digest: MarketingDigest,
    @Inject(CONFIG) private readonly config: NotificationsConfig,
  ) {
    this.connection = createRedisClient(config, { maxRetriesPerRequest: null });
    this.workerConnection = this.connection.duplicate();
    this.queue = new Queue(QUEUE, { connection: this.connection, prefix: `${config.REDIS_PREFIX}bull` });
  }

  async onApplicationBootstrap(): Promise<void> {
    const every = this.config.MARKETING_DIGEST_EVERY_SECONDS * 1000;
    await this.queue.upsertJobScheduler(
      SCHEDULER,
      { every },
      { name: 'digest', opts: { attempts: 3, backoff: { type: 'exponential', delay: 60_000 }, removeOnComplete: 10, removeOnFail: 50 } },
    );
    this.worker = new Worker(
      QUEUE,
      // The period is the one the run was due in, so a run that waited for a worker still counts for it.
      async (job) => this.digest.run(this.digest.periodOf(new Date(job.timestamp + (job.opts.delay ?? 0)))),
      { connection: this.workerConnection, prefix: `${this.config.REDIS_PREFIX}bull`, concurrency: 1 },
    );
    this.worker.on('failed', (job, err) => this.log.warn(`digest run ${job?.id} failed: ${err.message}`));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.worker?.close();
    await this.queue.close();
    for (const c of [this.workerConnection, this.connection]) await c.quit().catch(() => c.disconnect());
  }
}
