import { DataSource, In, IsNull, Not } from 'typeorm';
import { AppError, Tx, writeOutbox } from '@esim/platform';
import { publishProfileChanged } from '../users/profile-changed';
import { LiveUser, User } from '../users/user.entity';

/**
 * Sets the admin flag of the live accounts with these emails; answers the ids that changed.
 * Only the operator reaches this: ADMIN_EMAILS at start-up and sign-up, and the admin CLI.
 * `actor` names who did it in the audit trail, which a trigger on the flag writes in this same
 * transaction (migration 1734200000000-admin-console).
 */
export async function setAdmin(db: DataSource, emails: string[], isAdmin: boolean, actor: string): Promise<string[]> {
  if (emails.length === 0) return [];
  return db.transaction(async (m) => {
    await m.query(`SELECT set_config('esim.audit_actor', $1, true)`, [actor.slice(0, 100)]);
    const users = m.getRepository(User);
    const where = { email: In(emails.map((e) => e.trim().toLowerCase())), deletedAt: IsNull(), isAdmin: Not(isAdmin) };
    const changing = await users.find({ select: { id: true }, where, lock: { mode: 'pessimistic_write' } });
    if (changing.length > 0) await users.update({ id: In(changing.map((u) => u.id)) }, { isAdmin });
    // The flag shows in the user's view (the gateway's read model): announced like any profile change.
    const tx = new Tx(m);
    for (const user of await users.findBy({ id: In(changing.map((u) => u.id)) })) publishProfileChanged(tx, user as LiveUser);
    await writeOutbox(m, tx.staged);
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
  if (!actingUserId) throw new AppError('sign_in_required', 'Please sign in to continue.');
  if (!(await isLiveAdmin(db, actingUserId)))
    throw new AppError('not_admin', "Access Denied - You don't have admin privileges.");
}
