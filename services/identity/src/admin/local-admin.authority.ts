import { DataSource } from 'typeorm';
import { AdminAuthority } from '@esim/platform';
import { isLiveAdmin } from './admin-grants';

/** Identity's own answer for its admin-only RPCs: the live account's flag, read on every call. */
export class LocalAdminAuthority extends AdminAuthority {
  constructor(private readonly db: DataSource) {
    super();
  }

  isAdmin(userId: string): Promise<boolean> {
    return isLiveAdmin(this.db, userId);
  }
}
