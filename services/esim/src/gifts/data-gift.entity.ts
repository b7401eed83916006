import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * Data granted to a user: by an admin (claimable: `granted`, then `claimed` while its provisioning
 * runs) or through a redemption. `delivered` means the data reached an eSIM line; only delivered
 * gifts count in the user's totals.
 */
export type DataGiftStatus = 'granted' | 'claimed' | 'delivered' | 'cancelled';
export type DataGiftSource = 'points' | 'admin';

@Entity({ name: 'data_gifts' })
export class DataGift {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column({ name: 'user_id', type: 'uuid' }) userId!: string;
  /** What was delivered (or, while granted, what the gift is worth). */
  @Column({ name: 'amount_gb', type: 'int' }) amountGB!: number;
  @Column({ name: 'plan_tier', type: 'text' }) planTier!: string;
  @Column({ type: 'text', nullable: true }) iccid!: string | null;
  @Column({ type: 'text', default: 'granted' }) status!: DataGiftStatus;
  @Column({ type: 'text', default: 'points' }) source!: DataGiftSource;
  /** An admin gift's original worth (a larger gift may be claimed for a smaller plan). */
  @Column({ name: 'granted_gb', type: 'int', nullable: true }) grantedGB!: number | null;
  @Column({ name: 'granted_by', type: 'uuid', nullable: true }) grantedBy!: string | null;
  @Column({ name: 'provisioning_id', type: 'uuid', nullable: true }) provisioningId!: string | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column({ name: 'delivered_at', type: 'timestamptz', nullable: true }) deliveredAt!: Date | null;
}
