import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { z } from 'zod';
import { AuditPage, auditQuerySchema, AuditRpc } from '@esim/contracts';
import { RpcClient } from '@esim/platform';
import { ZodPipe } from '../common/zod.pipe';
import { AdminGuard } from './admin.guard';

/** `GET /api/admin/audit`: the append-only trail of admin actions, newest first. */
@Controller('api/admin')
@UseGuards(AdminGuard)
export class AuditController {
  constructor(private readonly rpc: RpcClient) {}

  @Get('audit')
  async list(@Query(new ZodPipe(auditQuerySchema)) query: z.infer<typeof auditQuerySchema>): Promise<AuditPage> {
    const { entries, nextCursor } = await this.rpc.call(AuditRpc.list, { before: query.before, limit: query.limit });
    return { entries: entries.map(({ seq: _seq, ...entry }) => entry), nextCursor };
  }
}
