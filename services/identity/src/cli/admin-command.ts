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

/** `admin grant|revoke <email>`: the operator's way to set the admin flag, never reachable over the API. */
export async function runAdminCommand(db: DataSource, command: AdminCommand, email: string): Promise<AdminCommandResult> {
  const address = email.trim().toLowerCase();
  const user = await db.getRepository(User).findOneBy({ email: address, deletedAt: IsNull() });
  if (!user) return { ok: false, changed: false, message: `No account with the email ${address}.` };
  const changed = (await setAdmin(db, [address], command === 'grant')).length > 0;
  const state = command === 'grant' ? 'an admin' : 'not an admin';
  return { ok: true, changed, userId: user.id, message: changed ? `${address} is now ${state}.` : `${address} was already ${state}.` };
}
