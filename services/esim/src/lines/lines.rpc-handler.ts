import { Controller } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { EsimRpc, RpcMeta, RpcRequest, RpcResponse } from '@esim/contracts';
import { actingUserId, RpcHandler } from '@esim/platform';
import { EsimLines } from './esim-lines';

@Controller()
export class LinesRpcHandler {
  constructor(
    private readonly db: DataSource,
    private readonly lines: EsimLines,
  ) {}

  @RpcHandler(EsimRpc.listLines)
  async list(_: RpcRequest<typeof EsimRpc.listLines>, meta: RpcMeta): Promise<RpcResponse<typeof EsimRpc.listLines>> {
    return { lines: await this.lines.listFor(this.db.manager, actingUserId(meta)) };
  }
}
