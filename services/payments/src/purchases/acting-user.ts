import type { RpcMeta } from '@esim/contracts';
import { AppError } from '@esim/platform';

/** The signed-in user the gateway acts for (meta.userId); purchases are always someone's. */
export function actingUser(meta: RpcMeta): string {
  if (!meta.userId) throw new AppError('unauthorized', 'Please sign in to continue.');
  return meta.userId;
}
