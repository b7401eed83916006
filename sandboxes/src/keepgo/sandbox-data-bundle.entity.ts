import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** Data put on an emulated line by its order or a refill (KeepGo's "data bundle"). */
@Entity({ name: 'keepgo_sandbox_data_bundles' })
export class KeepGoSandboxDataBundle {
  @PrimaryGeneratedColumn('increment') id!: number;
  @Column({ type: 'text' }) iccid!: string;
  /** bigint comes back from Postgres as a string. */
  @Column({ name: 'allowed_usage_kb', type: 'bigint' }) allowedUsageKb!: string;
  @Column({ name: 'remaining_usage_kb', type: 'bigint' }) remainingUsageKb!: string;
  @Column({ name: 'validity_days', type: 'int', nullable: true }) validityDays!: number | null;
  @Column({ name: 'assigned_at', type: 'timestamptz' }) assignedAt!: Date;
  @Column({ name: 'expire_at', type: 'timestamptz', nullable: true }) expireAt!: Date | null;
}
