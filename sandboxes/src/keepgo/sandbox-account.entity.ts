import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The emulator's reseller account (one row): its balance pays for orders and refills. */
@Entity({ name: 'keepgo_sandbox_account' })
export class KeepGoSandboxAccount {
  @PrimaryColumn({ type: 'smallint' }) id!: number;
  @Column({ name: 'balance_usd', type: 'numeric' }) balanceUsd!: string;
}
