import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { OfferwallId, TaskKind, TaskType } from '@esim/contracts';

/** One credited offer-wall transaction, as the user's history lists it (migration 1732061000001-earning). */
@Entity({ name: 'tasks' })
export class TaskEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column({ name: 'user_id', type: 'uuid' }) userId!: string;
  @Column({ name: 'task_type', type: 'text' }) taskType!: TaskType;
  /** Null for tasks credited before kinds (migration 1736400000066): read as their task type's kind. */
  @Column({ type: 'text', nullable: true }) kind!: TaskKind | null;
  @Column({ name: 'points_earned', type: 'integer' }) pointsEarned!: number;
  @Column({ type: 'text' }) provider!: OfferwallId;
  /** The provider transaction credited: unique per provider. */
  @Column({ name: 'transaction_id', type: 'text' }) transactionId!: string;
  /** The ledger transfer that credited it. */
  @Column({ name: 'ledger_transfer_id', type: 'uuid' }) ledgerTransferId!: string;
  @Column({ name: 'completed_at', type: 'timestamptz', default: () => 'now()' }) completedAt!: Date;
  /** Set once the provider reversed it (its points were taken back). */
  @Column({ name: 'reversed_at', type: 'timestamptz', nullable: true }) reversedAt!: Date | null;
}
