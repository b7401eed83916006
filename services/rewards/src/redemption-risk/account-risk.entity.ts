import { Column, Entity, PrimaryColumn } from 'typeorm';

export type AccountControl = 'paused' | 'review' | 'cleared';

/**
 * One account's inputs to the risk rules (migration 1736400000000-redemption-risk): identity's
 * signals as AccountSignalsChanged last said them, and the admins' latest control of its
 * redemptions with the reason the user reads (`cleared`: an admin lifted the rules' pause or review).
 */
@Entity({ name: 'account_risk' })
export class AccountRiskEntity {
  @PrimaryColumn({ name: 'user_id', type: 'uuid' }) userId!: string;
  @Column({ name: 'disposable_email', type: 'boolean', default: false }) disposableEmail!: boolean;
  @Column({ name: 'linked_accounts', type: 'int', default: 0 }) linkedAccounts!: number;
  @Column({ name: 'signals_at', type: 'timestamptz', nullable: true }) signalsAt!: Date | null;
  @Column({ type: 'text', nullable: true }) control!: AccountControl | null;
  @Column({ name: 'control_reason', type: 'text', nullable: true }) controlReason!: string | null;
  @Column({ name: 'control_by', type: 'uuid', nullable: true }) controlBy!: string | null;
  @Column({ name: 'control_at', type: 'timestamptz', nullable: true }) controlAt!: Date | null;
}
