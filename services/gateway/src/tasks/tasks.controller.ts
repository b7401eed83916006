import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { OfferwallsResponse, RewardsRpc, Task, TASK_PAGE_DEFAULT, TaskPage, TaskPageQuery, taskPageQuerySchema, WebhooksRpc } from '@esim/contracts';
import { AppError, RpcClient } from '@esim/platform';
import { ZodPipe } from '../common/zod.pipe';
import { AuthGuard } from '../sessions/auth.guard';

/**
 * The signed-in user's earning: task history (rewards) and the offer walls to earn on (the webhooks
 * service, which holds their credentials). The user travels as the RPCs' acting user (meta.userId).
 */
@Controller('api')
@UseGuards(AuthGuard)
export class TasksController {
  constructor(private readonly rpc: RpcClient) {}

  /** Newest first; a task the provider reversed has completed: false. */
  @Get('tasks')
  async tasks(): Promise<Task[]> {
    return (await this.rpc.call(RewardsRpc.listTasks, {})).tasks;
  }

  /** /history's missions a page at a time (the list above is the spec's shape, kept for its readers). */
  @Get('tasks/history')
  history(@Query(new ZodPipe(taskPageQuerySchema)) query: TaskPageQuery): Promise<TaskPage> {
    return this.rpc.call(RewardsRpc.listTaskPage, { cursor: query.cursor, limit: query.limit ?? TASK_PAGE_DEFAULT });
  }

  @Get('offerwalls')
  offerwalls(): Promise<OfferwallsResponse> {
    return this.rpc.call(WebhooksRpc.listOfferwalls, {});
  }

  /** The uid RapidoReach's wall is opened with: userId-appId-checksum. */
  @Get('rapidoreach/uid')
  async rapidoReachUid(): Promise<{ uid: string }> {
    const { walls } = await this.rpc.call(WebhooksRpc.listOfferwalls, {});
    const wall = walls.find((w) => w.id === 'rapidoreach');
    if (!wall) throw new AppError('offerwall_disabled', 'RapidoReach is not available.');
    return { uid: wall.uid };
  }
}
