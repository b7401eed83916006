import { IdentityRpc, RpcMeta } from '@esim/contracts';
import { RequestContext } from '../context/request-context';
import { AppError } from '../errors/app-error';
import type { RpcClient } from './rpc-client';

/**
 * Who decides whether an acting user is an admin now. Identity owns the flag: it answers from its
 * own table (services/identity passes its own authority to ServicePlatformModule); every other
 * service asks identity (`identity.is-admin`) on each admin call, never from a cache, so a revoke
 * takes effect at the next call (docs/decisions.md, "Services check their caller").
 */
export abstract class AdminAuthority {
  abstract isAdmin(userId: string, meta: RpcMeta): Promise<boolean>;
}

/** The default authority: asks identity, as the acting user, whether that user is an admin. */
export class IdentityAdminAuthority extends AdminAuthority {
  constructor(private readonly rpc: Pick<RpcClient, 'call'>) {
    super();
  }

  async isAdmin(userId: string, meta: RpcMeta): Promise<boolean> {
    const { isAdmin } = await RequestContext.run({ correlationId: meta.correlationId, userId }, () => this.rpc.call(IdentityRpc.isAdmin, {}));
    return isAdmin;
  }
}

/**
 * Refuses an admin-only RPC unless an admin is acting: 401 without an acting user, 403 for anyone
 * else. The answer of the authority is awaited, so an identity that cannot answer refuses the
 * call too (its own 503), never lets it through.
 */
export async function requireAdminCaller(authority: AdminAuthority | undefined, meta: RpcMeta | undefined, pattern: string): Promise<void> {
  if (!meta?.userId) throw new AppError('admin_caller_missing', 'Please sign in to continue.');
  if (!authority) throw new AppError('admin_authority_missing', `Something went wrong on our side (no admin check for ${pattern}). Please try again.`);
  if (!(await authority.isAdmin(meta.userId, meta))) throw new AppError('not_admin', "Access Denied - You don't have admin privileges.");
}
