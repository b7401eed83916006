import { DataSource, In, IsNull, Not } from 'typeorm';
import { AppError } from '@esim/platform';
import { User } from '../users/user.entity';

/**
 * Sets the admin flag of the live accounts with these emails; answers the ids that changed.
 * Only the operator reaches this: ADMIN_EMAILS at start-up and sign-up, and the admin CLI.
 */
export async function setAdmin(db: DataSource, emails: string[], isAdmin: boolean): Promise<string[]> {
  if (emails.length === 0) return [];
  return db.transaction(async (m) => {
    const users = m.getRepository(User);
    const where = { email: In(emails.map((e) => e.trim().toLowerCase())), deletedAt: IsNull(), isAdmin: Not(isAdmin) };
    const changing = await users.find({ select: { id: true }, where, lock: { mode: 'pessimistic_write' } });
    if (changing.length > 0) await users.update({ id: In(changing.map((u) => u.id)) }, { isAdmin });
    return changing.map((u) => u.id);
  });
}

/** Whether this live account is an admin now (the flag is read on every admin request, never cached). */
export async function isLiveAdmin(db: DataSource, userId: string): Promise<boolean> {
  const user = await db.getRepository(User).findOne({ select: { id: true, isAdmin: true }, where: { id: userId, deletedAt: IsNull() } });
  return user?.isAdmin ?? false;
}

/** Identity re-checks what the gateway's AdminGuard checked: an admin-only call needs an admin acting. */
export async function requireAdmin(db: DataSource, actingUserId: string | undefined): Promise<void> {
  if (!actingUserId) throw new AppError('unauthorized', 'Please sign in to continue.');
  if (!(await isLiveAdmin(db, actingUserId)))
    throw new AppError('forbidden', "Access Denied - You don't have admin privileges.", { reason: 'not_admin' });
}
