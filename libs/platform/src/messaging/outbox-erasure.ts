import type { EntityManager } from 'typeorm';

/**
 * What a deleted person's personal data is replaced with where a column must keep a value (a
 * delivered gift, an activated purchase: the database requires an ICCID there).
 */
const ERASED = 'erased';

/**
 * Erasing a deleted person from a service's own outbox (docs/accounts.md, "Deletion"). The outbox
 * keeps published events for the relay's retention (OutboxRelay.prune), and their envelopes carry
 * what the events carried: emails, names, ICCIDs. A published row has done its work, so every one
 * whose envelope names the person (`needles`: their user id, email, ICCIDs) is deleted at once.
 * An unpublished one is still owed to its consumers and is left to the relay, which publishes it
 * within moments; the retention prune removes it then.
 */
export class OutboxErasure {
  static readonly ERASED = ERASED;

  /** Deletes the published outbox rows that name any of `needles`; answers how many. */
  static async erase(manager: EntityManager, needles: Array<string | null | undefined>): Promise<number> {
    const terms = [...new Set(needles.filter((n): n is string => !!n && n !== ERASED).map((n) => n.toLowerCase()))];
    if (terms.length === 0) return 0;
    const [, deleted] = await manager.query(
      `DELETE FROM outbox_events WHERE published_at IS NOT NULL AND EXISTS (SELECT 1 FROM unnest($1::text[]) AS t(term) WHERE strpos(lower(envelope::text), t.term) > 0)`,
      [terms],
    );
    return Number(deleted ?? 0);
  }
}
