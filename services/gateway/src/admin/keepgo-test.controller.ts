import { Controller, Get, UseGuards } from '@nestjs/common';
import { EsimAdminRpc, KeepgoTestResponse } from '@esim/contracts';
import { RpcClient } from '@esim/platform';
import { CurrentUserId } from '../sessions/auth.guard';
import { AdminAudit } from './admin-audit';
import { AdminGuard } from './admin.guard';

/**
 * The provider adapter retries and times out on its own (KEEPGO_TIMEOUT_MS × (1 + KEEPGO_RETRIES)
 * with the defaults is about 31 s when KeepGo hangs): the call waits that long for esim's verdict.
 */
const TEST_TIMEOUT_MS = 40_000;

/** `GET /api/admin/keepgo/test`: the supplier connection test, answered in the shape the spec names. */
@Controller('api/admin')
@UseGuards(AdminGuard)
export class KeepgoTestController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly audit: AdminAudit,
  ) {}

  @Get('keepgo/test')
  async test(@CurrentUserId() adminId: string): Promise<KeepgoTestResponse> {
    const r = await this.rpc.call(EsimAdminRpc.testProvider, {}, { timeoutMs: TEST_TIMEOUT_MS });
    this.audit.noteRead('keepgo_tested', adminId, { connected: String(r.ok), mode: r.mode });
    return {
      success: r.ok,
      message: r.message,
      mode: r.mode,
      lines: { data: { sim_cards: { total: r.total } } },
      apiStatus: { lines: r.ok ? 'connected' : 'failed' },
    };
  }
}
