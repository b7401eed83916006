import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The esim side of the redemption saga (docs/redemption.md).
 *
 * - `provisionings`: one per redemption (points or gift claim), `redemption_id` is the reference
 *   we give the provider, so it is unique. `status` leaves pending/in_progress exactly once;
 *   `lease_until` says when a worker may (re)claim it: whoever claims it first runs it, and a
 *   worker that died mid-call leaves it to be claimed again after the lease.
 * - `data_gifts` gains where a gift came from and what delivered it: an admin gift is `granted`,
 *   `claimed` while its provisioning runs, then `delivered` (or granted again on a refusal); a
 *   points redemption writes a delivered row. One row per provisioning at most.
 * - `esim_lines`: the user's wallet, one row per user and ICCID.
 */
export class EsimRedemptions1732063000000 implements MigrationInterface {
  name = 'EsimRedemptions1732063000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE data_gifts
        ADD COLUMN source text NOT NULL DEFAULT 'points' CHECK (source IN ('points', 'admin')),
        ADD COLUMN granted_gb integer CHECK (granted_gb > 0),
        ADD COLUMN granted_by uuid,
        ADD COLUMN provisioning_id uuid UNIQUE`);
    await q.query('ALTER TABLE data_gifts DROP CONSTRAINT data_gifts_status_check');
    await q.query(`ALTER TABLE data_gifts ADD CONSTRAINT data_gifts_status_check CHECK (status IN ('granted', 'claimed', 'delivered', 'cancelled'))`);
    await q.query(`ALTER TABLE data_gifts ADD CONSTRAINT data_gifts_delivered CHECK ((status = 'delivered') = (delivered_at IS NOT NULL AND iccid IS NOT NULL))`);
    await q.query(`CREATE INDEX data_gifts_claimable ON data_gifts (user_id, amount_gb, created_at) WHERE status = 'granted'`);

    await q.query(`
      CREATE TABLE provisionings (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        redemption_id uuid NOT NULL UNIQUE,
        user_id uuid NOT NULL,
        source text NOT NULL CHECK (source IN ('points', 'gift')),
        idempotency_key text,
        claimed_gift_id uuid REFERENCES data_gifts (id),
        kind text NOT NULL CHECK (kind IN ('new', 'topup')),
        plan_tier text NOT NULL CHECK (plan_tier IN ('1GB', '3GB', '5GB')),
        amount_gb integer NOT NULL CHECK (amount_gb > 0),
        points integer NOT NULL DEFAULT 0 CHECK (points >= 0),
        country text,
        target_iccid text,
        status text NOT NULL DEFAULT 'pending'
          CHECK (status IN ('pending', 'in_progress', 'succeeded', 'refused', 'manual_transfer_required')),
        attempts integer NOT NULL DEFAULT 0,
        lease_until timestamptz NOT NULL DEFAULT now(),
        iccid text,
        lpa_code text,
        msisdn text,
        provider_transaction_id text,
        delivered_gift_id uuid REFERENCES data_gifts (id),
        failure_reason text,
        failure_message text,
        created_at timestamptz NOT NULL DEFAULT now(),
        completed_at timestamptz,
        CONSTRAINT provisionings_one_claim_per_key UNIQUE (user_id, idempotency_key),
        CONSTRAINT provisionings_gift_claim CHECK ((source = 'gift') = (claimed_gift_id IS NOT NULL AND idempotency_key IS NOT NULL)),
        CONSTRAINT provisionings_target CHECK ((kind = 'new' AND country IS NOT NULL) OR (kind = 'topup' AND target_iccid IS NOT NULL)),
        CONSTRAINT provisionings_outcome CHECK ((status IN ('pending', 'in_progress')) = (completed_at IS NULL)),
        CONSTRAINT provisionings_delivered CHECK ((status = 'succeeded') = (iccid IS NOT NULL AND delivered_gift_id IS NOT NULL))
      )`);
    await q.query(`CREATE INDEX provisionings_due ON provisionings (lease_until) WHERE status IN ('pending', 'in_progress')`);
    await q.query('CREATE INDEX provisionings_by_user ON provisionings (user_id, created_at DESC)');
    // At most one running claim per admin gift.
    await q.query(`CREATE UNIQUE INDEX provisionings_gift_once ON provisionings (claimed_gift_id) WHERE status IN ('pending', 'in_progress', 'succeeded', 'manual_transfer_required')`);

    await q.query(`
      CREATE TABLE esim_lines (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL,
        iccid text NOT NULL,
        lpa_code text,
        msisdn text,
        plan_tier text NOT NULL,
        source text NOT NULL CHECK (source IN ('redeemed', 'gifted', 'bought')),
        total_gb integer NOT NULL DEFAULT 0 CHECK (total_gb >= 0),
        created_at timestamptz NOT NULL DEFAULT now(),
        last_delivered_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT esim_lines_one_per_user UNIQUE (user_id, iccid)
      )`);
    await q.query('CREATE INDEX esim_lines_by_user ON esim_lines (user_id, last_delivered_at DESC)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE esim_lines');
    await q.query('DROP TABLE provisionings');
    await q.query('DROP INDEX data_gifts_claimable');
    await q.query('ALTER TABLE data_gifts DROP CONSTRAINT data_gifts_delivered');
    await q.query('ALTER TABLE data_gifts DROP CONSTRAINT data_gifts_status_check');
    await q.query(`ALTER TABLE data_gifts ADD CONSTRAINT data_gifts_status_check CHECK (status IN ('granted', 'delivered', 'cancelled'))`);
    await q.query('ALTER TABLE data_gifts DROP COLUMN provisioning_id, DROP COLUMN granted_by, DROP COLUMN granted_gb, DROP COLUMN source');
  }
}
