import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import type { CreditClaimStatus, OfferwallId } from '@esim/contracts';

/**
 * A missing-credit claim (migration 1736300000000-credit-claims). `status` moves once from open to
 * credited (with the ledger transfer that paid it, reference = id) or rejected (with the reason
 * the user reads); the table's checks refuse any other shape.
 */
@Entity({ name: 'credit_claims' })
export class CreditClaimEntity {
  @PrimaryColumn('uuid') id!: string;
  @Column({ name: 'user_id', type: 'uuid' }) userId!: string;
  @Column({ type: 'text' }) wall!: OfferwallId;
  @Column({ name: 'wall_user_id', type: 'text' }) wallUserId!: string;
  @Column({ name: 'offer_name', type: 'text' }) offerName!: string;
  /** A calendar day (YYYY-MM-DD), as the user gave it. */
  @Column({ name: 'completed_on', type: 'date' }) completedOn!: string;
  @Column({ type: 'text', nullable: true }) note!: string | null;
  @Column({ type: 'text', default: 'open' }) status!: CreditClaimStatus;
  @Column({ type: 'int', nullable: true }) points!: number | null;
  @Column({ name: 'transfer_id', type: 'uuid', nullable: true }) transferId!: string | null;
  @Column({ name: 'reject_reason', type: 'text', nullable: true }) rejectReason!: string | null;
  @Column({ name: 'decided_by', type: 'uuid', nullable: true }) decidedBy!: string | null;
  @Column({ name: 'decided_at', type: 'timestamptz', nullable: true }) decidedAt!: Date | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
}
