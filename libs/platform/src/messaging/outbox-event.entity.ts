import { Column, Entity, PrimaryColumn } from 'typeorm';

/** An integration event written in the same transaction as the change it announces. */
@Entity({ name: 'outbox_events' })
export class OutboxEventEntity {
  @PrimaryColumn('uuid') id!: string;
  @Column({ name: 'routing_key', type: 'text' }) routingKey!: string;
  @Column({ type: 'jsonb' }) envelope!: Record<string, unknown>;
  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' }) createdAt!: Date;
  @Column({ name: 'published_at', type: 'timestamptz', nullable: true }) publishedAt!: Date | null;
  @Column({ type: 'int', default: 0 }) attempts!: number;
  @Column({ name: 'last_error', type: 'text', nullable: true }) lastError!: string | null;
  /** Set when the event was set aside after too many tries with no queue bound (see OutboxRelay). */
  @Column({ name: 'parked_at', type: 'timestamptz', nullable: true }) parkedAt!: Date | null;
  /** Message headers to publish the event with: the W3C trace context it was announced in, when traced. */
  @Column({ type: 'jsonb', nullable: true }) headers!: Record<string, string> | null;
}
