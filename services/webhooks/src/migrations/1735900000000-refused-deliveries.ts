import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Refused deliveries by age, for their prune (refused-deliveries-pruner.service.ts): a partial
 * index holding only never-accepted `rejected_*` rows, so the accepted deliveries written on the
 * postback path add no entry to it, and the prune reads the oldest refusals without scanning
 * the table.
 */
export class WebhooksRefusedDeliveries1735900000000 implements MigrationInterface {
  name = 'WebhooksRefusedDeliveries1735900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX webhook_transactions_refused_by_age ON webhook_transactions (created_at) WHERE action IS NULL AND status LIKE 'rejected%'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX webhook_transactions_refused_by_age');
  }
}
