import { EventPayload, UserRegistered } from '@esim/contracts';
import { EventHandler, Tx } from '@esim/platform';
import { RegisteredUsers } from './registered-users.service';

/** From now on, postbacks for this user are accepted (unless the account was deleted already). */
@EventHandler(UserRegistered)
export class UserRegisteredEventHandler implements EventHandler<typeof UserRegistered> {
  constructor(private readonly users: RegisteredUsers) {}

  async handle({ userId, registeredAt }: EventPayload<typeof UserRegistered>, tx: Tx): Promise<void> {
    await this.users.registered(tx.manager, userId, new Date(registeredAt));
  }
}
