import { Controller } from '@nestjs/common';
import { IdentityAdminRpc, RpcRequest, RpcResponse } from '@esim/contracts';
import { RpcHandler } from '@esim/platform';
import { UserSearch } from './user-search';

/** The admin user table's identity side; admin-only RPCs, refused by the RPC server unless an admin acts. */
@Controller()
export class AdminUsersRpcHandler {
  constructor(private readonly search: UserSearch) {}

  @RpcHandler(IdentityAdminRpc.searchUsers)
  async searchUsers(req: RpcRequest<typeof IdentityAdminRpc.searchUsers>): Promise<RpcResponse<typeof IdentityAdminRpc.searchUsers>> {
    const parsed = IdentityAdminRpc.searchUsers.request.parse(req);
    return this.search.page(parsed);
  }

  @RpcHandler(IdentityAdminRpc.getUsers)
  async getUsers({ userIds }: RpcRequest<typeof IdentityAdminRpc.getUsers>): Promise<RpcResponse<typeof IdentityAdminRpc.getUsers>> {
    return { users: await this.search.byIds(userIds) };
  }

  @RpcHandler(IdentityAdminRpc.searchUserIds)
  async searchUserIds({ q }: RpcRequest<typeof IdentityAdminRpc.searchUserIds>): Promise<RpcResponse<typeof IdentityAdminRpc.searchUserIds>> {
    return this.search.matchingIds(q);
  }
}
