import { Injectable } from '@nestjs/common';
import { EntityManager, IsNull } from 'typeorm';
import { RegisteredUser } from './registered-user.entity';

/** Who may earn on the offer walls, as identity announced it (user-registered, account-deleted). */
@Injectable()
export class RegisteredUsers {
  /** Those of `userIds` registered and not deleted. */
  async registeredAmong(m: EntityManager, userIds: string[]): Promise<Set<string>> {
    if (userIds.length === 0) return new Set();
    // SQL rather than find({ where: In(...) }): asked once per batch of postbacks, where TypeORM's
    // In() and entity mapping cost more than the query (webhook-transactions.service.ts says why).
    const rows: Array<{ user_id: string }> = await m.query('SELECT user_id FROM registered_users WHERE user_id = ANY($1::uuid[]) AND deleted_at IS NULL', [
      [...new Set(userIds)],
    ]);
    return new Set(rows.map((r) => r.user_id));
  }

  /** A registration arriving after the deletion leaves the user deleted. */
  async registered(m: EntityManager, userId: string, at: Date): Promise<void> {
    await m.createQueryBuilder().insert().into(RegisteredUser).values({ userId, registeredAt: at, deletedAt: null }).orIgnore().execute();
  }

  /** A deletion is final, whichever of the two events arrives first. */
  async deleted(m: EntityManager, userId: string, at: Date): Promise<void> {
    await m.createQueryBuilder().insert().into(RegisteredUser).values({ userId, registeredAt: null, deletedAt: at }).orIgnore().execute();
    await m.getRepository(RegisteredUser).update({ userId, deletedAt: IsNull() }, { deletedAt: at });
  }
}
