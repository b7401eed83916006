import { Module } from '@nestjs/common';
import { TasksController } from './tasks.controller';

/** /api/tasks, /api/offerwalls, /api/rapidoreach/uid (the admin stat cards are in the admin module). */
@Module({
  controllers: [TasksController],
})
export class TasksModule {}
