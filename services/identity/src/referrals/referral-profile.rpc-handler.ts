import { Controller } from '@nestjs/common';
import { DataSource, IsNull } from 'typeorm';
import { IdentityRpc, RpcMeta, RpcRequest, RpcResponse } from '@esim/contracts';
import { actingUserId, AppError, RpcHandler } from '@esim/platform';
import { User } from '../users/user.entity';

/** At most this many friends are listed. */
const INVITEES_SHOWN = 200;

/**
 * What an inviter may see of a friend: the first word of the name they gave, never their email
 * (a name that looks like an address keeps only what is before the @), and nothing at all when the
 * friend keeps a private profile or deleted the account (docs/accounts.md, privateProfile).
 */
export function inviteeName(user: Pick<User, 'name' | 'settings' | 'deletedAt'>): string | null {
  if (user.deletedAt || !user.name || user.settings?.privateProfile) return null;
  const first = user.name.trim().split(/\s+/)[0] ?? '';
  const shown = first.includes('@') ? first.slice(0, first.indexOf('@')) : first;
  return shown.length > 0 ? shown.slice(0, 40) : null;
}

/** The acting user's referral code and invited friends (docs/earning.md, "Referrals"). */
@Controller()
export class ReferralProfileRpcHandler {
  constructor(private readonly db: DataSource) {}

  @RpcHandler(IdentityRpc.getReferralProfile)
  async profile(_: RpcRequest<typeof IdentityRpc.getReferralProfile>, meta: RpcMeta): Promise<RpcResponse<typeof IdentityRpc.getReferralProfile>> {
    const userId = actingUserId(meta);
    const users = this.db.getRepository(User);
    const me = await users.findOne({ where: { id: userId, deletedAt: IsNull() }, select: { id: true, referralCode: true } });
    if (!me) throw new AppError('user_not_found', 'User not found');
    const invitees = await users.find({ where: { referredBy: userId }, order: { createdAt: 'DESC' }, take: INVITEES_SHOWN });
    return { code: me.referralCode, invitees: invitees.map((u) => ({ userId: u.id, name: inviteeName(u) })) };
  }
}
