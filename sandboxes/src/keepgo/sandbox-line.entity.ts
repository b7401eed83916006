import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** A line (eSIM) of the KeepGo emulator's account. Emulator state only: never read by the product. */
@Entity({ name: 'keepgo_sandbox_lines' })
export class KeepGoSandboxLine {
  @PrimaryColumn({ type: 'text' }) iccid!: string;
  @Column({ type: 'text', nullable: true }) msisdn!: string | null;
  @Column({ name: 'lpa_code', type: 'text' }) lpaCode!: string;
  @Column({ name: 'bundle_id', type: 'int' }) bundleId!: number;
  /** KeepGo's status words: Registered, Activated, Deactivated. */
  @Column({ type: 'text' }) status!: string;
  @Column({ type: 'text' }) notes!: string;
  @Column({ name: 'deactivation_date', type: 'date', nullable: true }) deactivationDate!: string | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
}
