import { EventEnvelope, EventPayload, OfferwallPostbackAccepted } from '@esim/contracts';
import { EventHandler, Tx } from '@esim/platform';
import { OfferwallCredits } from './offerwall-credits.service';

type Accepted = EventPayload<typeof OfferwallPostbackAccepted>;

/**
 * The retired one-postback event (OfferwallPostbackAccepted): what an ingestion service of an
 * earlier release announced, still in a queue, a dead-letter queue or an outbox when the services
 * are upgraded, is credited as OfferwallPostbacksAccepted's postbacks are, exactly once.
 */
@EventHandler(OfferwallPostbackAccepted)
export class OfferwallPostbackAcceptedEventHandler implements EventHandler<typeof OfferwallPostbackAccepted> {
  constructor(private readonly credits: OfferwallCredits) {}

  handle(accepted: Accepted, tx: Tx): Promise<void> {
    return this.credits.apply(tx, [accepted]);
  }

  handleAll(events: Array<{ payload: Accepted; envelope: EventEnvelope<Accepted> }>, tx: Tx): Promise<void> {
    return this.credits.apply(
      tx,
      events.map((e) => e.payload),
    );
  }
}
