import { erasedIfSet, LateWriteGuardsMigration, lateWriteGuard } from '@esim/platform';

/**
 * Late events after a deletion (docs/accounts.md, "Late events"): a redemption of a deleted account
 * is written without the eSIM it delivered (a provisioning result that arrives after the deletion
 * names its ICCID), as the AccountDeleted handler leaves the ones before.
 */
export class RewardsLateWrites1739500000001 extends LateWriteGuardsMigration {
  name = 'RewardsLateWrites1739500000001';
  protected readonly guards = [
    lateWriteGuard('redemptions', `${erasedIfSet('iccid')}; ${erasedIfSet('target_iccid')}; NEW.lpa_code := NULL; NEW.msisdn := NULL`),
  ];
}
