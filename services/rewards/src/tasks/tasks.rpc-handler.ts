import { Controller } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { RewardsRpc, RpcMeta, RpcRequest, RpcResponse, TASK_PAGE_DEFAULT } from '@esim/contracts';
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

  @RpcHandler(RewardsRpc.listTaskPage)
  page(request: RpcRequest<typeof RewardsRpc.listTaskPage>, meta: RpcMeta): Promise<RpcResponse<typeof RewardsRpc.listTaskPage>> {
    // One snapshot for the page and its totals: a credit landing between the two reads would count in one only.
    return this.db.transaction('REPEATABLE READ', (m) => this.tasks.pageFor(m, actingUserId(meta), request.cursor, request.limit ?? TASK_PAGE_DEFAULT));
  }
}
