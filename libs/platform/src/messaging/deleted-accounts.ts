import type { EntityManager } from 'typeorm';

/**
 * The accounts a service saw deleted (table `deleted_accounts`, migration 1732060800004): their
 * ids only. Written by each service's AccountDeleted handler in the inbox's transaction, so the
 * guards on the service's tables and outbox refuse the person's data from the same commit on.
 */
export class DeletedAccounts {
  static async remember(manager: EntityManager, userId: string): Promise<void> {
    await manager.query('INSERT INTO deleted_accounts (user_id) VALUES ($1) ON CONFLICT (user_id) DO NOTHING', [userId]);
  }
}
