import { Controller } from '@nestjs/common';
import { DataSource } from 'typeorm';
import disposableDomains from 'disposable-email-domains';
import { IdentityAdminRpc, RpcRequest, RpcResponse } from '@esim/contracts';
import { RpcHandler } from '@esim/platform';

/** The maintained list of disposable email domains (the `disposable-email-domains` package). */
const DISPOSABLE = new Set<string>(disposableDomains);
export const isDisposableEmail = (email: string): boolean => DISPOSABLE.has(email.slice(email.lastIndexOf('@') + 1).toLowerCase());

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
 * shared without a device links nothing (carrier-grade NAT).
 */
@Controller()
export class LinkedAccountsRpcHandler {
  constructor(private readonly db: DataSource) {}

  @RpcHandler(IdentityAdminRpc.linkedAccounts)
  async linked({ limit }: RpcRequest<typeof IdentityAdminRpc.linkedAccounts>): Promise<RpcResponse<typeof IdentityAdminRpc.linkedAccounts>> {
    const rows: LinkRow[] = await this.db.query(
      `WITH shared AS (
         SELECT d.device_id, max(d.last_seen_at) AS seen FROM user_devices d JOIN users u ON u.id = d.user_id AND u.deleted_at IS NULL
          GROUP BY d.device_id HAVING count(*) > 1 ORDER BY seen DESC LIMIT $1)
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
      const group = groups.get(r.device_id) ?? { reasons: ['shared_device' as const], accounts: [] };
      group.accounts.push({ userId: r.user_id, name: r.name, email: r.email, disposableEmail: isDisposableEmail(r.email), sharedNetworks: r.shared_networks });
      groups.set(r.device_id, group);
    }
    return { groups: [...groups.values()] };
  }
}
