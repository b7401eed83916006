import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** One object of the Stripe emulator (payment_intent, payment_method, refund, event), as Stripe shapes it. */
@Entity({ name: 'sandbox_stripe_objects' })
export class SandboxStripeObjectEntity {
  @PrimaryColumn('text') id!: string;
  @Column({ type: 'text' }) object!: string;
  @Column({ type: 'jsonb' }) data!: Record<string, unknown>;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt!: Date;
}
