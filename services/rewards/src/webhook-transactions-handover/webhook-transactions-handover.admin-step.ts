/** What the step needs of the administrator's connection (a `pg` Client, which the roles step opens). */
interface AdminConnection {
  query(sql: string, params?: unknown[]): Promise<{ rows: Array<{ present: boolean }> }>;
}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Moves the offer-wall records rewards kept from before the webhooks service
 * (migrations/1733300000000-webhook-transactions-moved.ts) into the webhooks schema. Neither
 * service's role may touch the other's schema, so it runs with the administrator's login, in the
 * roles step (scripts/db-roles.mjs) before the services start, under the same lock as the webhooks
 * service's first migration. The tables arrive as `rewards_webhook_transactions` and
 * `rewards_users`: imported at once when that service has migrated already, else by its first
 * migration. Nothing to move (a fresh database, or moved before): nothing happens. The roles step
 * then hands the tables to the webhooks role with everything else in its schema.
 */
export async function handOverWebhookTransactions(admin: AdminConnection, schemas: { rewards: string; webhooks: string }): Promise<boolean> {
  const waiting = await admin.query('SELECT to_regclass($1) IS NOT NULL AS present', [`${ident(schemas.rewards)}.handover_webhook_transactions`]);
  if (!waiting.rows[0].present) return false;
  const rw = ident(schemas.rewards);
  const wh = ident(schemas.webhooks);
  await admin.query('BEGIN');
  try {
    // The lock of the webhooks service's first migration (1733300000001-webhooks.ts).
    await admin.query('SELECT pg_advisory_xact_lock(hashtext($1))', ['webhook_transactions handover']);
    await admin.query(`CREATE SCHEMA IF NOT EXISTS ${wh}`);
    for (const [from, to] of [
      ['handover_webhook_transactions', 'rewards_webhook_transactions'],
      ['handover_users', 'rewards_users'],
    ]) {
      await admin.query(`ALTER TABLE ${rw}.${from} SET SCHEMA ${wh}`);
      await admin.query(`ALTER TABLE ${wh}.${from} RENAME TO ${to}`);
    }
    const migrated = await admin.query('SELECT to_regprocedure($1) IS NOT NULL AS present', [`${wh}.import_rewards_handover()`]);
    if (migrated.rows[0].present) await admin.query(`SELECT ${wh}.import_rewards_handover()`);
    await admin.query('COMMIT');
    return true;
  } catch (err) {
    await admin.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}
