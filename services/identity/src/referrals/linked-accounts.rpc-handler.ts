import { Controller } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { IdentityAdminRpc, RpcRequest, RpcResponse } from '@esim/contracts';
import { AppError, RpcHandler, UnitOfWork } from '@esim/platform';
import { DeviceSignals } from './device-signals';
import { isDisposableEmail } from './disposable-email';

interface LinkRow {
  device_id: string;
  user_id: string;
  name: string;
  email: string;
  shared_networks: number;
}

/**
 * Accounts linked by the fraud signals, for the admins (docs/earning.md, "Fair fraud control"):
 * live accounts that used one device, most recently seen first; each with whether its email is a
 * disposable address and how many of its networks another account of the group used. A network
 * shared without a device links nothing (carrier-grade NAT). A group whose rows an admin all
 * marked "not the same person" is no longer listed (migration 1736400000000-link-decisions).
 */
@Controller()
export class LinkedAccountsRpcHandler {
  constructor(
    private readonly db: DataSource,
    private readonly uow: UnitOfWork,
    private readonly devices: DeviceSignals,
  ) {}

  @RpcHandler(IdentityAdminRpc.linkedAccounts)
  async linked({ limit }: RpcRequest<typeof IdentityAdminRpc.linkedAccounts>): Promise<RpcResponse<typeof IdentityAdminRpc.linkedAccounts>> {
    const rows: LinkRow[] = await this.db.query(
      `WITH shared AS (
         SELECT d.device_id, max(d.last_seen_at) AS seen FROM user_devices d JOIN users u ON u.id = d.user_id AND u.deleted_at IS NULL
          GROUP BY d.device_id HAVING count(*) > 1 AND bool_or(d.link_cleared_at IS NULL) ORDER BY seen DESC LIMIT $1)
       SELECT s.device_id, u.id AS user_id, u.name, u.email,
              (SELECT count(*)::int FROM user_networks n WHERE n.user_id = u.id AND EXISTS (
                 SELECT 1 FROM user_networks o JOIN user_devices od ON od.user_id = o.user_id AND od.device_id = s.device_id
                  WHERE o.network = n.network AND o.user_id <> u.id)) AS shared_networks
         FROM shared s JOIN user_devices d ON d.device_id = s.device_id JOIN users u ON u.id = d.user_id AND u.deleted_at IS NULL
        ORDER BY s.seen DESC, u.created_at`,
      [limit],
    );
    const groups = new Map<string, RpcResponse<typeof IdentityAdminRpc.linkedAccounts>['groups'][number]>();
    for (const r of rows) {
      const group = groups.get(r.device_id) ?? { groupId: r.device_id, reasons: ['shared_device' as const], accounts: [] };
      group.accounts.push({ userId: r.user_id, name: r.name, email: r.email, disposableEmail: isDisposableEmail(r.email), sharedNetworks: r.shared_networks });
      groups.set(r.device_id, group);
    }
    return { groups: [...groups.values()] };
  }

  /**
   * The live accounts a device links; with `notSamePerson`, an admin decided they are different
   * people: every row of the device is marked and their signals announced anew (no longer linked
   * by it). 404 when the device links no two live accounts.
   */
  @RpcHandler(IdentityAdminRpc.linkedGroup)
  group({ groupId, notSamePerson }: RpcRequest<typeof IdentityAdminRpc.linkedGroup>): Promise<RpcResponse<typeof IdentityAdminRpc.linkedGroup>> {
    return this.uow.run(async (tx) => {
      const rows: Array<{ user_id: string; cleared: boolean }> = await tx.manager.query(
        `SELECT d.user_id, d.link_cleared_at IS NOT NULL AS cleared FROM user_devices d JOIN users u ON u.id = d.user_id AND u.deleted_at IS NULL
          WHERE d.device_id = $1 ORDER BY u.created_at FOR UPDATE OF d`,
        [groupId],
      );
      if (rows.length < 2 || rows.every((r) => r.cleared)) throw new AppError('linked_group_not_found', 'This device links no accounts (any more).');
      const userIds = rows.map((r) => r.user_id);
      if (notSamePerson) {
        await tx.manager.query('UPDATE user_devices SET link_cleared_at = now() WHERE device_id = $1 AND link_cleared_at IS NULL', [groupId]);
        await this.devices.announce(tx, userIds);
      }
      return { userIds };
    });
  }
}
