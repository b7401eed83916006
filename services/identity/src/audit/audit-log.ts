import { Injectable, Logger } from '@nestjs/common';

export type AuditAction =
  | 'account_created'
  | 'sign_in'
  | 'sign_in_failed'
  | 'password_changed'
  | 'password_reset_requested'
  | 'password_reset'
  | 'email_change_requested'
  | 'email_changed'
  | 'account_deleted'
  | 'admin_granted'
  | 'admin_revoked'
  | 'verification_capped'
  | 'two_factor_enabled'
  | 'two_factor_disabled';

/**
 * Security-relevant account events as structured log lines (`audit: true`), for an operator to
 * search. Callers pass ids and reasons only: never passwords, codes, tokens or hashes.
 */
@Injectable()
export class AuditLog {
  private readonly log = new Logger('Audit');

  record(action: AuditAction, fields: { userId?: string | null; reason?: string; by?: string } = {}): void {
    this.log.log({ audit: true, action, ...fields }, `audit ${action}`);
  }
}
