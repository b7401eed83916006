import os from 'node:os';
import { DataSource, IsNull } from 'typeorm';
import { User } from '../users/user.entity';
import { setAdmin } from '../admin/admin-grants';

export type AdminCommand = 'grant' | 'revoke';

export interface AdminCommandResult {
  ok: boolean;
  message: string;
  userId?: string;
  changed: boolean;
}

/** Who runs the command, for the audit trail: the operating-system user. */
function operator(): string {
  try {
    return `cli:${os.userInfo().username}`;
  } catch {
    return 'cli';
  }
}

/**
 * `admin grant|revoke <email>`: the operator's way to set the admin flag, never reachable over the
 * API. The change is in the admin audit trail with the operator's user name (written by the
 * database in the same transaction).
 */
export async function runAdminCommand(db: DataSource, command: AdminCommand, email: string, actor = operator()): Promise<AdminCommandResult> {
  const address = email.trim().toLowerCase();
  const user = await db.getRepository(User).findOneBy({ email: address, deletedAt: IsNull() });
  if (!user) return { ok: false, changed: false, message: `No account with the email ${address}.` };
  const changed = (await setAdmin(db, [address], command === 'grant', actor)).length > 0;
  const state = command === 'grant' ? 'an admin' : 'not an admin';
  return { ok: true, changed, userId: user.id, message: changed ? `${address} is now ${state}.` : `${address} was already ${state}.` };
}
