import { Controller, Get, UseGuards } from '@nestjs/common';
import { OfferwallsResponse, RewardsRpc, Task, WebhooksRpc } from '@esim/contracts';
import { AppError, RpcClient } from '@esim/platform';
import { AuthGuard, CurrentUserId } from '../sessions/auth.guard';

/** The signed-in user's earning: task history (rewards) and the offer walls to earn on (the webhooks service, which holds their credentials). */
@Controller('api')
@UseGuards(AuthGuard)
export class TasksController {
  constructor(private readonly rpc: RpcClient) {}

  /** Newest first; a task the provider reversed has completed: false. */
  @Get('tasks')
  async tasks(@CurrentUserId() userId: string): Promise<Task[]> {
    return (await this.rpc.call(RewardsRpc.listTasks, { userId })).tasks;
  }

  @Get('offerwalls')
  offerwalls(@CurrentUserId() userId: string): Promise<OfferwallsResponse> {
    return this.rpc.call(WebhooksRpc.listOfferwalls, { userId });
  }

  /** The uid RapidoReach's wall is opened with: userId-appId-checksum. */
  @Get('rapidoreach/uid')
  async rapidoReachUid(@CurrentUserId() userId: string): Promise<{ uid: string }> {
    const { walls } = await this.rpc.call(WebhooksRpc.listOfferwalls, { userId });
    const wall = walls.find((w) => w.id === 'rapidoreach');
    if (!wall) throw new AppError('not_found', 'RapidoReach is not available.', { reason: 'offerwall_disabled' });
    return { uid: wall.uid };
  }
}
