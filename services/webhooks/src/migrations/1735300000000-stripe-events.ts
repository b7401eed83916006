import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Stripe's webhook events join the offer-wall postbacks in `webhook_transactions`: an accepted
 * event is recorded with `action = 'event'` under its Stripe event id, so the partial unique index
 * `webhook_transactions_accepted_once` (provider, transaction_id, action) accepts each event once.
 * It names no user for certain (a PaymentIntent's metadata does, when there is one), and a refused
 * delivery keeps why it was refused (`error`: the SDK's message).
 */
export class WebhooksStripeEvents1735300000000 implements MigrationInterface {
  name = 'WebhooksStripeEvents1735300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE webhook_transactions DROP CONSTRAINT webhook_transactions_action_check');
    await q.query(`ALTER TABLE webhook_transactions ADD CONSTRAINT webhook_transactions_action_check CHECK (action IN ('credit', 'reverse', 'event'))`);
    await q.query('ALTER TABLE webhook_transactions DROP CONSTRAINT webhook_transactions_accepted_whole');
    await q.query(`
      ALTER TABLE webhook_transactions ADD CONSTRAINT webhook_transactions_accepted_whole
        CHECK (action IS NULL OR (transaction_id IS NOT NULL AND (user_id IS NOT NULL OR action = 'event')))`);
    await q.query('ALTER TABLE webhook_transactions ADD COLUMN error text');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM webhook_transactions WHERE provider = 'stripe'`);
    await q.query('ALTER TABLE webhook_transactions DROP COLUMN error');
    await q.query('ALTER TABLE webhook_transactions DROP CONSTRAINT webhook_transactions_accepted_whole');
    await q.query(
      'ALTER TABLE webhook_transactions ADD CONSTRAINT webhook_transactions_accepted_whole CHECK (action IS NULL OR (transaction_id IS NOT NULL AND user_id IS NOT NULL))',
    );
    await q.query('ALTER TABLE webhook_transactions DROP CONSTRAINT webhook_transactions_action_check');
    await q.query(`ALTER TABLE webhook_transactions ADD CONSTRAINT webhook_transactions_action_check CHECK (action IN ('credit', 'reverse'))`);
  }
}
