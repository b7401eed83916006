import { MigrationInterface, QueryRunner } from 'typeorm';
import { lateWriteGuard } from '@esim/platform';

const GUARDS = [
  lateWriteGuard(
    'esim_purchases',
    `NEW.iccid := CASE WHEN NEW.iccid IS NULL THEN NULL ELSE 'erased' END;
     NEW.lpa_code := CASE WHEN NEW.lpa_code IS NULL THEN NULL ELSE 'erased' END;
     NEW.msisdn := NULL; NEW.qr_code := NULL`,
  ),
];

/**
 * Late events after a deletion (docs/accounts.md, "Late events"): a purchase of a deleted account is written
 * without the eSIM it delivered (a payment webhook or the eSIM issued after the deletion carries
 * it), as the AccountDeleted handler leaves the ones before.
 */
export class PaymentsLateWrites1739500000000 implements MigrationInterface {
  name = 'PaymentsLateWrites1739500000000';

  async up(q: QueryRunner): Promise<void> {
    for (const guard of GUARDS) for (const sql of guard.up) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const guard of [...GUARDS].reverse()) for (const sql of guard.down) await q.query(sql);
  }
}
