import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CONFIG } from '@esim/platform';
import type { IdentityConfig } from '../config';
import { AuditLog } from '../audit/audit-log';
import { setAdmin } from './admin-grants';

/**
 * Grants admin to the existing accounts named in ADMIN_EMAILS (new ones get it when created).
 * Removing an email from the list revokes nothing: revoking is an explicit `admin revoke`.
 */
@Injectable()
export class AdminEmailsBootstrap implements OnApplicationBootstrap {
  constructor(
    private readonly db: DataSource,
    private readonly audit: AuditLog,
    @Inject(CONFIG) private readonly config: IdentityConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    for (const userId of await setAdmin(this.db, this.config.ADMIN_EMAILS, true, 'ADMIN_EMAILS'))
      this.audit.record('admin_granted', { userId, by: 'ADMIN_EMAILS' });
  }
}
