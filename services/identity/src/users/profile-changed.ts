import { ProfileChanged } from '@esim/contracts';
import type { Tx } from '@esim/platform';
import type { LiveUser } from './user.entity';
import { toIdentityUser } from './users';

/**
 * Announces the account as it was just saved, in the saving transaction (outbox). `user` must be
 * the row as saved, under its lock, so that its `version` is the one the change produced.
 */
export function publishProfileChanged(tx: Tx, user: LiveUser): void {
  tx.publish(ProfileChanged, { userId: user.id, user: toIdentityUser(user), version: user.version, changedAt: new Date().toISOString() });
}
