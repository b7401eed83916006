import { DataSource } from 'typeorm';

/**
 * Sets the admin flag of the live accounts with these emails; answers the ids that changed.
 * Only the operator reaches this: ADMIN_EMAILS at start-up and sign-up, and the admin CLI.
 */
export async function setAdmin(db: DataSource, emails: string[], isAdmin: boolean): Promise<string[]> {
  if (emails.length === 0) return [];
  const [rows]: [Array<{ id: string }>, number] = await db.query(
    `UPDATE users SET is_admin = $2, updated_at = now()
      WHERE email = ANY($1) AND deleted_at IS NULL AND is_admin <> $2 RETURNING id`,
    [emails.map((e) => e.trim().toLowerCase()), isAdmin],
  );
  return rows.map((r) => r.id);
}
