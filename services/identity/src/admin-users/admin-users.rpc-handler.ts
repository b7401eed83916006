import { Controller } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { IdentityAdminRpc, RpcMeta, RpcRequest, RpcResponse } from '@esim/contracts';
import { RpcHandler } from '@esim/platform';
import { requireAdmin } from '../admin/admin-grants';
import { UserSearch } from './user-search';

/** The admin user table's identity side; each call checks again that an admin is acting. */
@Controller()
export class AdminUsersRpcHandler {
  constructor(
    private readonly db: DataSource,
    private readonly search: UserSearch,
  ) {}

  @RpcHandler(IdentityAdminRpc.searchUsers)
  async searchUsers(req: RpcRequest<typeof IdentityAdminRpc.searchUsers>, meta: RpcMeta): Promise<RpcResponse<typeof IdentityAdminRpc.searchUsers>> {
    await requireAdmin(this.db, meta.userId);
    const parsed = IdentityAdminRpc.searchUsers.request.parse(req);
    return this.search.page(parsed);
  }

  @RpcHandler(IdentityAdminRpc.getUsers)
  async getUsers({ userIds }: RpcRequest<typeof IdentityAdminRpc.getUsers>, meta: RpcMeta): Promise<RpcResponse<typeof IdentityAdminRpc.getUsers>> {
    await requireAdmin(this.db, meta.userId);
    return { users: await this.search.byIds(userIds) };
  }

  @RpcHandler(IdentityAdminRpc.searchUserIds)
  async searchUserIds({ q }: RpcRequest<typeof IdentityAdminRpc.searchUserIds>, meta: RpcMeta): Promise<RpcResponse<typeof IdentityAdminRpc.searchUserIds>> {
    await requireAdmin(this.db, meta.userId);
    return this.search.matchingIds(q);
  }
}
