import { MigrationInterface, QueryRunner } from 'typeorm';

const KINDS_BEFORE = `'signup_bonus', 'offerwall_credit', 'offerwall_reversal', 'reservation', 'redemption', 'release', 'hold_release', 'claim_credit'`;

const notToClosed = (kinds: string) => `
      CREATE OR REPLACE FUNCTION ledger_transfers_not_to_closed() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        closed uuid;
      BEGIN
        SELECT a.id INTO closed
          FROM new_transfers t JOIN ledger_accounts a ON a.id = t.credit_account_id
         WHERE t.kind IN (${kinds}) AND a.closed_at IS NOT NULL
         LIMIT 1;
        IF FOUND THEN
          RAISE EXCEPTION 'ledger account % is closed', closed USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_account_closed';
        END IF;
        RETURN NULL;
      END $$`;

/**
 * Referrals (docs/earning.md, "Referrals"). One row per friend who signed up with a code
 * (`friend_id` is the key: one inviter per friend). The two bonuses are `referral_bonus` transfers
 * from the new system account `referrals`, referenced `<friend id>:friend` and `<friend id>:inviter`:
 * the ledger's `UNIQUE (kind, reference)` pays each once per friend, however often the friend's
 * credits are replayed or the qualification is announced. A void referral pays nothing (the checks:
 * paid only from pending, void with its reason).
 */
export class Referrals1736300000001 implements MigrationInterface {
  name = 'Referrals1736300000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE ledger_transfers DROP CONSTRAINT ledger_transfers_kind_check');
    await q.query(`ALTER TABLE ledger_transfers ADD CONSTRAINT ledger_transfers_kind_check CHECK (kind IN (${KINDS_BEFORE}, 'referral_bonus'))`);
    await q.query(`INSERT INTO ledger_accounts (code) VALUES ('referrals')`);
    await q.query(notToClosed(`'signup_bonus', 'offerwall_credit', 'claim_credit', 'referral_bonus'`));
    await q.query(`
      CREATE TABLE referrals (
        friend_id uuid PRIMARY KEY,
        inviter_id uuid NOT NULL CHECK (inviter_id <> friend_id),
        status text NOT NULL CHECK (status IN ('pending', 'paid', 'void')),
        void_reason text CHECK (void_reason IN ('same_device')),
        bonus_points int CHECK (bonus_points > 0),
        created_at timestamptz NOT NULL DEFAULT now(),
        paid_at timestamptz,
        CONSTRAINT referrals_void_has_reason CHECK ((status = 'void') = (void_reason IS NOT NULL)),
        CONSTRAINT referrals_paid CHECK ((status = 'paid') = (paid_at IS NOT NULL AND bonus_points IS NOT NULL))
      )`);
    await q.query('CREATE INDEX referrals_by_inviter ON referrals (inviter_id, created_at DESC)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE referrals');
    await q.query(notToClosed(`'signup_bonus', 'offerwall_credit', 'claim_credit'`));
  }
}
