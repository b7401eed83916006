import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** A paid operation of the emulator (line order or refill), with the answer it gave, replayed for a repeated Idempotency-Key. */
@Entity({ name: 'keepgo_sandbox_transactions' })
export class KeepGoSandboxTransaction {
  @PrimaryColumn({ type: 'text' }) id!: string;
  @Column({ type: 'text' }) kind!: 'create' | 'refill';
  @Column({ type: 'text' }) iccid!: string;
  @Column({ name: 'idempotency_key', type: 'text', nullable: true }) idempotencyKey!: string | null;
  @Column({ type: 'jsonb' }) request!: Record<string, unknown>;
  @Column({ type: 'jsonb' }) response!: Record<string, unknown>;
  @Column({ name: 'price_usd', type: 'numeric' }) priceUsd!: string;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
}
