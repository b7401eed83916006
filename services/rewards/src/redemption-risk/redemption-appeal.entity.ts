import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * A user's appeal against paused or reviewed redemptions (migration 1736400000000-redemption-risk):
 * open until an admin's decision over the account answers it with the reason the user reads.
 */
@Entity({ name: 'redemption_appeals' })
export class RedemptionAppealEntity {
  @PrimaryColumn('uuid') id!: string;
  @Column({ name: 'user_id', type: 'uuid' }) userId!: string;
  @Column({ type: 'text' }) message!: string;
  @Column({ type: 'text', default: 'open' }) status!: 'open' | 'answered';
  @Column({ type: 'text', nullable: true }) answer!: string | null;
  @Column({ name: 'decided_by', type: 'uuid', nullable: true }) decidedBy!: string | null;
  @Column({ name: 'decided_at', type: 'timestamptz', nullable: true }) decidedAt!: Date | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
}
