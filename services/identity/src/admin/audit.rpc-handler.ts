import { Controller } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AuditRpc, RpcMeta, RpcRequest, RpcResponse } from '@esim/contracts';
import { RpcHandler } from '@esim/platform';
import { requireAdmin } from './admin-grants';
import { AuditTrail } from './audit-trail';

/**
 * The admin audit trail: written by the gateway for each admin action, read on /admin. `record` and
 * `list` are admin-only RPCs (the RPC server refuses anyone else); `recordOutcome` is checked here.
 */
@Controller()
export class AuditRpcHandler {
  constructor(
    private readonly db: DataSource,
    private readonly trail: AuditTrail,
  ) {}

  @RpcHandler(AuditRpc.record)
  async record(req: RpcRequest<typeof AuditRpc.record>, meta: RpcMeta): Promise<RpcResponse<typeof AuditRpc.record>> {
    await this.trail.record(meta.userId!, req);
    return { id: req.id };
  }

  @RpcHandler(AuditRpc.recordOutcome)
  async recordOutcome(req: RpcRequest<typeof AuditRpc.recordOutcome>, meta: RpcMeta): Promise<RpcResponse<typeof AuditRpc.recordOutcome>> {
    // Not re-checked as admin: the outcome of an action that began (as an admin) is always recorded.
    if (!meta.userId) await requireAdmin(this.db, meta.userId);
    await this.trail.recordOutcome(meta.userId!, req);
    return {};
  }

  @RpcHandler(AuditRpc.list)
  async list({ before, limit }: RpcRequest<typeof AuditRpc.list>): Promise<RpcResponse<typeof AuditRpc.list>> {
    return this.trail.list(before, limit);
  }
}
