import { Controller } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { RewardsRpc, RpcMeta, RpcRequest, RpcResponse } from '@esim/contracts';
import { actingUserId, RpcHandler } from '@esim/platform';
import { Tasks } from './tasks';

@Controller()
export class TasksRpcHandler {
  constructor(
    private readonly db: DataSource,
    private readonly tasks: Tasks,
  ) {}

  @RpcHandler(RewardsRpc.listTasks)
  async list(_: RpcRequest<typeof RewardsRpc.listTasks>, meta: RpcMeta): Promise<RpcResponse<typeof RewardsRpc.listTasks>> {
    return { tasks: await this.tasks.listFor(this.db.manager, actingUserId(meta)) };
  }
}
