import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { KIND_OF_TASK_TYPE, type OfferwallId, type Task, type TaskKind, type TaskPage, type TaskType } from '@esim/contracts';
import { PreparedStatement } from '@esim/platform';
import { TaskEntity } from './task.entity';

/** The history list is capped; a user with more sees their most recent tasks. */
export const TASK_LIST_LIMIT = 1000;

export interface NewTask {
  userId: string;
  taskType: TaskType;
  kind: TaskKind;
  points: number;
  provider: OfferwallId;
  transactionId: string;
  ledgerTransferId: string;
}

const toTask = (t: TaskEntity): Task => ({
  id: t.id,
  userId: t.userId,
  taskType: t.taskType,
  kind: t.kind ?? KIND_OF_TASK_TYPE[t.taskType],
  pointsEarned: t.pointsEarned,
  completedAt: t.completedAt.toISOString(),
  completed: t.reversedAt === null,
  provider: t.provider,
  reversedAt: t.reversedAt?.toISOString() ?? null,
});

const TASK_COLUMNS = 'id, user_id, task_type, kind, points_earned, provider, transaction_id, ledger_transfer_id, completed_at, reversed_at';

interface TaskRow {
  id: string;
  user_id: string;
  task_type: TaskType;
  kind: TaskKind | null;
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
  kind: r.kind,
  pointsEarned: r.points_earned,
  provider: r.provider,
  transactionId: r.transaction_id,
  ledgerTransferId: r.ledger_transfer_id,
  completedAt: r.completed_at,
  reversedAt: r.reversed_at,
});

/** Prepared (PreparedStatement): run for every batch of credits, planned once per connection. */
const INSERT_TASKS = new PreparedStatement<TaskRow>(`INSERT INTO tasks (user_id, task_type, points_earned, provider, transaction_id, ledger_transfer_id, kind)
  SELECT * FROM unnest($1::uuid[], $2::text[], $3::integer[], $4::text[], $5::text[], $6::uuid[], $7::text[])
  RETURNING ${TASK_COLUMNS}`);

/**
 * Credited offer-wall tasks, as the user's history shows them.
 *
 * The writes run in every batch of offer-wall credits, so they are raw SQL with one array per
 * column (as `Ledger.creditMany`): one statement with seven parameters whatever the batch size, where
 * a repository insert builds a VALUES list of seven parameters per row, and TypeORM's handling of
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
      tasks.map((t) => t.kind),
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
    return this.withOfferNames(m, rows);
  }

  /**
   * A page of the user's history, newest first: the tasks after the one `cursor` names in
   * (completed_at DESC, id DESC) order, a row more than asked to know whether another page
   * follows, and the totals of all their tasks. Keyset paging: a task credited while the person
   * pages sorts before the cursor, so it neither repeats a task nor pushes one past a page. A
   * cursor that is not one of the user's tasks reads as the start.
   */
  async pageFor(m: EntityManager, userId: string, cursor: string | undefined, limit: number): Promise<TaskPage> {
    const rows: TaskRow[] = await m.query(
      `SELECT ${TASK_COLUMNS} FROM tasks t
        WHERE t.user_id = $1
          AND ($2::uuid IS NULL OR (t.completed_at, t.id) < (SELECT c.completed_at, c.id FROM tasks c WHERE c.id = $2 AND c.user_id = $1))
        ORDER BY t.completed_at DESC, t.id DESC
        LIMIT $3`,
      [userId, cursor ?? null, limit + 1],
    );
    const [totals]: Array<{ earned: string; missions: string; tasks: string }> = await m.query(
      `SELECT coalesce(sum(points_earned) FILTER (WHERE reversed_at IS NULL), 0) AS earned,
              count(*) FILTER (WHERE reversed_at IS NULL) AS missions, count(*) AS tasks
         FROM tasks WHERE user_id = $1`,
      [userId],
    );
    const page = rows.slice(0, limit).map(toEntity);
    return {
      items: await this.withOfferNames(m, page),
      nextCursor: rows.length > limit ? page[page.length - 1].id : null,
      totals: { earnedMb: Number(totals.earned), missions: Number(totals.missions), tasks: Number(totals.tasks) },
    };
  }

  /** The offer's name, kept with the credit where the wall sent one (OfferwallCreditsService.noteDetails). */
  private async withOfferNames(m: EntityManager, rows: TaskEntity[]): Promise<Task[]> {
    const named: Array<{ credit_id: string; offer_name: string }> = rows.length
      ? await m.query(`SELECT credit_id, offer_name FROM offerwall_credit_details WHERE credit_id = ANY($1) AND offer_name IS NOT NULL`, [rows.map((r) => r.ledgerTransferId)])
      : [];
    const names = new Map(named.map((n) => [n.credit_id, n.offer_name]));
    return rows.map((r) => ({ ...toTask(r), offerName: names.get(r.ledgerTransferId) ?? null }));
  }
}
