import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

/**
 * The first-party device ids accounts signed up and signed in from (migration 1736300000000,
 * `user_devices`): the SPA's own id, sent as `X-Device-Id`. A device shared by two accounts links
 * them; an address never does on its own (carrier-grade NAT puts many people behind one).
 */
@Injectable()
export class DeviceSignals {
  async record(m: EntityManager, userId: string, deviceId: string | undefined): Promise<void> {
    if (!deviceId) return;
    await m.query(
      `INSERT INTO user_devices (user_id, device_id) VALUES ($1, $2)
       ON CONFLICT (user_id, device_id) DO UPDATE SET last_seen_at = now()`,
      [userId, deviceId],
    );
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
}
