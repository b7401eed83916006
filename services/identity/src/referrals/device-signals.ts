import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AccountSignalsChanged } from '@esim/contracts';
import { Tx } from '@esim/platform';
import { isDisposableEmail } from './disposable-email';

/**
 * Two live accounts are linked when they used one device and an admin has not decided, for both
 * their rows, that they are different people (migration 1736400000000-link-decisions).
 */
const LINKED_TO = `
  SELECT DISTINCT o.user_id FROM user_devices d
    JOIN user_devices o ON o.device_id = d.device_id AND o.user_id <> d.user_id
    JOIN users u ON u.id = o.user_id AND u.deleted_at IS NULL
   WHERE d.user_id = $1 AND (d.link_cleared_at IS NULL OR o.link_cleared_at IS NULL)`;

/**
 * The first-party device ids accounts signed up and signed in from (migration 1736300000000,
 * `user_devices`): the SPA's own id, sent as `X-Device-Id`. A device shared by two accounts links
 * them; an address never does on its own (carrier-grade NAT puts many people behind one).
 */
@Injectable()
export class DeviceSignals {
  /**
   * Answers whether the device is new to the account. Takes the device's turn (a transaction lock
   * on its id) first: two accounts signing up or in on one device at the same moment would each
   * miss the other's uncommitted row, and their link would never be announced.
   */
  async record(m: EntityManager, userId: string, deviceId: string | undefined): Promise<boolean> {
    if (!deviceId) return false;
    await m.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`user_devices:${deviceId}`]);
    const rows: Array<{ inserted: boolean }> = await m.query(
      `INSERT INTO user_devices (user_id, device_id) VALUES ($1, $2)
       ON CONFLICT (user_id, device_id) DO UPDATE SET last_seen_at = now()
       RETURNING (xmax = 0) AS inserted`,
      [userId, deviceId],
    );
    return rows[0]?.inserted ?? false;
  }

  /** The network (IPv4 address or IPv6 /64) of a sign-up or sign-in: shown beside links, never a link itself. */
  async recordNetwork(m: EntityManager, userId: string, network: string | undefined): Promise<void> {
    if (!network) return;
    await m.query(
      `INSERT INTO user_networks (user_id, network) VALUES ($1, $2)
       ON CONFLICT (user_id, network) DO UPDATE SET last_seen_at = now()`,
      [userId, network],
    );
  }

  /** Whether `userId` has used `deviceId`. */
  async used(m: EntityManager, userId: string, deviceId: string): Promise<boolean> {
    const rows: unknown[] = await m.query('SELECT 1 FROM user_devices WHERE user_id = $1 AND device_id = $2', [userId, deviceId]);
    return rows.length > 0;
  }

  /**
   * Announces the account's signals and those of every account it is linked to (their count of
   * links changed too), for rewards' risk rules (docs/earning.md, "Risk rules").
   */
  async announceWithLinked(tx: Tx, userId: string): Promise<void> {
    await this.announce(tx, [userId, ...(await this.linkedTo(tx.manager, userId))]);
  }

  /** The live accounts a device links to `userId`. */
  async linkedTo(m: EntityManager, userId: string): Promise<string[]> {
    const rows: Array<{ user_id: string }> = await m.query(LINKED_TO, [userId]);
    return rows.map((r) => r.user_id);
  }

  /** AccountSignalsChanged for each live account among `userIds`. */
  async announce(tx: Tx, userIds: string[]): Promise<void> {
    const changedAt = new Date().toISOString();
    for (const userId of new Set(userIds)) {
      const [user]: Array<{ email: string }> = await tx.manager.query('SELECT email FROM users WHERE id = $1 AND deleted_at IS NULL', [userId]);
      if (!user) continue;
      const linked: unknown[] = await tx.manager.query(LINKED_TO, [userId]);
      tx.publish(AccountSignalsChanged, { userId, disposableEmail: isDisposableEmail(user.email), linkedAccounts: linked.length, changedAt });
    }
  }
}
