import { Injectable } from '@nestjs/common';
import { EntityManager, IsNull } from 'typeorm';
import { RegisteredUser } from './registered-user.entity';

/** Who may earn on the offer walls, as identity announced it (user-registered, account-deleted). */
@Injectable()
export class RegisteredUsers {
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
