import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { OfferwallId, Task, TaskType } from '@esim/contracts';
import { PreparedStatement } from '@esim/platform';
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

const TASK_COLUMNS = 'id, user_id, task_type, points_earned, provider, transaction_id, ledger_transfer_id, completed_at, reversed_at';

interface TaskRow {
  id: string;
  user_id: string;
  task_type: TaskType;
  points_earned: number;
  provider: OfferwallId;
  transaction_id: string;
  ledger_transfer_id: string;
  completed_at: Date;
  reversed_at: Date | null;
}

const toEntity = (r: TaskRow): TaskEntity => ({
  id: r.id,
  userId: r.user_id,
  taskType: r.task_type,
  pointsEarned: r.points_earned,
  provider: r.provider,
  transactionId: r.transaction_id,
  ledgerTransferId: r.ledger_transfer_id,
  completedAt: r.completed_at,
  reversedAt: r.reversed_at,
});

/** Prepared (PreparedStatement): run for every batch of credits, planned once per connection. */
const INSERT_TASKS = new PreparedStatement<TaskRow>(`INSERT INTO tasks (user_id, task_type, points_earned, provider, transaction_id, ledger_transfer_id)
  SELECT * FROM unnest($1::uuid[], $2::text[], $3::integer[], $4::text[], $5::text[], $6::uuid[])
  RETURNING ${TASK_COLUMNS}`);

/**
 * Credited offer-wall tasks, as the user's history shows them.
 *
 * The writes run in every batch of offer-wall credits, so they are raw SQL with one array per
 * column (as `Ledger.creditMany`): one statement with six parameters whatever the batch size, where
 * a repository insert builds a VALUES list of six parameters per row, and TypeORM's handling of
 * them was a large share of rewards' CPU under bench/postbacks.bench.mjs.
 */
@Injectable()
export class Tasks {
  /** Inserts the tasks of new credits (one statement); answers them in the same order. */
  async insertMany(m: EntityManager, tasks: NewTask[]): Promise<TaskEntity[]> {
    if (tasks.length === 0) return [];
    const rows = await INSERT_TASKS.run(m, [
      tasks.map((t) => t.userId),
      tasks.map((t) => t.taskType),
      tasks.map((t) => t.points),
      tasks.map((t) => t.provider),
      tasks.map((t) => t.transactionId),
      tasks.map((t) => t.ledgerTransferId),
    ]);
    // RETURNING promises no order; each task has its own ledger transfer (a unique column).
    const byTransfer = new Map(rows.map((r) => [r.ledger_transfer_id, toEntity(r)]));
    return tasks.map((t) => byTransfer.get(t.ledgerTransferId)!);
  }

  /** Marks the tasks the given credits created as reversed; answers them. */
  async markReversed(m: EntityManager, creditTransferIds: string[]): Promise<TaskEntity[]> {
    if (creditTransferIds.length === 0) return [];
    // An UPDATE … RETURNING answers [rows, count] through TypeORM.
    const [rows]: [TaskRow[], number] = await m.query(
      `UPDATE tasks SET reversed_at = now() WHERE ledger_transfer_id = ANY($1::uuid[]) RETURNING ${TASK_COLUMNS}`,
      [creditTransferIds],
    );
    return rows.map(toEntity);
  }

  async listFor(m: EntityManager, userId: string): Promise<Task[]> {
    const rows = await m.getRepository(TaskEntity).find({
      where: { userId },
      order: { completedAt: 'DESC', id: 'ASC' },
      take: TASK_LIST_LIMIT,
    });
    // The offer's name, kept with the credit where the wall sent one (OfferwallCreditsService.noteDetails).
    const named: Array<{ credit_id: string; offer_name: string }> = rows.length
      ? await m.query(`SELECT credit_id, offer_name FROM offerwall_credit_details WHERE credit_id = ANY($1) AND offer_name IS NOT NULL`, [rows.map((r) => r.ledgerTransferId)])
      : [];
    const names = new Map(named.map((n) => [n.credit_id, n.offer_name]));
    return rows.map((r) => ({ ...toTask(r), offerName: names.get(r.ledgerTransferId) ?? null }));
  }
}
