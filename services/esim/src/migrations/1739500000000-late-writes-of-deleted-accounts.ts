import { MigrationInterface, QueryRunner } from 'typeorm';
import { lateWriteGuard } from '@esim/platform';

const ERASE_ICCID = (column: string) => `NEW.${column} := CASE WHEN NEW.${column} IS NULL THEN NULL ELSE 'erased' END`;

const GUARDS = [
  lateWriteGuard('esim_lines'),
  lateWriteGuard('line_data_alerts'),
  lateWriteGuard('auto_topup_rules'),
  lateWriteGuard('auto_topup_triggers'),
  lateWriteGuard('data_gifts', ERASE_ICCID('iccid')),
  lateWriteGuard('provisionings', `${ERASE_ICCID('iccid')}; ${ERASE_ICCID('target_iccid')}; NEW.lpa_code := NULL; NEW.msisdn := NULL`),
];

/**
 * Late events after a deletion (docs/accounts.md, "Late events"): a deleted account gets no eSIM line, alert or
 * auto top-up rule any more, and its gifts and deliveries are written without ICCIDs, activation
 * codes or phone numbers (a provider's result that lands after the deletion carries them), as the
 * AccountDeleted handler leaves the ones before.
 */
export class EsimLateWrites1739500000000 implements MigrationInterface {
  name = 'EsimLateWrites1739500000000';

  async up(q: QueryRunner): Promise<void> {
    for (const guard of GUARDS) for (const sql of guard.up) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const guard of [...GUARDS].reverse()) for (const sql of guard.down) await q.query(sql);
  }
}
