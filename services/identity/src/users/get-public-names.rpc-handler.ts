import { Controller } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { publicDisplayName, PublicNamesRpc, RpcMeta, RpcRequest, RpcResponse, UserSettings } from '@esim/contracts';
import { actingUserId, RpcHandler } from '@esim/platform';

/**
 * What one signed-in user may see of others (docs/accounts.md, "Private profile"): each id with
 * its name, or null where `privateProfile` is on (or the account is deleted). Asked by whatever
 * shows one user to another, a referral list above all.
 */
@Controller()
export class GetPublicNamesRpcHandler {
  constructor(private readonly db: DataSource) {}

  @RpcHandler(PublicNamesRpc.getPublicNames)
  async get({ userIds }: RpcRequest<typeof PublicNamesRpc.getPublicNames>, meta: RpcMeta): Promise<RpcResponse<typeof PublicNamesRpc.getPublicNames>> {
    actingUserId(meta);
    if (userIds.length === 0) return { names: [] };
    const rows: Array<{ id: string; name: string | null; settings: UserSettings | null; deleted_at: Date | null }> = await this.db.query(
      'SELECT id, name, settings, deleted_at FROM users WHERE id = ANY($1::uuid[])',
      [userIds],
    );
    return { names: rows.map((r) => ({ userId: r.id, displayName: publicDisplayName({ name: r.name, settings: r.settings, deletedAt: r.deleted_at }) })) };
  }
}
