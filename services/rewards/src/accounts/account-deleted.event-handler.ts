import { AccountDeleted, EventPayload } from '@esim/contracts';
import { DeletedAccounts, EventHandler, OutboxErasure, Tx } from '@esim/platform';
import { Ledger } from '../ledger/ledger';

/**
 * A deleted account keeps its ledger and task records (transaction records are kept for 7 years),
 * which hold nothing personal but the user id. Its points account is closed, so nothing more is
 * credited. Its redemptions keep plan, points and dates, but not the eSIM they delivered: ICCIDs,
 * activation code and phone number go (`erased` where the database requires a target ICCID), and
 * so do the published events that named the user or those ICCIDs (docs/accounts.md, "Deletion").
 * (The raw postback payloads, which carry the user's IP address, live in the webhooks service,
 * which erases them on the same event.) A replayed event finds nothing left to erase.
 */
@EventHandler(AccountDeleted)
export class AccountDeletedEventHandler implements EventHandler<typeof AccountDeleted> {
  constructor(private readonly ledger: Ledger) {}

  async handle({ userId }: EventPayload<typeof AccountDeleted>, tx: Tx): Promise<void> {
    const m = tx.manager;
    // From this commit on, a late event's write for this account leaves its personal data out (docs/accounts.md, "Late events").
    await DeletedAccounts.remember(m, userId);
    await this.ledger.closeUserAccount(m, userId);
    const erased = OutboxErasure.ERASED;
    const rows: Array<{ iccid: string }> = await m.query(
      `SELECT iccid FROM redemptions WHERE user_id = $1 AND iccid IS NOT NULL
       UNION SELECT target_iccid FROM redemptions WHERE user_id = $1 AND target_iccid IS NOT NULL`,
      [userId],
    );
    await OutboxErasure.erase(m, [userId, ...rows.map((r) => r.iccid)]);
    await m.query(
      `UPDATE redemptions SET iccid = CASE WHEN iccid IS NULL THEN NULL ELSE $2 END,
              target_iccid = CASE WHEN target_iccid IS NULL THEN NULL ELSE $2 END, lpa_code = NULL, msisdn = NULL
        WHERE user_id = $1 AND (iccid <> $2 OR target_iccid <> $2 OR lpa_code IS NOT NULL OR msisdn IS NOT NULL)`,
      [userId, erased],
    );
  }
}
