import { Injectable } from '@nestjs/common';
import { EntityManager, In } from 'typeorm';
import type { OfferwallId, Task, TaskType } from '@esim/contracts';
import { TaskEntity } from './task.entity';

/** The history list is capped; a user with more sees their most recent tasks. */
export const TASK_LIST_LIMIT = 1000;

export interface NewTask {
  userId: string;
  taskType: TaskType;
  points: number;
  provider: OfferwallId;
  transactionId: string;
  ledgerTransferId: string;
}

const toTask = (t: TaskEntity): Task => ({
  id: t.id,
  userId: t.userId,
  taskType: t.taskType,
  pointsEarned: t.pointsEarned,
  completedAt: t.completedAt.toISOString(),
  completed: t.reversedAt === null,
  provider: t.provider,
  reversedAt: t.reversedAt?.toISOString() ?? null,
});

/** Credited offer-wall tasks, as the user's history shows them. */
@Injectable()
export class Tasks {
  /** Inserts the tasks of new credits (one statement); answers them in the same order. */
  async insertMany(m: EntityManager, tasks: NewTask[]): Promise<TaskEntity[]> {
    if (tasks.length === 0) return [];
    const rows = tasks.map((t) =>
      m.create(TaskEntity, {
        userId: t.userId,
        taskType: t.taskType,
        pointsEarned: t.points,
        provider: t.provider,
        transactionId: t.transactionId,
        ledgerTransferId: t.ledgerTransferId,
      }),
    );
    // insert() fills in the generated id and completed_at from RETURNING.
    await m.getRepository(TaskEntity).insert(rows);
    return rows;
  }

  /** Marks the tasks the given credits created as reversed; answers them. */
  async markReversed(m: EntityManager, creditTransferIds: string[]): Promise<TaskEntity[]> {
    if (creditTransferIds.length === 0) return [];
    await m
      .createQueryBuilder()
      .update(TaskEntity)
      .set({ reversedAt: () => 'now()' })
      .where({ ledgerTransferId: In(creditTransferIds) })
      .execute();
    return m.getRepository(TaskEntity).findBy({ ledgerTransferId: In(creditTransferIds) });
  }

  async listFor(m: EntityManager, userId: string): Promise<Task[]> {
    const rows = await m.getRepository(TaskEntity).find({
      where: { userId },
      order: { completedAt: 'DESC', id: 'ASC' },
      take: TASK_LIST_LIMIT,
    });
    return rows.map(toTask);
  }
}
