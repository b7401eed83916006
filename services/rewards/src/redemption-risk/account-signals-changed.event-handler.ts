import { AccountSignalsChanged, EventPayload } from '@esim/contracts';
import { EventHandler, Tx } from '@esim/platform';
import { RedemptionRisk } from './redemption-risk.service';

/** Identity's fraud signals of an account (docs/earning.md, "Fair fraud control"), kept for the risk rules. */
@EventHandler(AccountSignalsChanged)
export class AccountSignalsChangedEventHandler implements EventHandler<typeof AccountSignalsChanged> {
  constructor(private readonly risk: RedemptionRisk) {}

  handle(payload: EventPayload<typeof AccountSignalsChanged>, tx: Tx): Promise<void> {
    return this.risk.noteSignals(tx.manager, payload);
  }
}
