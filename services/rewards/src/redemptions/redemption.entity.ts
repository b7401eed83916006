import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import type { ProvisioningKind, RedeemablePlanTier, RedemptionStatus, RiskReason } from '@esim/contracts';

/**
 * A redemption paid with points (migration 1732063000000-redemptions). Its ledger reservation has
 * reference = id; `status` moves once from processing to a settled state, together with the
 * ledger's post (esim_activation_ready, completed) or void (failed), or to manual_transfer_required
 * while the points stay reserved. The risk rules may first hold it as pending_review (points
 * reserved) until an admin approves it (processing) or rejects it (rejected, voided).
 */
@Entity({ name: 'redemptions' })
export class Redemption {
  @PrimaryColumn('uuid') id!: string;
  @Column({ name: 'user_id', type: 'uuid' }) userId!: string;
  @Column({ name: 'idempotency_key', type: 'text' }) idempotencyKey!: string;
  @Column({ name: 'plan_tier', type: 'text' }) planTier!: RedeemablePlanTier;
  @Column({ name: 'amount_gb', type: 'int' }) amountGB!: number;
  @Column({ type: 'int' }) points!: number;
  @Column({ type: 'text' }) kind!: ProvisioningKind;
  @Column({ type: 'text', nullable: true }) country!: string | null;
  @Column({ name: 'target_iccid', type: 'text', nullable: true }) targetIccid!: string | null;
  @Column({ name: 'reservation_id', type: 'uuid', nullable: true }) reservationId!: string | null;
  @Column({ type: 'text', default: 'processing' }) status!: RedemptionStatus;
  @Column({ type: 'text', nullable: true }) iccid!: string | null;
  /** The delivered line is in the redeemer's wallet; only then are lpaCode and msisdn kept (docs/decisions.md). */
  @Column({ name: 'own_line', type: 'boolean', default: false }) ownLine!: boolean;
  @Column({ name: 'lpa_code', type: 'text', nullable: true }) lpaCode!: string | null;
  @Column({ type: 'text', nullable: true }) msisdn!: string | null;
  @Column({ name: 'gift_id', type: 'uuid', nullable: true }) giftId!: string | null;
  @Column({ name: 'provider_transaction_id', type: 'text', nullable: true }) providerTransactionId!: string | null;
  @Column({ name: 'failure_reason', type: 'text', nullable: true }) failureReason!: string | null;
  @Column({ name: 'failure_message', type: 'text', nullable: true }) failureMessage!: string | null;
  /** Why the risk rules sent it to an admin (status pending_review; docs/earning.md, "Risk rules"). */
  @Column({ name: 'review_reasons', type: 'text', array: true, nullable: true }) reviewReasons!: RiskReason[] | null;
  @Column({ name: 'reviewed_by', type: 'uuid', nullable: true }) reviewedBy!: string | null;
  @Column({ name: 'review_note', type: 'text', nullable: true }) reviewNote!: string | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column({ name: 'settled_at', type: 'timestamptz', nullable: true }) settledAt!: Date | null;
}
