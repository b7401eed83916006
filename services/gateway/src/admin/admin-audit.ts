import { Injectable, Logger } from '@nestjs/common';

/** Admin actions as structured log lines (`audit: true`), with the acting admin's id. */
@Injectable()
export class AdminAudit {
  private readonly log = new Logger('Audit');

  record(action: string, adminId: string, fields: Record<string, string | number> = {}): void {
    this.log.log({ audit: true, action, by: adminId, ...fields }, `audit ${action}`);
  }
}
