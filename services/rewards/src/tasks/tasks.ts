import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { OfferwallId, Task, TaskType } from '@esim/contracts';

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

export interface PaidTransaction {
  transactionId: string;
  points: number;
  completedAt: Date;
  reversed: boolean;
}

interface TaskRow {
  id: string;
  user_id: string;
  task_type: TaskType;
  points_earned: number;
  provider: OfferwallId;
  completed_at: Date;
  reversed_at: Date | null;
}

const toTask = (r: TaskRow): Task => ({
  id: r.id,
  userId: r.user_id,
  taskType: r.task_type,
  pointsEarned: r.points_earned,
  completedAt: r.completed_at.toISOString(),
  completed: r.reversed_at === null,
  provider: r.provider,
  reversedAt: r.reversed_at?.toISOString() ?? null,
});

/** Credited offer-wall tasks, as the user's history shows them. */
@Injectable()
export class Tasks {
  async insert(m: EntityManager, t: NewTask): Promise<{ id: string; completedAt: Date }> {
    const [row] = await m.query(
      `INSERT INTO tasks (user_id, task_type, points_earned, provider, transaction_id, ledger_transfer_id)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING id, completed_at`,
      [t.userId, t.taskType, t.points, t.provider, t.transactionId, t.ledgerTransferId],
    );
    return { id: row.id, completedAt: row.completed_at };
  }

  /** Marks the task its credit created as reversed; answers it. */
  async markReversed(m: EntityManager, creditTransferId: string): Promise<{ id: string; transactionId: string; reversedAt: Date }> {
    const [[row]] = await m.query(
      'UPDATE tasks SET reversed_at = now() WHERE ledger_transfer_id = $1 RETURNING id, transaction_id, reversed_at',
      [creditTransferId],
    );
    return { id: row.id, transactionId: row.transaction_id, reversedAt: row.reversed_at };
  }

  async listFor(m: EntityManager, userId: string): Promise<Task[]> {
    const rows: TaskRow[] = await m.query(
      `SELECT id, user_id, task_type, points_earned, provider, completed_at, reversed_at FROM tasks
        WHERE user_id = $1 ORDER BY completed_at DESC, id LIMIT $2`,
      [userId, TASK_LIST_LIMIT],
    );
    return rows.map(toTask);
  }

  /** The user's latest transactions with one wall (what that wall knows it paid). */
  async transactionsWith(m: EntityManager, userId: string, provider: OfferwallId, limit: number): Promise<PaidTransaction[]> {
    const rows: Array<{ transaction_id: string; points_earned: number; completed_at: Date; reversed_at: Date | null }> = await m.query(
      `SELECT transaction_id, points_earned, completed_at, reversed_at FROM tasks
        WHERE user_id = $1 AND provider = $2 ORDER BY completed_at DESC, id LIMIT $3`,
      [userId, provider, limit],
    );
    return rows.map((r) => ({
      transactionId: r.transaction_id,
      points: r.points_earned,
      completedAt: r.completed_at,
      reversed: r.reversed_at !== null,
    }));
  }
}
