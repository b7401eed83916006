import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AcceptedPostback, MAX_POSTBACKS_PER_EVENT, OfferwallPostbacksAccepted, PostbackAnswer, PostbackOutcome, TASK_TYPE_OF_KIND } from '@esim/contracts';
import { CONFIG, Counter, DATABASE_UNAVAILABLE, eventId, GroupCommit, isDatabaseUnreachable, Metrics, newEnvelope, UnitOfWork } from '@esim/platform';
import type { WebhooksConfig } from '../config';
import { ipAllowed, OfferwallSettings, Wall } from '../offerwalls/offerwall-settings';
import { RefusedDeliveryGate } from '../refused-deliveries/refused-delivery-gate.service';
import { answerFor } from './postback-answer';
import { PostbackDelivery } from './postback-delivery';
import { PostbackFacts } from './providers/offerwall-provider';
import { collectParams, PostbackFormatError, PostbackParams } from './providers/postback-params';
import { BatchDelivery, DeliveryRecord, WebhookTransactions } from './webhook-transactions.service';

/** A delivery after the checks that need nothing but itself. */
type Examined =
  /** Refused, whatever the database holds, and why (for the log). */
  | { record: DeliveryRecord; facts?: undefined; why: string }
  /** Verified and readable: accepted unless the user is unknown, the transaction taken, or a reversal's credit missing; a 0-point credit is ignored. */
  | { record: Omit<DeliveryRecord, 'status'>; facts: PostbackFacts & { userId: string } };

/** Deliveries written in one statement at most; more wait for the next one. Its event names at most as many. */
const MAX_BATCH = MAX_POSTBACKS_PER_EVENT;
/** Statements writing deliveries at once (of the pool's DB_POOL_SIZE connections). */
const CONCURRENT_BATCHES = 2;

/**
 * Every offer-wall callback goes through here: wall enabled, source IP, signature, format, amount,
 * registered user, replay. An accepted credit or reversal is recorded and announced
 * (OfferwallPostbacksAccepted, one event for a statement's accepted ones, through the outbox) in
 * one statement before the provider is answered; rewards applies it to the ledger later, exactly
 * once. Every other delivery is recorded too, with its outcome. Nothing here touches the ledger, and no answer waits for another service.
 *
 * Deliveries that arrive together share one statement and its commit (GroupCommit): a burst from
 * a provider costs a few round trips, not several each.
 */
@Injectable()
export class PostbackIngestion {
  private readonly log = new Logger('Postbacks');
  private readonly writes = new GroupCommit<Examined, PostbackOutcome>((batch) => this.write(batch), {
    maxBatch: MAX_BATCH,
    concurrency: CONCURRENT_BATCHES,
  });

  private readonly outcomes: Counter<'wall' | 'outcome'>;

  constructor(
    private readonly db: DataSource,
    private readonly uow: UnitOfWork,
    private readonly settings: OfferwallSettings,
    private readonly transactions: WebhookTransactions,
    private readonly refusedDeliveries: RefusedDeliveryGate,
    @Inject(CONFIG) private readonly config: WebhooksConfig,
    metrics: Metrics,
  ) {
    this.outcomes = metrics.counter({
      name: 'postback_outcomes_total',
      help: 'Offer-wall postbacks by wall and outcome (accepted, duplicate, ignored, rejected_*), counted once recorded (a refusal over its address\'s limit: once answered).',
      labelNames: ['wall', 'outcome'],
    });
  }

  async ingest(d: PostbackDelivery): Promise<PostbackAnswer> {
    const examined = this.examine(d);
    if (!examined.facts) {
      const { status } = examined.record;
      // Over its address's limit, a refusal is answered the same but neither stored nor logged.
      if (!(await this.refusedDeliveries.admit(d.provider, status, d.sourceIp))) {
        this.outcomes.inc({ wall: d.provider, outcome: status });
        return answerFor(d.provider, status);
      }
      this.log.warn(`${d.provider} postback from ${d.sourceIp} refused (${status}): ${examined.why}`);
    }
    let outcome: PostbackOutcome;
    try {
      outcome = await this.writes.submit(examined);
    } catch (err) {
      if (!isDatabaseUnreachable(err)) throw err;
      // Nothing was recorded: the provider is told to come back (a 5xx makes every wall retry),
      // and the body names why, as the other refusals do.
      this.log.warn(`${d.provider} postback from ${d.sourceIp} not recorded, the database is unreachable: ${(err as Error).message}`);
      return { httpStatus: 503, body: DATABASE_UNAVAILABLE };
    }
    this.outcomes.inc({ wall: d.provider, outcome });
    return answerFor(d.provider, outcome);
  }

