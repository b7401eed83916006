import { AccountDeleted, EventPayload } from '@esim/contracts';
import { DeletedAccounts, EventHandler, OutboxErasure, Tx } from '@esim/platform';

/**
 * A deleted account's eSIM traces go (docs/accounts.md, "Deletion"): its lines are deleted with
 * their usage reads, alerts and auto top-up rules, and
 * its gifts and deliveries keep their amounts, plans, sources and dates, but their ICCIDs,
 * activation codes and phone numbers are replaced (the database requires an ICCID on a delivered
 * gift or a succeeded delivery, so it reads `erased` there). The published events that named the
 * user or those ICCIDs leave the outbox. A replayed event finds nothing left to erase.
 */
@EventHandler(AccountDeleted)
export class AccountDeletedEventHandler implements EventHandler<typeof AccountDeleted> {
  async handle({ userId }: EventPayload<typeof AccountDeleted>, tx: Tx): Promise<void> {
    const m = tx.manager;
    // From this commit on, a late event's write for this account leaves its personal data out (docs/accounts.md, "Late events").
    await DeletedAccounts.remember(m, userId);
    const rows: Array<{ iccid: string }> = await m.query(
      `SELECT iccid FROM esim_lines WHERE user_id = $1
       UNION SELECT iccid FROM data_gifts WHERE user_id = $1 AND iccid IS NOT NULL
       UNION SELECT iccid FROM provisionings WHERE user_id = $1 AND iccid IS NOT NULL
       UNION SELECT target_iccid FROM provisionings WHERE user_id = $1 AND target_iccid IS NOT NULL`,
      [userId],
    );
    await OutboxErasure.erase(m, [userId, ...rows.map((r) => r.iccid)]);
    const erased = OutboxErasure.ERASED;
    const iccids = rows.map((r) => r.iccid);
    // The background usage reads, low-data alerts and auto top-up rules of the person's lines (docs/wallet.md) name their ICCIDs.
    await m.query('DELETE FROM line_usage_checks WHERE iccid = ANY($1)', [iccids]);
    await m.query('DELETE FROM line_data_alerts WHERE user_id = $1', [userId]);
    await m.query('DELETE FROM auto_topup_triggers WHERE user_id = $1', [userId]);
    await m.query('DELETE FROM auto_topup_rules WHERE user_id = $1', [userId]);
    await m.query('DELETE FROM esim_lines WHERE user_id = $1', [userId]);
    await m.query(`UPDATE data_gifts SET iccid = $2 WHERE user_id = $1 AND iccid IS NOT NULL AND iccid <> $2`, [userId, erased]);
    await m.query(
      `UPDATE provisionings SET iccid = CASE WHEN iccid IS NULL THEN NULL ELSE $2 END,
              target_iccid = CASE WHEN target_iccid IS NULL THEN NULL ELSE $2 END, lpa_code = NULL, msisdn = NULL
        WHERE user_id = $1 AND (iccid <> $2 OR target_iccid <> $2 OR lpa_code IS NOT NULL OR msisdn IS NOT NULL)`,
      [userId, erased],
    );
  }
}
