import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import { DEFAULT_USER_SETTINGS, type IdentityUser } from '@esim/contracts';
import { AppError } from '@esim/platform';
import { LiveUser, User } from './user.entity';

/** Reads of live (not deleted) accounts; `lock` takes the row for the rest of the transaction. */
@Injectable()
export class Users {
  constructor(private readonly db: DataSource) {}

  async findByEmail(email: string, manager: EntityManager = this.db.manager): Promise<LiveUser | null> {
    return (await manager.getRepository(User).findOneBy({ email: email.toLowerCase(), deletedAt: IsNull() })) as LiveUser | null;
  }

  async require(id: string, manager: EntityManager = this.db.manager, opts: { lock?: boolean } = {}): Promise<LiveUser> {
    const user = await manager.getRepository(User).findOne({
      where: { id, deletedAt: IsNull() },
      ...(opts.lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
    if (!user) throw new AppError('user_not_found', 'Account not found');
    return user as LiveUser;
  }
}

export function toIdentityUser(user: LiveUser): IdentityUser {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    emailVerified: user.emailVerified,
    createdAt: user.createdAt.toISOString(),
    isAdmin: user.isAdmin,
    phone: user.phone,
    locale: user.locale,
    // Toggles added after the account was created read as their defaults.
    settings: { ...DEFAULT_USER_SETTINGS, ...user.settings },
  };
}

/** Two transactions raced for one unique value (an email): the later one lost. */
export { isUniqueViolation } from '@esim/platform';
