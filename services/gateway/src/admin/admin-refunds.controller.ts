import { Controller, Get, UseGuards } from '@nestjs/common';
import { AdminRefundsResponse, IdentityAdminRpc, PaymentsAdminRpc } from '@esim/contracts';
import { RpcClient } from '@esim/platform';
import { CurrentUserId } from '../sessions/auth.guard';
import { AdminAudit } from './admin-audit';
import { AdminGuard } from './admin.guard';

/** How many refunds the console shows. */
const LIMIT = 200;

/** Self-serve refunds in the admin console (docs/payments.md, "Refunds"): payments' list, with who asked for each. */
@Controller('api/admin')
@UseGuards(AdminGuard)
export class AdminRefundsController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly audit: AdminAudit,
  ) {}

  @Get('refunds')
  async list(@CurrentUserId() adminId: string): Promise<AdminRefundsResponse> {
    const { refunds } = await this.rpc.call(PaymentsAdminRpc.listRefunds, { limit: LIMIT });
    const userIds = [...new Set(refunds.map((r) => r.userId))];
    const users = userIds.length ? new Map((await this.rpc.call(IdentityAdminRpc.getUsers, { userIds })).users.map((u) => [u.id, u])) : new Map();
    this.audit.noteRead('refunds_viewed', adminId, { refunds: refunds.length });
    return {
      refunds: refunds.map((r) => {
        const u = users.get(r.userId);
        return { ...r, user: u ? { id: u.id, name: u.name, email: u.email } : null };
      }),
    };
  }
}
