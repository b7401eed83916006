import { Controller } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { RewardsRpc, RpcResponse } from '@esim/contracts';
import { RpcHandler } from '@esim/platform';
import { Tasks } from './tasks';

@Controller()
export class TasksRpcHandler {
  constructor(
    private readonly db: DataSource,
    private readonly tasks: Tasks,
  ) {}

  @RpcHandler(RewardsRpc.listTasks)
  async list({ userId }: { userId: string }): Promise<RpcResponse<typeof RewardsRpc.listTasks>> {
    return { tasks: await this.tasks.listFor(this.db.manager, userId) };
  }
}
