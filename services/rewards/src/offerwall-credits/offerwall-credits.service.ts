import { Injectable, Logger } from '@nestjs/common';
import { AcceptedPostback, EventPayload, KIND_OF_TASK_TYPE, OfferwallPostbackRefused, RewardsRefusal, TasksCredited, TaskReversed } from '@esim/contracts';
import { Tx } from '@esim/platform';
import { CreditHoldPolicy } from '../held-credits/credit-hold.policy';
import { BalanceAnnouncements } from '../ledger/balance-announcements';
import { Ledger } from '../ledger/ledger';
import { Transfer, UserAccount } from '../ledger/ledger.types';
import { RiskRules } from '../redemption-risk/risk-rules.policy';
import { Tasks } from '../tasks/tasks';
import { CreditNotAppliedYetException } from './credit-not-applied-yet.exception';

/** The ledger reference of an offer-wall credit (and of its reversal): one per provider transaction. */
export const creditReference = (provider: string, transactionId: string) => `${provider}:${transactionId}`;

/**
 * Applies the offer-wall postbacks the ingestion service accepted, many in one transaction: at most
 * one credit per provider transaction and one reversal of it (the ledger's unique references, not
 * this code, guarantee both), a task per credit, TasksCredited (one per user and wall of the batch)
 * and TaskReversed. What cannot be applied is reported back to the ingestion service
 * (OfferwallPostbackRefused), which records it against the delivery.
 */
@Injectable()
export class OfferwallCredits {
  private readonly log = new Logger('OfferwallCredits');

  constructor(
    private readonly ledger: Ledger,
    private readonly tasks: Tasks,
    private readonly balances: BalanceAnnouncements,
    private readonly holds: CreditHoldPolicy,
    private readonly risk: RiskRules,
  ) {}

  async apply(tx: Tx, postbacks: readonly AcceptedPostback[]): Promise<void> {
    if (postbacks.length === 0) return;
    const accounts = await this.ledger.openUserAccounts(
      tx.manager,
      postbacks.map((p) => p.userId),
    );
    await this.balances.lock(
      tx.manager,
      postbacks.map((p) => p.userId),
    );
    // Credits first: a reversal in the same batch as its credit then finds it.
    const credited = await this.credit(
      tx,
      postbacks.filter((p) => p.action === 'credit'),
      accounts,
    );
    const reversed = await this.reverse(
      tx,
      postbacks.filter((p) => p.action === 'reverse'),
      accounts,
    );
    await this.balances.announce(tx, [...credited, ...reversed]);
  }

  /** Answers the users whose balance changed. */
  private async credit(tx: Tx, postbacks: AcceptedPostback[], accounts: Map<string, UserAccount>): Promise<string[]> {
    const open = postbacks.filter((p) => !accounts.get(p.userId)!.closed);
    for (const p of postbacks) if (accounts.get(p.userId)!.closed) this.refuse(tx, p, 'rejected_unknown_user');

    const now = new Date();
    const risky = open.length ? await this.risk.longerHolds(tx.manager, open.map((p) => p.userId)) : new Set<string>();
    const results = await this.ledger.creditMany(
      tx.manager,
      'offerwall_credit',
      'offerwalls',
      open.map((p) => ({
        accountId: accounts.get(p.userId)!.id,
        amount: p.points,
        reference: creditReference(p.provider, p.creditTransactionId),
        // Large credits wait before they can be spent: walls reverse fraud days later (docs/earning.md,
        // "Held credits"); a risky account's wait longer, and smaller ones too ("Risk rules").
        heldUntil: this.holds.heldUntil(p.provider, p.points, now, risky.has(p.userId)),
      })),
    );
    const credited = open.flatMap((p, i) => (results[i].created ? [{ p, transfer: results[i].transfer }] : []));
    open.forEach((p, i) => !results[i].created && this.refuse(tx, p, 'duplicate'));

    await this.noteDetails(
      tx,
      credited.map(({ p, transfer }) => ({ creditId: transfer.id, offerName: p.offerName ?? null, reason: null })),
    );
    const tasks = await this.tasks.insertMany(
      tx.manager,
      credited.map(({ p, transfer }) => ({
        userId: p.userId,
        taskType: p.taskType,
        // A postback accepted before kinds existed carries none: its task type's kind.
        kind: p.kind ?? KIND_OF_TASK_TYPE[p.taskType],
        points: p.points,
        provider: p.provider,
        transactionId: p.creditTransactionId,
        ledgerTransferId: transfer.id,
      })),
    );
    // One announcement per user and wall, not per task: its only reader, the gateway's live view,
    // says "+N MB from <wall>" per user and wall anyway (services/gateway/src/user-view/points-notices.ts),
    // and each event costs an outbox row, broker bytes and a gateway inbox key.
    const byUserAndWall = new Map<string, EventPayload<typeof TasksCredited>>();
    for (const task of tasks) {
      const key = `${task.userId} ${task.provider}`;
      const creditedAt = task.completedAt.toISOString();
      const announced = byUserAndWall.get(key);
      if (announced) {
        announced.tasks += 1;
        announced.points += task.pointsEarned;
        if (creditedAt > announced.creditedAt) announced.creditedAt = creditedAt;
      } else byUserAndWall.set(key, { userId: task.userId, provider: task.provider, tasks: 1, points: task.pointsEarned, creditedAt });
    }
    for (const announced of byUserAndWall.values()) tx.publish(TasksCredited, announced);
    if (credited.length > 0) this.log.log(`credited ${credited.length} offer-wall transaction(s)`);
    return credited.map(({ p }) => p.userId);
  }

