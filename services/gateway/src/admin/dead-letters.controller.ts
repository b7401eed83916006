import { Controller, Delete, Get, HttpCode, Logger, Param, Post, UseGuards } from '@nestjs/common';
import { z } from 'zod';
import {
  DeadLetterActionResponse,
  deadLetterParamsSchema,
  DeadLettersResponse,
  deadLetterServiceParamsSchema,
  SERVICE_PORTS,
  ServiceName,
  SERVICES,
} from '@esim/contracts';
import { AppError, DeadLetters } from '@esim/platform';
import { ZodPipe } from '../common/zod.pipe';
import { CurrentUserId } from '../sessions/auth.guard';
import { AdminAudit } from './admin-audit';
import { AdminGuard } from './admin.guard';

/** Messages shown per queue (the oldest); the count says how many there are. */
const SHOWN = 20;

/** The processes that consume events, each with its dead-letter queue. */
const CONSUMERS = SERVICES.filter((s) => SERVICE_PORTS[s].consumes.length > 0);

const notThere = () => new AppError('dead_letter_not_found', 'That message is not in the dead-letter queue (any more).');

/**
 * Each consumer's dead-letter queue (docs/admin.md, "Dead letters"): the events its handler gave
 * up on, with the last error, and replay or discard. The gateway reads the queues itself through
 * the platform's DeadLetters (they are broker infrastructure, the same for every service); a
 * replayed event goes back to its consumer's own queue and the consumer's inbox still applies it
 * once. Replays and discards are written to the audit trail before they happen.
 */
@Controller('api/admin')
@UseGuards(AdminGuard)
export class DeadLettersController {
  private readonly log = new Logger('DeadLetters');

  constructor(
    private readonly deadLetters: DeadLetters,
    private readonly audit: AdminAudit,
  ) {}

  @Get('dead-letters')
  async list(@CurrentUserId() adminId: string): Promise<DeadLettersResponse> {
    const queues = await Promise.all(CONSUMERS.map(async (service) => ({ service, ...(await this.deadLetters.list(service, SHOWN)) })));
    this.audit.noteRead('dead_letters_viewed', adminId, { total: queues.reduce((n, q) => n + q.count, 0) });
    return { queues };
  }

  @HttpCode(200)
  @Post('dead-letters/:service/:messageId/replay')
  async replay(@CurrentUserId() adminId: string, @Param(new ZodPipe(deadLetterParamsSchema)) p: z.infer<typeof deadLetterParamsSchema>): Promise<DeadLetterActionResponse> {
    const service = consumer(p.service);
    const replayed = await this.audit.run('dead_letter_replayed', adminId, { type: 'dead_letter', id: p.messageId }, { service }, async () => {
      const n = await this.deadLetters.replay(service, p.messageId);
      if (n === 0) throw notThere();
      return n;
    });
    return { service, replayed, discarded: 0 };
  }

  @HttpCode(200)
  @Post('dead-letters/:service/replay')
  async replayAll(@CurrentUserId() adminId: string, @Param(new ZodPipe(deadLetterServiceParamsSchema)) p: z.infer<typeof deadLetterServiceParamsSchema>): Promise<DeadLetterActionResponse> {
    const service = consumer(p.service);
    const replayed = await this.audit.run('dead_letters_replayed', adminId, { type: 'dead_letter_queue', id: service }, { service }, () => this.deadLetters.replayAll(service), (n) => `${n} replayed`);
    this.log.warn(`${replayed} dead letters of ${service} replayed by ${adminId}`);
    return { service, replayed, discarded: 0 };
  }

  @Delete('dead-letters/:service/:messageId')
  async discard(@CurrentUserId() adminId: string, @Param(new ZodPipe(deadLetterParamsSchema)) p: z.infer<typeof deadLetterParamsSchema>): Promise<DeadLetterActionResponse> {
    const service = consumer(p.service);
    const discarded = await this.audit.run('dead_letter_discarded', adminId, { type: 'dead_letter', id: p.messageId }, { service }, async () => {
      const n = await this.deadLetters.discard(service, p.messageId);
      if (n === 0) throw notThere();
      return n;
    });
    return { service, replayed: 0, discarded };
  }
}

function consumer(service: ServiceName): ServiceName {
  if (!CONSUMERS.includes(service)) throw new AppError('no_dead_letter_queue', `${service} consumes no events: it has no dead-letter queue.`);
  return service;
}
