import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * Data granted to a user: by an admin (claimable) or through a redemption. `delivered` means the
 * data reached an eSIM line; only delivered gifts count in the user's totals.
 */
export type DataGiftStatus = 'granted' | 'delivered' | 'cancelled';

@Entity({ name: 'data_gifts' })
export class DataGift {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column({ name: 'user_id', type: 'uuid' }) userId!: string;
  @Column({ name: 'amount_gb', type: 'int' }) amountGB!: number;
  @Column({ name: 'plan_tier', type: 'text' }) planTier!: string;
  @Column({ type: 'text', nullable: true }) iccid!: string | null;
  @Column({ type: 'text', default: 'granted' }) status!: DataGiftStatus;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column({ name: 'delivered_at', type: 'timestamptz', nullable: true }) deliveredAt!: Date | null;
}
