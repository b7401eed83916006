import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Card purchases (docs/payments.md). One `esim_purchases` row per PaymentIntent (unique): the
 * fulfilment moves it out of pending/payment_failed with one conditional UPDATE, so of any number
 * of confirmations and webhooks exactly one publishes PaymentSucceeded. `webhook_transactions`
 * records Stripe's deliveries, one row per accepted event id (a replay only bumps `deliveries`);
 * refused deliveries are rows without a trusted event id. The `sandbox_stripe_*` tables are the
 * Stripe emulator's state, so that every replica of the service sees the same intents (the emulator
 * has since moved to the sandboxes process and its own schema: 1737000000000-stripe-sandbox-moved.ts).
 */
export class Purchases1732062000000 implements MigrationInterface {
  name = 'Purchases1732062000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE esim_purchases (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL,
        plan_type text NOT NULL CHECK (plan_type IN ('1GB', '3GB', '5GB', '10GB')),
        amount_gb integer NOT NULL CHECK (amount_gb > 0),
        price_usd integer NOT NULL CHECK (price_usd > 0),
        currency text NOT NULL DEFAULT 'usd',
        country text NOT NULL CHECK (country ~ '^[A-Z]{2}$'),
        payment_intent_id text NOT NULL,
        status text NOT NULL DEFAULT 'pending'
          CHECK (status IN ('pending', 'payment_failed', 'processing', 'activated', 'manual_delivery_required', 'refunded')),
        iccid text,
        lpa_code text,
        msisdn text,
        qr_code text,
        provider_order_id text,
        failure_reason text,
        failure_message text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        paid_at timestamptz,
        activated_at timestamptz,
        CONSTRAINT esim_purchases_one_per_payment_intent UNIQUE (payment_intent_id),
        CONSTRAINT esim_purchases_activated_has_esim CHECK (status <> 'activated' OR (iccid IS NOT NULL AND lpa_code IS NOT NULL))
      )`);
    await q.query('CREATE INDEX esim_purchases_by_user ON esim_purchases (user_id, created_at DESC)');
    await q.query(`CREATE INDEX esim_purchases_awaiting_delivery ON esim_purchases (paid_at) WHERE status = 'manual_delivery_required'`);

    await q.query(`
      CREATE TABLE webhook_transactions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        provider text NOT NULL,
        transaction_id text,
        event_type text,
        payment_intent_id text,
        user_id uuid,
        status text NOT NULL CHECK (status IN ('processed', 'ignored', 'rejected_signature', 'rejected_invalid')),
        amount_cents integer,
        raw_payload text NOT NULL,
        error text,
        deliveries integer NOT NULL DEFAULT 1,
        processed_at timestamptz NOT NULL DEFAULT now(),
        created_at timestamptz NOT NULL DEFAULT now(),
        last_delivered_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT webhook_transactions_one_per_event UNIQUE (provider, transaction_id)
      )`);
    await q.query('CREATE INDEX webhook_transactions_by_payment_intent ON webhook_transactions (payment_intent_id) WHERE payment_intent_id IS NOT NULL');

    await q.query(`
      CREATE TABLE sandbox_stripe_objects (
        id text PRIMARY KEY,
        object text NOT NULL,
        data jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query('CREATE INDEX sandbox_stripe_objects_by_type ON sandbox_stripe_objects (object, created_at DESC)');
    await q.query(`
      CREATE TABLE sandbox_stripe_idempotency_keys (
        key text PRIMARY KEY,
        fingerprint text NOT NULL,
        http_status integer,
        body jsonb,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE sandbox_stripe_idempotency_keys');
    await q.query('DROP TABLE sandbox_stripe_objects');
    await q.query('DROP TABLE webhook_transactions');
    await q.query('DROP TABLE esim_purchases');
  }
}
