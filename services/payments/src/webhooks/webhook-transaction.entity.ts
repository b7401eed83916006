import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

export type WebhookTransactionStatus = 'processed' | 'ignored' | 'rejected_signature' | 'rejected_invalid';

/**
 * One Stripe webhook event as delivered: unique per (provider, event id); a redelivery of the same
 * event bumps `deliveries`. A refused delivery has no trusted event id (`transactionId` null).
 */
@Entity({ name: 'webhook_transactions' })
export class WebhookTransactionEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column({ type: 'text' }) provider!: string;
  /** The provider's event id (Stripe `evt_…`). */
  @Column({ name: 'transaction_id', type: 'text', nullable: true }) transactionId!: string | null;
  @Column({ name: 'event_type', type: 'text', nullable: true }) eventType!: string | null;
  @Column({ name: 'payment_intent_id', type: 'text', nullable: true }) paymentIntentId!: string | null;
  @Column({ name: 'user_id', type: 'uuid', nullable: true }) userId!: string | null;
  @Column({ type: 'text' }) status!: WebhookTransactionStatus;
  @Column({ name: 'amount_cents', type: 'int', nullable: true }) amountCents!: number | null;
  /** The body exactly as signed (truncated for refused deliveries). */
  @Column({ name: 'raw_payload', type: 'text' }) rawPayload!: string;
  @Column({ type: 'text', nullable: true }) error!: string | null;
  @Column({ type: 'int', default: 1 }) deliveries!: number;
  @Column({ name: 'processed_at', type: 'timestamptz' }) processedAt!: Date;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column({ name: 'last_delivered_at', type: 'timestamptz' }) lastDeliveredAt!: Date;
}
