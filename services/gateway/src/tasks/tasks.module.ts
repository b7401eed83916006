import { Module } from '@nestjs/common';
import { AdminModule } from '../admin/admin.module';
import { AdminStatsController } from './admin-stats.controller';
import { TasksController } from './tasks.controller';

/** /api/tasks, /api/offerwalls, /api/rapidoreach/uid and /api/admin/stats. */
@Module({
  imports: [AdminModule],
  controllers: [TasksController, AdminStatsController],
})
export class TasksModule {}
