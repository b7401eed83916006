import { Inject, Injectable, Logger } from '@nestjs/common';
import { OfferwallPostbackAccepted, PostbackAnswer, PostbackOutcome } from '@esim/contracts';
import { CONFIG, Counter, GroupCommit, Metrics, Tx, UnitOfWork } from '@esim/platform';
import type { WebhooksConfig } from '../config';
import { ipAllowed, OfferwallSettings, Wall } from '../offerwalls/offerwall-settings';
import { RegisteredUsers } from '../users/registered-users.service';
import { answerFor } from './postback-answer';
import { PostbackDelivery } from './postback-delivery';
import { PostbackFacts } from './providers/offerwall-provider';
import { collectParams, PostbackFormatError, PostbackParams } from './providers/postback-params';
import { AcceptedRecord, DeliveryRecord, WebhookTransactions } from './webhook-transactions.service';

/** A delivery after the checks that need nothing but itself. */
type Examined =
  /** Refused (or a 0-point credit), whatever the database holds. */
  | { record: DeliveryRecord; facts?: undefined }
  /** Verified and readable: accepted unless the user is unknown, the transaction taken, or a reversal's credit missing. */
  | { record: Omit<DeliveryRecord, 'status'>; facts: PostbackFacts & { userId: string } };

/** Deliveries written in one transaction at most; more wait for the next one. */
const MAX_BATCH = 500;
/** Transactions writing deliveries at once (of the pool's DB_POOL_SIZE connections). */
const CONCURRENT_BATCHES = 4;

/**
 * Every offer-wall callback goes through here: wall enabled, source IP, signature, format, amount,
 * registered user, replay. An accepted credit or reversal is recorded and announced
 * (OfferwallPostbackAccepted, through the outbox) in one transaction before the provider is
 * answered; rewards applies it to the ledger later, exactly once. Every other delivery is recorded
 * too, with its outcome. Nothing here touches the ledger, and no answer waits for another service.
 *
 * Deliveries that arrive together share one transaction (GroupCommit): a burst from a provider
 * costs a few commits, not one each.
 */
@Injectable()
export class PostbackIngestion {
  private readonly log = new Logger('Postbacks');
  private readonly writes = new GroupCommit<Examined, PostbackOutcome>((batch) => this.uow.run((tx) => this.write(tx, batch)), {
    maxBatch: MAX_BATCH,
    concurrency: CONCURRENT_BATCHES,
  });

  private readonly outcomes: Counter<'wall' | 'outcome'>;

  constructor(
    private readonly uow: UnitOfWork,
    private readonly settings: OfferwallSettings,
    private readonly users: RegisteredUsers,
    private readonly transactions: WebhookTransactions,
    @Inject(CONFIG) private readonly config: WebhooksConfig,
    metrics: Metrics,
  ) {
    this.outcomes = metrics.counter({
      name: 'postback_outcomes_total',
      help: 'Offer-wall postbacks by wall and outcome (accepted, duplicate, ignored, rejected_*), counted once recorded.',
      labelNames: ['wall', 'outcome'],
    });
  }

  async ingest(d: PostbackDelivery): Promise<PostbackAnswer> {
    const outcome = await this.writes.submit(this.examine(d));
    this.outcomes.inc({ wall: d.provider, outcome });
    return answerFor(d.provider, outcome);
  }

  /** Wall, source address, parameters, signature, fields and amount: what the delivery alone decides. */
  private examine(d: PostbackDelivery): Examined {
    const wall = this.settings.get(d.provider);
    const { params, repeated } = collectParams(d);
    const known: Omit<DeliveryRecord, 'status'> = { delivery: d, transactionId: null, userId: null, amount: null };
    const refuse = (status: PostbackOutcome, why: string): Examined => {
      this.log.warn(`${d.provider} postback from ${d.sourceIp} refused (${status}): ${why}`);
      return { record: { ...known, status } };
    };

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

  /** Decides and records a batch of deliveries in one transaction; answers each one's outcome. */
  private async write(tx: Tx, batch: Examined[]): Promise<PostbackOutcome[]> {
    const m = tx.manager;
    const outcomes: PostbackOutcome[] = batch.map((e) => (e.facts ? 'accepted' : e.record.status));
    const plain: DeliveryRecord[] = batch.flatMap((e) => (e.facts ? [] : [e.record]));
    const conclude = (i: number, status: PostbackOutcome, why?: string) => {
      if (why) this.log.warn(`${batch[i].record.delivery.provider} postback from ${batch[i].record.delivery.sourceIp} refused (${status}): ${why}`);
      outcomes[i] = status;
      plain.push({ ...batch[i].record, status });
    };

    const registered = await this.users.registeredAmong(
      m,
      batch.flatMap((e) => (e.facts ? [e.facts.userId] : [])),
    );
    const credits: number[] = [];
    const reversals: number[] = [];
    batch.forEach((e, i) => {
      if (!e.facts) return;
      if (!registered.has(e.facts.userId)) conclude(i, 'rejected_unknown_user', `no registered user ${e.facts.userId}`);
      // A 0-point credit moves nothing; a reversal stating 0 still takes its whole credit back.
      else if (e.facts.action === 'credit' && e.facts.points === 0) conclude(i, 'ignored');
      else (e.facts.action === 'credit' ? credits : reversals).push(i);
    });

    // Credits first: a reversal in the same batch as its credit then finds it.
    await this.accept(tx, batch, credits, conclude);
    const creditedTo = await this.transactions.acceptedCredits(
      m,
      reversals.map((i) => ({ provider: batch[i].record.delivery.provider, transactionId: batch[i].facts!.creditTransactionId })),
    );
    const matched = reversals.filter((i) => {
      const { facts, record } = batch[i];
      // Never credited to this user (or not yet: a reversal may overtake its credit, and the provider retries it).
      if (creditedTo.get(WebhookTransactions.creditKey(record.delivery.provider, facts!.creditTransactionId)) === facts!.userId) return true;
      conclude(i, 'rejected_unknown_transaction');
      return false;
    });
    await this.accept(tx, batch, matched, conclude);
    await this.transactions.record(m, plain);
    return outcomes;
  }

  /** Records accepted deliveries (a replay of an accepted transaction is a duplicate) and announces them. */
  private async accept(tx: Tx, batch: Examined[], indexes: number[], conclude: (i: number, status: PostbackOutcome) => void): Promise<void> {
    const records: AcceptedRecord[] = indexes.map((i) => {
      const { record, facts } = batch[i];
      // Recorded under the transaction it credits or takes back (a BitLabs reversal has an id of its
      // own, kept in the raw payload): one accepted credit and one accepted reversal per transaction.
      return { ...record, transactionId: facts!.creditTransactionId, userId: facts!.userId, action: facts!.action };
    });
    const ids = await this.transactions.accept(tx.manager, records);
    const acceptedAt = new Date().toISOString();
    indexes.forEach((i, n) => {
      const deliveryId = ids[n];
      if (!deliveryId) return conclude(i, 'duplicate');
      const facts = batch[i].facts!;
      tx.publish(OfferwallPostbackAccepted, {
        deliveryId,
        provider: batch[i].record.delivery.provider,
        action: facts.action,
        transactionId: facts.transactionId,
        creditTransactionId: facts.creditTransactionId,
        userId: facts.userId,
        points: facts.points,
        taskType: facts.taskType,
        acceptedAt,
      });
    });
  }
}
