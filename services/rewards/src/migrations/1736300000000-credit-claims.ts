import { MigrationInterface, QueryRunner } from 'typeorm';

const KINDS_BEFORE = `'signup_bonus', 'offerwall_credit', 'offerwall_reversal', 'reservation', 'redemption', 'release', 'hold_release'`;

/** ledger_transfers_not_to_closed (migration 1734600000000) for the given credit kinds. */
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
 * Missing-credit claims (docs/earning.md, "Missing credit"). A claim an admin credits is paid by a
 * `claim_credit` transfer from the new system account `claims`, whose reference is the claim's id:
 * the ledger's `UNIQUE (kind, reference)` lets one claim be credited once, whatever two admins
 * click at the same moment, and `credit_claims.transfer_id` (unique) ties the claim to it. A
 * decided claim stays decided: credited with its transfer, or rejected with the reason the user
 * reads (the checks below). Like every credit, a claim credit is refused on a closed account.
 */
export class CreditClaims1736300000000 implements MigrationInterface {
  name = 'CreditClaims1736300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE ledger_transfers DROP CONSTRAINT ledger_transfers_kind_check');
    await q.query(`ALTER TABLE ledger_transfers ADD CONSTRAINT ledger_transfers_kind_check CHECK (kind IN (${KINDS_BEFORE}, 'claim_credit'))`);
    await q.query(`INSERT INTO ledger_accounts (code) VALUES ('claims')`);
    await q.query(notToClosed(`'signup_bonus', 'offerwall_credit', 'claim_credit'`));
    await q.query(`
      CREATE TABLE credit_claims (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL,
        wall text NOT NULL CHECK (wall IN ('rapidoreach', 'cpx', 'bitlabs', 'lootably', 'torox')),
        wall_user_id text NOT NULL CHECK (length(wall_user_id) BETWEEN 1 AND 300),
        offer_name text NOT NULL CHECK (length(offer_name) BETWEEN 1 AND 200),
        completed_on date NOT NULL,
        note text CHECK (length(note) <= 1000),
        status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'credited', 'rejected')),
        points int CHECK (points > 0),
        transfer_id uuid UNIQUE REFERENCES ledger_transfers (id),
        reject_reason text CHECK (length(reject_reason) BETWEEN 1 AND 500),
        decided_by uuid,
        decided_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT credit_claims_credited CHECK ((status = 'credited') = (transfer_id IS NOT NULL AND points IS NOT NULL)),
        CONSTRAINT credit_claims_rejected CHECK ((status = 'rejected') = (reject_reason IS NOT NULL)),
        CONSTRAINT credit_claims_decided CHECK ((status = 'open') = (decided_at IS NULL))
      )`);
    await q.query('CREATE INDEX credit_claims_by_user ON credit_claims (user_id, created_at DESC)');
    await q.query(`CREATE INDEX credit_claims_open ON credit_claims (created_at) WHERE status = 'open'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE credit_claims');
    await q.query(notToClosed(`'signup_bonus', 'offerwall_credit'`));
    // Claim credits cannot be undone without rewriting the append-only ledger: the kind stays allowed where one exists.
  }
}
