import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { OfferwallId, WebhookOutcome } from '@esim/contracts';

/**
 * One provider callback, whatever came of it (migration 1733300000001-webhooks): the spec's
 * webhook transaction with the raw payload, the source address and the outcome. A delivery that was
 * accepted carries its `action`; at most one credit and one reversal per (provider, transaction id)
 * can be accepted (a partial unique index), so a replay or a forgery can never take a transaction
 * id from the real one. Stripe's events are here too (provider `stripe`, the event id as the
 * transaction id, action `event` once accepted: migration 1735300000000-stripe-events; payments'
 * refusals of accepted events: 1735400000000-stripe-refusals).
 */
@Entity({ name: 'webhook_transactions' })
export class WebhookTransaction {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column({ type: 'text' }) provider!: OfferwallId | 'stripe';
  /** The provider's transaction id of this delivery, when it could be read unambiguously. */
  @Column({ name: 'transaction_id', type: 'text', nullable: true }) transactionId!: string | null;
  /** What was handed on (to rewards: credit, reverse; to payments: a Stripe event); null for every delivery that was not accepted. */
  @Column({ type: 'text', nullable: true }) action!: 'credit' | 'reverse' | 'event' | null;
  @Column({ name: 'user_id', type: 'uuid', nullable: true }) userId!: string | null;
  @Column({ type: 'text' }) status!: WebhookOutcome;
  /** Points credited or taken back; for a refused delivery, the amount it claimed if readable. */
  @Column({ name: 'amount_mb', type: 'integer', nullable: true }) amountMb!: number | null;
  /** Method, URL, query, body and headers as received (erased when the user deletes the account). */
  @Column({ name: 'raw_payload', type: 'jsonb' }) rawPayload!: object;
  @Column({ name: 'source_ip', type: 'text' }) sourceIp!: string;
  /** Why a Stripe delivery was refused: the SDK's verification message, or payments' reason (migration 1735400000000-stripe-refusals). */
  @Column({ type: 'text', nullable: true }) error!: string | null;
  /** When the outcome was decided: at the answer, or when rewards or payments reported a refusal. */
  @Column({ name: 'processed_at', type: 'timestamptz', default: () => 'now()' }) processedAt!: Date;
  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' }) createdAt!: Date;
}
