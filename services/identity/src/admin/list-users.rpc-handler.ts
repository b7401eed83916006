import { Controller } from '@nestjs/common';
import { DataSource, IsNull } from 'typeorm';
import { IdentityRpc, RpcRequest, RpcResponse } from '@esim/contracts';
import { RpcHandler } from '@esim/platform';
import { LiveUser, User } from '../users/user.entity';

/** The admin user table's identity columns, for an acting admin (admin-only: the RPC server refuses anyone else, whatever the gateway checked). */
@Controller()
export class ListUsersRpcHandler {
  constructor(private readonly db: DataSource) {}

  @RpcHandler(IdentityRpc.listUsers)
  async list(
    { limit, offset }: RpcRequest<typeof IdentityRpc.listUsers>,
  ): Promise<RpcResponse<typeof IdentityRpc.listUsers>> {
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
