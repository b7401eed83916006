import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { ProvisioningKind, RedemptionSource } from '@esim/contracts';
import type { EsimPlanTier } from '../keepgo/esim-provider';

/** Who the delivery is for: a points redemption, an admin gift's claim, or a paid card purchase. */
export type ProvisioningSource = RedemptionSource | 'purchase';

/** pending → in_progress (claimed by a worker, maybe several times) → one of the three outcomes. */
export type ProvisioningStatus = 'pending' | 'in_progress' | 'succeeded' | 'refused' | 'manual_transfer_required';

/**
 * Delivering one redemption's data, or one card purchase's eSIM, with the eSIM provider
 * (migrations 1732063000000-redemptions, 1737100000000-purchase-provisionings). `redemptionId`
 * (the purchase id for a purchase) is our reference on every provider call, so a retry or a crash
 * recovery can ask the provider whether it already happened.
 */
@Entity({ name: 'provisionings' })
export class Provisioning {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column({ name: 'redemption_id', type: 'uuid' }) redemptionId!: string;
  @Column({ name: 'user_id', type: 'uuid' }) userId!: string;
  @Column({ type: 'text' }) source!: ProvisioningSource;
  @Column({ name: 'idempotency_key', type: 'text', nullable: true }) idempotencyKey!: string | null;
  @Column({ name: 'claimed_gift_id', type: 'uuid', nullable: true }) claimedGiftId!: string | null;
  @Column({ type: 'text' }) kind!: ProvisioningKind;
  @Column({ name: 'plan_tier', type: 'text' }) planTier!: EsimPlanTier;
  @Column({ name: 'amount_gb', type: 'int' }) amountGB!: number;
  @Column({ type: 'int', default: 0 }) points!: number;
  @Column({ type: 'text', nullable: true }) country!: string | null;
  @Column({ name: 'target_iccid', type: 'text', nullable: true }) targetIccid!: string | null;
  @Column({ type: 'text', default: 'pending' }) status!: ProvisioningStatus;
  @Column({ type: 'int', default: 0 }) attempts!: number;
  /** A new line was ordered (or was about to be): from here on the order may be at the provider. */
  @Column({ name: 'order_sent_at', type: 'timestamptz', nullable: true }) orderSentAt!: Date | null;
  @Column({ name: 'lease_until', type: 'timestamptz' }) leaseUntil!: Date;
  @Column({ type: 'text', nullable: true }) iccid!: string | null;
  /** The delivered line is in the user's wallet (a new eSIM, or a top-up of their own line): see provisioning-outcomes.ts. */
  @Column({ name: 'own_line', type: 'boolean', default: false }) ownLine!: boolean;
  @Column({ name: 'lpa_code', type: 'text', nullable: true }) lpaCode!: string | null;
  @Column({ type: 'text', nullable: true }) msisdn!: string | null;
  @Column({ name: 'provider_transaction_id', type: 'text', nullable: true }) providerTransactionId!: string | null;
  @Column({ name: 'delivered_gift_id', type: 'uuid', nullable: true }) deliveredGiftId!: string | null;
  @Column({ name: 'failure_reason', type: 'text', nullable: true }) failureReason!: string | null;
  @Column({ name: 'failure_message', type: 'text', nullable: true }) failureMessage!: string | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true }) completedAt!: Date | null;
}