  /** Answers the users whose balance changed. */
  private async reverse(tx: Tx, postbacks: AcceptedPostback[], accounts: Map<string, UserAccount>): Promise<string[]> {
    if (postbacks.length === 0) return [];
    const credits = await this.ledger.findMany(
      tx.manager,
      'offerwall_credit',
      postbacks.map((p) => creditReference(p.provider, p.creditTransactionId)),
    );
    const matched: Array<{ p: AcceptedPostback; credit: Transfer }> = [];
    for (const p of postbacks) {
      const reference = creditReference(p.provider, p.creditTransactionId);
      const credit = credits.get(reference);
      const account = accounts.get(p.userId)!;
      // Only the user the credit went to can have it reversed.
      if (credit && credit.creditAccountId === account.id) matched.push({ p, credit });
      // Its credit is still on its way to an open account: try again, never refuse (the exception says why).
      else if (!credit && !account.closed) throw new CreditNotAppliedYetException(reference);
      else this.refuse(tx, p, 'rejected_unknown_transaction');
    }
    const results = await this.ledger.reverseCredits(
      tx.manager,
      matched.map((r) => r.credit),
    );
    const reversed = matched.filter((_, i) => results[i].created);
    matched.forEach((r, i) => !results[i].created && this.refuse(tx, r.p, 'duplicate'));

    await this.noteDetails(
      tx,
      reversed.map(({ p, credit }) => ({ creditId: credit.id, offerName: p.offerName ?? null, reason: p.reversalReason ?? null })),
    );
    const tasks = await this.tasks.markReversed(
      tx.manager,
      reversed.map((r) => r.credit.id),
    );
    const points = new Map(reversed.map((r) => [r.credit.id, r.credit.amount]));
    for (const task of tasks) {
      tx.publish(TaskReversed, {
        taskId: task.id,
        userId: task.userId,
        provider: task.provider,
        transactionId: task.transactionId,
        points: points.get(task.ledgerTransferId)!,
        reversedAt: task.reversedAt!.toISOString(),
      });
    }
    for (const { p, credit } of reversed) this.log.warn(`${p.provider} reversed ${credit.amount} points of ${p.userId} (${p.creditTransactionId})`);
    return reversed.map(({ p }) => p.userId);
  }

  /** Keeps the offer's name and a reversal's reason, where the wall sent them (the history shows them). */
  private async noteDetails(tx: Tx, details: Array<{ creditId: string; offerName: string | null; reason: string | null }>): Promise<void> {
    const told = details.filter((d) => d.offerName || d.reason);
    if (told.length === 0) return;
    await tx.manager.query(
      `INSERT INTO offerwall_credit_details (credit_id, offer_name, reversal_reason)
       SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[])
       ON CONFLICT (credit_id) DO UPDATE
         SET offer_name = COALESCE(offerwall_credit_details.offer_name, EXCLUDED.offer_name),
             reversal_reason = COALESCE(EXCLUDED.reversal_reason, offerwall_credit_details.reversal_reason)`,
      [told.map((d) => d.creditId), told.map((d) => d.offerName), told.map((d) => d.reason)],
    );
  }

  private refuse(tx: Tx, p: AcceptedPostback, outcome: RewardsRefusal): void {
    this.log.warn(`${p.provider} postback ${p.transactionId} for ${p.userId} not applied: ${outcome}`);
    tx.publish(OfferwallPostbackRefused, {
      deliveryId: p.deliveryId,
      provider: p.provider,
      transactionId: p.transactionId,
      outcome,
      refusedAt: new Date().toISOString(),
    });
  }
}