  /** Wall, source address, parameters, signature, fields and amount: what the delivery alone decides. */
  private examine(d: PostbackDelivery): Examined {
    const wall = this.settings.get(d.provider);
    const { params, repeated } = collectParams(d);
    const known: Omit<DeliveryRecord, 'status'> = { delivery: d, transactionId: null, userId: null, amount: null };
    const refuse = (status: PostbackOutcome, why: string): Examined => ({ record: { ...known, status }, why });

    if (!wall) return refuse('rejected_disabled', 'the wall is disabled');
    known.transactionId = params.get(wall.provider.transactionParam)?.slice(0, 128) || null;
    if (!ipAllowed(wall, d.sourceIp)) return refuse('rejected_ip', 'source address not allowed');
    if (repeated.length > 0) return refuse('rejected_invalid', `repeated parameters: ${repeated.join(', ')}`);
    if (!wall.provider.verify(d, params, wall.credentials)) return refuse('rejected_signature', 'bad signature');

    const facts = this.read(wall, params);
    if (facts instanceof PostbackFormatError) return refuse(facts.kind === 'amount' ? 'rejected_amount' : 'rejected_invalid', facts.message);
    Object.assign(known, { transactionId: facts.transactionId, userId: facts.userId, amount: facts.points });
    // A reversal takes back exactly what its credit gave: its stated amount is neither used nor capped.
    if (facts.action === 'credit' && facts.points > this.config.POSTBACK_MAX_POINTS)
      return refuse('rejected_amount', `${facts.points} points is above POSTBACK_MAX_POINTS`);
    const userId = facts.userId;
    if (!userId) return refuse('rejected_unknown_user', `${wall.provider.userParam}=${params.get(wall.provider.userParam)} is not a user id`);
    return { record: known, facts: { ...facts, userId } };
  }

  private read(wall: Wall, params: PostbackParams): PostbackFacts | PostbackFormatError {
    try {
      return wall.provider.read(params);
    } catch (err) {
      if (err instanceof PostbackFormatError) return err;
      throw err;
    }
  }

  /** Decides and records a batch of deliveries in one statement (WebhookTransactions.recordBatch); answers each one's outcome. */
  private async write(batch: Examined[]): Promise<PostbackOutcome[]> {
    // The credits and reversals the statement may accept: its one event names those it does.
    const postbacks: AcceptedPostback[] = [];
    const deliveries = batch.map((e): BatchDelivery => {
      // Time-ordered (UUIDv7), as event ids are: the table's primary key takes it at its right edge.
      const id = eventId();
      if (!e.facts) return { id, record: e.record, status: e.record.status };
      const { facts } = e;
      // A 0-point credit moves nothing; a reversal stating 0 still takes its whole credit back.
      if (facts.action === 'credit' && facts.points === 0) return { id, record: e.record, intent: 'ignore' };
      postbacks.push({
        deliveryId: id,
        provider: e.record.delivery.provider,
        action: facts.action,
        transactionId: facts.transactionId,
        creditTransactionId: facts.creditTransactionId,
        userId: facts.userId,
        points: facts.points,
        taskType: TASK_TYPE_OF_KIND[facts.kind],
        kind: facts.kind,
        ...(facts.offerName ? { offerName: facts.offerName } : {}),
      });
      return {
        id,
        record: e.record,
        intent: facts.action,
        // Recorded under the transaction it credits or takes back (a BitLabs reversal has an id of its
        // own, kept in the raw payload): one accepted credit and one accepted reversal per transaction.
        creditTransactionId: facts.creditTransactionId,
        item: postbacks.length - 1,
      };
    });
    const event = postbacks.length > 0 ? newEnvelope(OfferwallPostbacksAccepted, { postbacks, acceptedAt: new Date().toISOString() }) : undefined;
    const outcomes = await this.transactions.recordBatch(this.db, deliveries, event);
    if (outcomes.includes('accepted')) this.uow.outboxWritten();
    batch.forEach((e, i) => {
      const { provider, sourceIp } = e.record.delivery;
      if (outcomes[i] === 'rejected_unknown_user') this.log.warn(`${provider} postback from ${sourceIp} refused (rejected_unknown_user): no registered user ${e.facts?.userId}`);
      if (outcomes[i] === 'rejected_unknown_transaction') this.log.warn(`${provider} postback from ${sourceIp} refused (rejected_unknown_transaction): no accepted credit ${e.facts?.creditTransactionId} to this user`);
    });
    return outcomes;
  }
}
