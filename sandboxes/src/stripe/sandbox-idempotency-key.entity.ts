import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * A request the emulator ran under an Idempotency-Key: the fingerprint of its parameters and the
 * answer it gave (null while the first request is still running).
 */
@Entity({ name: 'sandbox_stripe_idempotency_keys' })
export class SandboxIdempotencyKeyEntity {
  @PrimaryColumn('text') key!: string;
  @Column({ type: 'text' }) fingerprint!: string;
  @Column({ name: 'http_status', type: 'int', nullable: true }) httpStatus!: number | null;
  @Column({ type: 'jsonb', nullable: true }) body!: unknown;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
}
