import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { EsimLineStatus } from '@esim/contracts';

export type EsimLineSource = 'redeemed' | 'gifted' | 'bought';

/** One eSIM line in the user's wallet (My eSIMs): created by its first delivery, topped up after. */
@Entity({ name: 'esim_lines' })
export class EsimLineRecord {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column({ name: 'user_id', type: 'uuid' }) userId!: string;
  @Column({ type: 'text' }) iccid!: string;
  @Column({ name: 'lpa_code', type: 'text', nullable: true }) lpaCode!: string | null;
  @Column({ type: 'text', nullable: true }) msisdn!: string | null;
  @Column({ name: 'plan_tier', type: 'text' }) planTier!: string;
  @Column({ type: 'text' }) source!: EsimLineSource;
  @Column({ name: 'total_gb', type: 'int', default: 0 }) totalGB!: number;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column({ name: 'last_delivered_at', type: 'timestamptz' }) lastDeliveredAt!: Date;
  /** `cancelled` once deactivated at the provider for a refund (migration 1739200000000-cancelled-lines). */
  @Column({ type: 'text', default: 'active' }) status!: EsimLineStatus;
  @Column({ name: 'cancelled_at', type: 'timestamptz', nullable: true }) cancelledAt!: Date | null;
}
