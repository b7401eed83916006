import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { PostbackAnswer, PostbackDelivery, PostbackOutcome, TaskCredited, TaskReversed } from '@esim/contracts';
import { CONFIG, Tx, UnitOfWork } from '@esim/platform';
import type { RewardsConfig } from '../config';
import { Ledger } from '../ledger/ledger';
import { ipAllowed, OfferwallSettings, Wall } from '../offerwalls/offerwall-settings';
import { Tasks } from '../tasks/tasks';
import { answerFor } from './postback-answer';
import { PostbackFacts } from './providers/offerwall-provider';
import { collectParams, PostbackFormatError, PostbackParams } from './providers/postback-params';
import { WebhookTransactions } from './webhook-transactions';

/** The user a verified delivery is for. */
interface Owner {
  userId: string;
  accountId: string;
}

/** What is known of a delivery when it is recorded. */
interface Known {
  transactionId: string | null;
  userId: string | null;
  amount: number | null;
}

/**
 * Every offer-wall callback goes through here: wall enabled, source IP, signature, format,
 * amount, user; then exactly one credit per provider transaction and at most one reversal of it.
 * Each delivery is recorded in webhook_transactions before the answer; a credit or reversal is
 * recorded in the same transaction as its ledger transfer, task and event.
 */
@Injectable()
export class PostbackIngestion {
  private readonly log = new Logger('Postbacks');

  constructor(
    private readonly db: DataSource,
    private readonly uow: UnitOfWork,
    private readonly settings: OfferwallSettings,
    private readonly ledger: Ledger,
    private readonly tasks: Tasks,
    private readonly webhooks: WebhookTransactions,
    @Inject(CONFIG) private readonly config: RewardsConfig,
  ) {}

  async ingest(d: PostbackDelivery): Promise<PostbackAnswer> {
    const wall = this.settings.get(d.provider);
    const { params, repeated } = collectParams(d);
    const known: Known = { transactionId: null, userId: null, amount: null };
    /** Records a delivery that moves no points, and answers it; `refusal` says why it was refused. */
    const conclude = async (outcome: PostbackOutcome, refusal?: string): Promise<PostbackAnswer> => {
      if (refusal) this.log.warn(`${d.provider} postback from ${d.sourceIp} refused (${outcome}): ${refusal}`);
      await this.webhooks.record(this.db.manager, { provider: d.provider, ...known, status: outcome, delivery: d });
      return answerFor(d.provider, outcome);
    };

    if (!wall) return conclude('rejected_disabled', 'the wall is disabled');
    known.transactionId = clip(params.get(wall.provider.transactionParam));
    if (!ipAllowed(wall, d.sourceIp)) return conclude('rejected_ip', 'source address not allowed');
    if (repeated.length > 0) return conclude('rejected_invalid', `repeated parameters: ${repeated.join(', ')}`);
    if (!wall.provider.verify(d, params, wall.credentials)) return conclude('rejected_signature', 'bad signature');

    const facts = this.read(wall, params);
    if (facts instanceof PostbackFormatError)
      return conclude(facts.kind === 'amount' ? 'rejected_amount' : 'rejected_invalid', facts.message);
    known.transactionId = facts.transactionId;
    known.userId = facts.userId;
    known.amount = facts.points;
    if (facts.points > this.config.POSTBACK_MAX_POINTS)
      return conclude('rejected_amount', `${facts.points} points is above POSTBACK_MAX_POINTS`);
    const account = facts.userId ? await this.ledger.userAccount(this.db.manager, facts.userId) : null;
    if (!facts.userId || !account || account.closed) {
      return conclude(
        'rejected_unknown_user',
        `no open points account for ${wall.provider.userParam}=${params.get(wall.provider.userParam)}`,
      );
    }
    if (facts.points === 0) return conclude('ignored');

    const owner: Owner = { userId: facts.userId, accountId: account.id };
    const outcome = await this.uow.run((tx) =>
      facts.action === 'credit' ? this.credit(tx, wall, d, facts, owner) : this.reverse(tx, wall, d, facts, owner),
    );
    return answerFor(d.provider, outcome);
  }

  private read(wall: Wall, params: PostbackParams): PostbackFacts | PostbackFormatError {
    try {
      return wall.provider.read(params);
    } catch (err) {
      if (err instanceof PostbackFormatError) return err;
      throw err;
    }
  }

  private async credit(tx: Tx, wall: Wall, d: PostbackDelivery, facts: PostbackFacts, { userId }: Owner): Promise<PostbackOutcome> {
    const record = (status: PostbackOutcome, ledgerTransferId?: string) =>
      this.webhooks.record(tx.manager, {
        provider: d.provider,
        transactionId: facts.transactionId,
        userId,
        amount: facts.points,
        status,
        delivery: d,
        ledgerTransferId,
      });

    const { transfer, created } = await this.ledger.credit(tx.manager, {
      kind: 'offerwall_credit',
      from: 'offerwalls',
      userId,
      amount: facts.points,
      reference: creditReference(d.provider, facts.creditTransactionId),
    });
    if (!created) {
      await record('duplicate');
      return 'duplicate';
    }
    const task = await this.tasks.insert(tx.manager, {
      userId,
      taskType: facts.taskType,
      points: facts.points,
      provider: d.provider,
      transactionId: facts.creditTransactionId,
      ledgerTransferId: transfer.id,
    });
    tx.publish(TaskCredited, {
      taskId: task.id,
      userId,
      provider: d.provider,
      transactionId: facts.creditTransactionId,
      taskType: facts.taskType,
      points: facts.points,
      completedAt: task.completedAt.toISOString(),
    });
    await record('credited', transfer.id);
    this.log.log(`${wall.provider.name} credited ${facts.points} points to ${userId} (${facts.creditTransactionId})`);
    return 'credited';
  }

  private async reverse(
    tx: Tx,
    wall: Wall,
    d: PostbackDelivery,
    facts: PostbackFacts,
    { userId, accountId }: Owner,
  ): Promise<PostbackOutcome> {
    const record = (status: PostbackOutcome, amount: number, ledgerTransferId?: string) =>
      this.webhooks.record(tx.manager, {
        provider: d.provider,
        transactionId: facts.transactionId,
        userId,
        amount,
        status,
        delivery: d,
        ledgerTransferId,
      });

    const credit = await this.ledger.find(tx.manager, 'offerwall_credit', creditReference(d.provider, facts.creditTransactionId));
    if (!credit || credit.creditAccountId !== accountId) {
      await record('rejected_unknown_transaction', facts.points);
      return 'rejected_unknown_transaction';
    }
    const { transfer, created } = await this.ledger.reverseCredit(tx.manager, credit);
    if (!created) {
      await record('duplicate', credit.amount);
      return 'duplicate';
    }
    const task = await this.tasks.markReversed(tx.manager, credit.id);
    tx.publish(TaskReversed, {
      taskId: task.id,
      userId,
      provider: d.provider,
      transactionId: task.transactionId,
      points: credit.amount,
      reversedAt: task.reversedAt.toISOString(),
    });
    await record('reversed', credit.amount, transfer.id);
    this.log.warn(`${wall.provider.name} reversed ${credit.amount} points of ${userId} (${facts.creditTransactionId})`);
    return 'reversed';
  }
}

/** The ledger reference of an offer-wall credit (and of its reversal): one per provider transaction. */
export const creditReference = (provider: string, transactionId: string) => `${provider}:${transactionId}`;

const clip = (value: string | undefined) => (value ? value.slice(0, 128) : null);
