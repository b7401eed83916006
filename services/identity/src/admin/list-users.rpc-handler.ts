import { Controller } from '@nestjs/common';
import { DataSource, IsNull } from 'typeorm';
import { IdentityRpc, RpcMeta, RpcRequest, RpcResponse } from '@esim/contracts';
import { RpcHandler } from '@esim/platform';
import { LiveUser, User } from '../users/user.entity';
import { requireAdmin } from './admin-grants';

/** The admin user table's identity columns, for an acting admin (checked here again, not only by the gateway). */
@Controller()
export class ListUsersRpcHandler {
  constructor(private readonly db: DataSource) {}

  @RpcHandler(IdentityRpc.listUsers)
  async list(
    { limit, offset }: RpcRequest<typeof IdentityRpc.listUsers>,
    meta: RpcMeta,
  ): Promise<RpcResponse<typeof IdentityRpc.listUsers>> {
    await requireAdmin(this.db, meta.userId);
    const users = (await this.db.getRepository(User).find({
      where: { deletedAt: IsNull() },
      order: { createdAt: 'ASC', id: 'ASC' },
      take: limit,
      skip: offset,
    })) as LiveUser[];
    return {
      users: users.map((u) => ({ id: u.id, name: u.name, email: u.email, isAdmin: u.isAdmin, createdAt: u.createdAt.toISOString() })),
    };
  }
}
