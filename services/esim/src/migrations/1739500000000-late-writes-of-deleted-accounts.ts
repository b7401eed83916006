import { erasedIfSet, LateWriteGuardsMigration, lateWriteGuard } from '@esim/platform';

/**
 * Late events after a deletion (docs/accounts.md, "Late events"): a deleted account gets no eSIM
 * line, alert or auto top-up rule any more, and its gifts and deliveries are written without
 * ICCIDs, activation codes or phone numbers (a provider's result that lands after the deletion
 * carries them), as the AccountDeleted handler leaves the ones before.
 */
export class EsimLateWrites1739500000000 extends LateWriteGuardsMigration {
  name = 'EsimLateWrites1739500000000';
  protected readonly guards = [
    lateWriteGuard('esim_lines'),
    lateWriteGuard('line_data_alerts'),
    lateWriteGuard('auto_topup_rules'),
    lateWriteGuard('auto_topup_triggers'),
    lateWriteGuard('data_gifts', erasedIfSet('iccid')),
    lateWriteGuard('provisionings', `${erasedIfSet('iccid')}; ${erasedIfSet('target_iccid')}; NEW.lpa_code := NULL; NEW.msisdn := NULL`),
  ];
}
