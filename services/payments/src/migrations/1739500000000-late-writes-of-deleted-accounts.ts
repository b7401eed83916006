import { erasedIfSet, LateWriteGuardsMigration, lateWriteGuard } from '@esim/platform';

/**
 * Late events after a deletion (docs/accounts.md, "Late events"): a purchase of a deleted account
 * is written without the eSIM it delivered (a payment webhook or an eSIM issued after the deletion
 * carries it), as the AccountDeleted handler leaves the ones before.
 */
export class PaymentsLateWrites1739500000000 extends LateWriteGuardsMigration {
  name = 'PaymentsLateWrites1739500000000';
  protected readonly guards = [
    lateWriteGuard('esim_purchases', `${erasedIfSet('iccid')}; ${erasedIfSet('lpa_code')}; NEW.msisdn := NULL; NEW.qr_code := NULL`),
  ];
}
