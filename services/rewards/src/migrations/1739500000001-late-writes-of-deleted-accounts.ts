import { MigrationInterface, QueryRunner } from 'typeorm';
import { lateWriteGuard } from '@esim/platform';

const GUARDS = [
  lateWriteGuard(
    'redemptions',
    `NEW.iccid := CASE WHEN NEW.iccid IS NULL THEN NULL ELSE 'erased' END;
     NEW.target_iccid := CASE WHEN NEW.target_iccid IS NULL THEN NULL ELSE 'erased' END;
     NEW.lpa_code := NULL; NEW.msisdn := NULL`,
  ),
];

/**
 * Late events after a deletion (docs/accounts.md, "Late events"): a redemption of a deleted account is
 * written without the eSIM it delivered (a provisioning result that arrives after the deletion
 * names its ICCID), as the AccountDeleted handler leaves the ones before.
 */
export class RewardsLateWrites1739500000001 implements MigrationInterface {
  name = 'RewardsLateWrites1739500000001';

  async up(q: QueryRunner): Promise<void> {
    for (const guard of GUARDS) for (const sql of guard.up) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const guard of [...GUARDS].reverse()) for (const sql of guard.down) await q.query(sql);
  }
}
