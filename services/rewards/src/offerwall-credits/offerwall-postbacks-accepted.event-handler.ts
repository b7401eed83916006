import { EventEnvelope, EventPayload, OfferwallPostbacksAccepted } from '@esim/contracts';
import { EventHandler, Tx } from '@esim/platform';
import { OfferwallCredits } from './offerwall-credits.service';

type Accepted = EventPayload<typeof OfferwallPostbacksAccepted>;

/**
 * Credits (or takes back) the offer-wall postbacks the ingestion service accepted, an event's
 * worth at a time. A burst of such events is applied many per transaction (handleAll): the ledger
 * takes them all in a few statements.
 */
@EventHandler(OfferwallPostbacksAccepted)
export class OfferwallPostbacksAcceptedEventHandler implements EventHandler<typeof OfferwallPostbacksAccepted> {
  constructor(private readonly credits: OfferwallCredits) {}

  handle(accepted: Accepted, tx: Tx): Promise<void> {
    return this.credits.apply(tx, accepted.postbacks);
  }

  handleAll(events: Array<{ payload: Accepted; envelope: EventEnvelope<Accepted> }>, tx: Tx): Promise<void> {
    return this.credits.apply(
      tx,
      events.flatMap((e) => e.payload.postbacks),
    );
  }

  /** A group of events is bounded by the postbacks it carries, not by the events. */
  weight(accepted: Accepted): number {
    return accepted.postbacks.length;
  }
}
