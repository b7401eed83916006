import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One row per (consumer, event) applied: a redelivered event finds its row and does nothing. */
@Entity({ name: 'inbox_events' })
export class InboxEventEntity {
  @PrimaryColumn({ type: 'text' }) consumer!: string;
  @PrimaryColumn({ name: 'event_id', type: 'uuid' }) eventId!: string;
  @Column({ name: 'event_type', type: 'text' }) eventType!: string;
  @Column({ name: 'processed_at', type: 'timestamptz', default: () => 'now()' }) processedAt!: Date;
}
