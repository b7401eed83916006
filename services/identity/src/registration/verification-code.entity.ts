import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

export type CodePurpose = 'signup' | 'email_change';

/**
 * A 6-digit code sent to an address. Only its HMAC is kept. Rows stay for a day after issue so
 * that wrong attempts count toward the daily cap even after the code was replaced.
 */
@Entity({ name: 'email_verification_codes' })
export class VerificationCode {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column({ type: 'text' }) purpose!: CodePurpose;
  @Column({ type: 'text' }) email!: string;
  /** The account changing its email (purpose email_change); null for a sign-up. */
  @Column({ name: 'user_id', type: 'uuid', nullable: true }) userId!: string | null;
  @Column({ name: 'code_hash', type: 'text' }) codeHash!: string;
  @Column({ name: 'expires_at', type: 'timestamptz' }) expiresAt!: Date;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column({ type: 'boolean', default: false }) used!: boolean;
  @Column({ type: 'int', default: 0 }) attempts!: number;
  /** Issued by a resend (resends are spaced a minute apart). */
  @Column({ type: 'boolean', default: false }) resent!: boolean;
  @Column({ name: 'replaced_at', type: 'timestamptz', nullable: true }) replacedAt!: Date | null;
}
