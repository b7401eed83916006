import { MigrationInterface, QueryRunner } from 'typeorm';

const STATUSES_BEFORE = `'processing', 'esim_activation_ready', 'completed', 'manual_transfer_required', 'failed'`;

/**
 * Risk rules over redemptions (docs/earning.md, "Risk rules"). `account_risk` keeps, per user,
 * identity's signals as its AccountSignalsChanged last said them (a copy never overwrites a newer
 * one: `signals_at`) and the admins' latest control (paused, review, or cleared: lifted), with
 * the reason the user reads. A redemption the rules send to an admin is `pending_review` with its
 * points reserved in the ledger (unsettled, like `processing`); a rejected one is `rejected`, its
 * reservation voided (settled). One appeal per user waits at a time (the partial unique index).
 */
export class RedemptionRisk1736400000000 implements MigrationInterface {
  name = 'RedemptionRisk1736400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE account_risk (
        user_id uuid PRIMARY KEY,
        disposable_email boolean NOT NULL DEFAULT false,
        linked_accounts int NOT NULL DEFAULT 0 CHECK (linked_accounts >= 0),
        signals_at timestamptz,
        control text CHECK (control IN ('paused', 'review', 'cleared')),
        control_reason text CHECK (length(control_reason) BETWEEN 1 AND 500),
        control_by uuid,
        control_at timestamptz,
        CONSTRAINT account_risk_control_reason CHECK ((control IS NULL) = (control_reason IS NULL))
      )`);
    await q.query(`
      CREATE TABLE redemption_appeals (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL,
        message text NOT NULL CHECK (length(message) BETWEEN 1 AND 1000),
        status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'answered')),
        answer text CHECK (length(answer) BETWEEN 1 AND 500),
        decided_by uuid,
        decided_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT redemption_appeals_answered CHECK ((status = 'answered') = (answer IS NOT NULL AND decided_at IS NOT NULL))
      )`);
    await q.query(`CREATE UNIQUE INDEX redemption_appeals_one_open ON redemption_appeals (user_id) WHERE status = 'open'`);
    await q.query('CREATE INDEX redemption_appeals_by_user ON redemption_appeals (user_id, created_at DESC)');

    await q.query('ALTER TABLE redemptions ADD COLUMN review_reasons text[], ADD COLUMN reviewed_by uuid, ADD COLUMN review_note text');
    await q.query('ALTER TABLE redemptions DROP CONSTRAINT redemptions_status_check, DROP CONSTRAINT redemptions_settled');
    await q.query(`ALTER TABLE redemptions ADD CONSTRAINT redemptions_status_check CHECK (status IN (${STATUSES_BEFORE}, 'pending_review', 'rejected'))`);
    await q.query(`ALTER TABLE redemptions ADD CONSTRAINT redemptions_settled CHECK ((status IN ('processing', 'manual_transfer_required', 'pending_review')) = (settled_at IS NULL))`);
    await q.query(`ALTER TABLE redemptions ADD CONSTRAINT redemptions_reviewed CHECK ((status = 'pending_review') <= (review_reasons IS NOT NULL))`);
    await q.query(`CREATE INDEX redemptions_pending_review ON redemptions (created_at) WHERE status = 'pending_review'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX redemptions_pending_review');
    await q.query('ALTER TABLE redemptions DROP CONSTRAINT redemptions_reviewed, DROP CONSTRAINT redemptions_status_check, DROP CONSTRAINT redemptions_settled');
    await q.query(`ALTER TABLE redemptions ADD CONSTRAINT redemptions_status_check CHECK (status IN (${STATUSES_BEFORE}))`);
    await q.query(`ALTER TABLE redemptions ADD CONSTRAINT redemptions_settled CHECK ((status IN ('processing', 'manual_transfer_required')) = (settled_at IS NULL))`);
    await q.query('ALTER TABLE redemptions DROP COLUMN review_reasons, DROP COLUMN reviewed_by, DROP COLUMN review_note');
    await q.query('DROP TABLE redemption_appeals');
    await q.query('DROP TABLE account_risk');
  }
}
