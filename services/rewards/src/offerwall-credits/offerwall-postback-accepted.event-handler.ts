import { EventEnvelope, EventPayload, OfferwallPostbackAccepted } from '@esim/contracts';
import { EventHandler, Tx } from '@esim/platform';
import { AcceptedPostback, OfferwallCredits } from './offerwall-credits.service';

/**
 * Credits (or takes back) offer-wall postbacks the ingestion service accepted. A burst of them is
 * applied many per transaction (handleAll): the ledger takes them in a few statements.
 */
@EventHandler(OfferwallPostbackAccepted)
export class OfferwallPostbackAcceptedEventHandler implements EventHandler<typeof OfferwallPostbackAccepted> {
  constructor(private readonly credits: OfferwallCredits) {}

  handle(postback: AcceptedPostback, tx: Tx): Promise<void> {
    return this.credits.apply(tx, [postback]);
  }

  handleAll(events: Array<{ payload: AcceptedPostback; envelope: EventEnvelope<EventPayload<typeof OfferwallPostbackAccepted>> }>, tx: Tx): Promise<void> {
    return this.credits.apply(
      tx,
      events.map((e) => e.payload),
    );
  }
}
