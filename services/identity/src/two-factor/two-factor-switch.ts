import { Injectable } from '@nestjs/common';
import { DEFAULT_USER_SETTINGS } from '@esim/contracts';
import type { Tx } from '@esim/platform';
import { LiveUser, User } from '../users/user.entity';
import { publishProfileChanged } from '../users/profile-changed';

/**
 * Keeps the `twoFactorAuth` toggle the user sees equal to the real state: only enrolment and
 * disabling write it (the settings RPC refuses to), in the same transaction, and tell the gateway.
 */
@Injectable()
export class TwoFactorSwitch {
  async set(tx: Tx, user: LiveUser, on: boolean): Promise<LiveUser> {
    user.settings = { ...DEFAULT_USER_SETTINGS, ...user.settings, twoFactorAuth: on };
    const saved = (await tx.manager.getRepository(User).save(user)) as LiveUser;
    publishProfileChanged(tx, saved);
    return saved;
  }
}
