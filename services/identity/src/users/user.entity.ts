import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn, VersionColumn } from 'typeorm';
import type { Locale, UserSettings } from '@esim/contracts';

/**
 * An account. It exists only once its email was verified. Deletion erases it in place (see
 * delete-account.rpc-handler.ts): the id stays because other services' records refer to it.
 */
@Entity({ name: 'users' })
export class User {
  @PrimaryGeneratedColumn('uuid') id!: string;
  /** Always lower case; unique. */
  @Column({ type: 'text' }) email!: string;
  /** argon2id, PHC string format; null once the account is deleted. */
  @Column({ name: 'password_hash', type: 'text', nullable: true }) passwordHash!: string | null;
  @Column({ type: 'text', nullable: true }) name!: string | null;
  @Column({ name: 'email_verified', type: 'boolean', default: false }) emailVerified!: boolean;
  @Column({ type: 'text', nullable: true }) phone!: string | null;
  @Column({ type: 'text' }) locale!: Locale;
  @Column({ type: 'jsonb' }) settings!: UserSettings;
  @Column({ name: 'is_admin', type: 'boolean', default: false }) isAdmin!: boolean;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt!: Date;
  @Column({ name: 'password_changed_at', type: 'timestamptz', nullable: true }) passwordChangedAt!: Date | null;
  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true }) deletedAt!: Date | null;
  /** The code friends sign up with (docs/earning.md, "Referrals"); unique, drawn by the database's default. */
  @Column({ name: 'referral_code', type: 'text', insert: false, update: false }) referralCode!: string;
  /** The inviter whose code this account signed up with. */
  @Column({ name: 'referred_by', type: 'uuid', nullable: true }) referredBy!: string | null;
  /** Raised by every change of the row (ProfileChanged carries it; see the user-version migration). */
  @VersionColumn({ type: 'integer' }) version!: number;
}

/** A user that is not deleted: the columns a deletion clears are set. */
export type LiveUser = User & { name: string; passwordHash: string; deletedAt: null };
