import { AccountDeleted, EventPayload } from '@esim/contracts';
import { DeletedAccounts, EventHandler, OutboxErasure, Tx } from '@esim/platform';

/**
 * A deleted account's purchases are transaction records the law requires kept (docs/accounts.md,
 * "Deletion", "Retention"): plan, amount, currency, country, Stripe's payment id, status and dates
 * stay; the eSIM each one delivered (ICCID, activation code, QR code, phone number) goes. The
 * database requires an ICCID and an activation code on an activated purchase, so they read
 * `erased` there. The published events that named the user or those ICCIDs leave the outbox. A
 * replayed event finds nothing left to erase.
 */
@EventHandler(AccountDeleted)
export class AccountDeletedEventHandler implements EventHandler<typeof AccountDeleted> {
  async handle({ userId }: EventPayload<typeof AccountDeleted>, tx: Tx): Promise<void> {
    const m = tx.manager;
    // From this commit on, a late event's write for this account leaves its personal data out (docs/accounts.md, "Late events").
    await DeletedAccounts.remember(m, userId);
    const erased = OutboxErasure.ERASED;
    const rows: Array<{ iccid: string }> = await m.query('SELECT iccid FROM esim_purchases WHERE user_id = $1 AND iccid IS NOT NULL', [
      userId,
    ]);
    await OutboxErasure.erase(m, [userId, ...rows.map((r) => r.iccid)]);
    await m.query(
      `UPDATE esim_purchases SET iccid = CASE WHEN iccid IS NULL THEN NULL ELSE $2 END,
              lpa_code = CASE WHEN lpa_code IS NULL THEN NULL ELSE $2 END, msisdn = NULL, qr_code = NULL, updated_at = now()
        WHERE user_id = $1 AND (iccid <> $2 OR lpa_code <> $2 OR msisdn IS NOT NULL OR qr_code IS NOT NULL)`,
      [userId, erased],
    );
  }
}
