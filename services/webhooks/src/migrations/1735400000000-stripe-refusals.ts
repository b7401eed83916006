import { MigrationInterface, QueryRunner } from 'typeorm';

const OUTCOMES = [
  'accepted',
  'duplicate',
  'ignored',
  'rejected_disabled',
  'rejected_ip',
  'rejected_signature',
  'rejected_invalid',
  'rejected_amount',
  'rejected_unknown_user',
  'rejected_unknown_transaction',
];
/** What payments reports back for an accepted Stripe event it did not apply (PAYMENTS_REFUSALS in the contracts). */
const PAYMENTS_REFUSALS = ['rejected_unknown_payment', 'rejected_payment_mismatch'];

const statusCheck = (outcomes: string[]) =>
  `ALTER TABLE webhook_transactions ADD CONSTRAINT webhook_transactions_status_check CHECK (status IN (${outcomes.map((o) => `'${o}'`).join(', ')}))`;

/**
 * A Stripe event payments could not apply (payments.stripe-event-refused.v1) ends with payments'
 * outcome on its delivery row: no purchase for the PaymentIntent, or an intent that does not pay
 * its purchase. The reason goes to `error`, beside the signature refusals' reasons.
 */
export class WebhooksStripeRefusals1735400000000 implements MigrationInterface {
  name = 'WebhooksStripeRefusals1735400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE webhook_transactions DROP CONSTRAINT webhook_transactions_status_check');
    await q.query(statusCheck([...OUTCOMES, ...PAYMENTS_REFUSALS]));
  }

  async down(q: QueryRunner): Promise<void> {
    // The events were accepted before payments refused them.
    await q.query(
      `UPDATE webhook_transactions SET status = 'accepted', error = NULL WHERE status IN (${PAYMENTS_REFUSALS.map((o) => `'${o}'`).join(', ')})`,
    );
    await q.query('ALTER TABLE webhook_transactions DROP CONSTRAINT webhook_transactions_status_check');
    await q.query(statusCheck(OUTCOMES));
  }
}
