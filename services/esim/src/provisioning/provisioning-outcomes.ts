import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ProvisioningFailed, ProvisioningSucceeded, RedeemablePlanTier, RedemptionSource } from '@esim/contracts';
import { Tx, UnitOfWork } from '@esim/platform';
import type { ProviderOperation } from '../keepgo/esim-provider';
import { DataGift } from '../gifts/data-gift.entity';
import { GiftSummaryAnnouncements } from '../gifts/gift-summary-announcements';
import { EsimLines } from '../lines/esim-lines';
import { PurchaseOutcomes } from '../purchases/purchase-outcomes';
import { Provisioning } from './provisioning.entity';
import { PROVISIONING_OUTCOME_LISTENER, ProvisioningOutcomeListener } from './provisioning-outcome-listener';

/** What the line looks like after a delivery, as far as we know it. */
export interface DeliveredLine {
  iccid: string;
  lpaCode: string | null;
  msisdn: string | null;
  transactionId: string | null;
}

export function deliveredLine(op: ProviderOperation): DeliveredLine {
  return op.kind === 'create'
    ? { iccid: op.iccid, lpaCode: op.lpaCode, msisdn: op.msisdn, transactionId: op.transactionId }
    : { iccid: op.iccid, lpaCode: null, msisdn: null, transactionId: op.transactionId };
}

/**
 * Records how a provisioning ended, exactly once: each outcome locks the row and writes only if it
 * is still in progress, so a second worker (a recovered crash, a lease that ran out) finding the
 * same result changes nothing. The outcome event commits with it (outbox). A card purchase's
 * outcome is its answer to payments (PurchaseOutcomes); a redemption's or gift claim's is the
 * saga's ProvisioningSucceeded / ProvisioningFailed.
 */
@Injectable()
export class ProvisioningOutcomes {
  private readonly log = new Logger('Provisioning');

  constructor(
    private readonly uow: UnitOfWork,
    private readonly lines: EsimLines,
    private readonly gifts: GiftSummaryAnnouncements,
    private readonly purchases: PurchaseOutcomes,
    @Optional() @Inject(PROVISIONING_OUTCOME_LISTENER) private readonly listener?: ProvisioningOutcomeListener,
  ) {}

  /**
   * The data is on the line: a delivered data_gifts row, ProvisioningSucceeded, and the wallet line
   * when the line is the user's. A new eSIM is; a top-up is only when the user already holds the
   * line. A top-up of any other line (a family member's, or an ICCID someone typed) adds data and
   * nothing else: no wallet line, and no activation code or phone number recorded or published, so
   * topping up an eSIM never hands it over (docs/decisions.md, "Topping up someone else's eSIM").
   */
  succeeded(id: string, line: DeliveredLine): Promise<boolean> {
    return this.uow.run(async (tx) => {
      const p = await this.inProgress(tx.manager, id);
      if (!p) return false;
      const m = tx.manager;
      const now = new Date();
      if (p.source === 'purchase') {
        await this.purchases.issued(tx, p, line, now);
        return true;
      }
      const ownLine = p.kind === 'new' || (await this.lines.holds(m, p.userId, line.iccid));
      let giftId: string;
      if (p.source === 'gift') {
        giftId = p.claimedGiftId!;
        await m.update(DataGift, { id: giftId }, {
          status: 'delivered',
          amountGB: p.amountGB,
          planTier: p.planTier,
          iccid: line.iccid,
          provisioningId: p.id,
          deliveredAt: now,
        });
      } else {
        giftId = randomUUID();
        await m.insert(DataGift, {
          id: giftId,
          userId: p.userId,
          amountGB: p.amountGB,
          planTier: p.planTier,
          iccid: line.iccid,
          status: 'delivered',
          source: 'points',
          provisioningId: p.id,
          deliveredAt: now,
        });
      }
      const wallet = ownLine
        ? await this.lines.delivered(m, {
            userId: p.userId,
            iccid: line.iccid,
            lpaCode: line.lpaCode,
            msisdn: line.msisdn,
            planTier: p.planTier,
            amountGB: p.amountGB,
            source: p.source === 'gift' ? 'gifted' : 'redeemed',
            at: now,
          })
        : null;
      const lpaCode = wallet ? (line.lpaCode ?? wallet.lpaCode) : null;
      const msisdn = wallet ? (line.msisdn ?? wallet.msisdn) : null;
      await m.update(Provisioning, { id: p.id }, {
        status: 'succeeded',
        iccid: line.iccid,
        ownLine,
        lpaCode,
        msisdn,
        providerTransactionId: line.transactionId,
        deliveredGiftId: giftId,
        completedAt: now,
      });
      tx.publish(ProvisioningSucceeded, {
        ...facts(p),
        iccid: line.iccid,
        ownLine,
        lpaCode,
        msisdn,
        giftId,
        providerTransactionId: line.transactionId,
        completedAt: now.toISOString(),
      });
      await this.gifts.announce(tx, p.userId);
      await this.listener?.onOutcome(tx, p, 'succeeded', { line, reason: null, ownLine });
      this.log.log(
        `provisioning ${p.id} (redemption ${p.redemptionId}): ${p.amountGB} GB delivered onto ${line.iccid}${ownLine ? '' : " (not the user's line: data only)"}`,
      );
      return true;
    });
  }

  /** The provider definitely did nothing: a claimed gift can be claimed again, rewards releases the points. */
  refused(id: string, reason: string, message: string): Promise<boolean> {
    return this.uow.run(async (tx) => {
      const p = await this.inProgress(tx.manager, id);
      if (!p) return false;
      if (p.source === 'purchase') {
        await this.purchases.failed(tx, p, 'refused', { reason, message, definite: true }, new Date());
        return true;
      }
      await this.end(tx, p, 'refused', reason, message);
      if (p.claimedGiftId) await tx.manager.update(DataGift, { id: p.claimedGiftId, status: 'claimed' }, { status: 'granted' });
      await this.listener?.onOutcome(tx, p, 'refused', { line: null, reason, ownLine: false });
      this.log.warn(`provisioning ${p.id} (redemption ${p.redemptionId}) refused: ${message}`);
      return true;
    });
  }

  /**
   * The provider could not be reached, our account with it is blocked, or an order's outcome is
   * unknown: an operator takes over. `definite`: the provider certainly did nothing; `detail`:
   * what happened, for a purchase's operator (a redemption's user reads `message`).
   */
  manual(id: string, reason: string, message: string, { definite = false, detail }: { definite?: boolean; detail?: string } = {}): Promise<boolean> {
    return this.uow.run(async (tx) => {
      const p = await this.inProgress(tx.manager, id);
      if (!p) return false;
      if (p.source === 'purchase') {
        await this.purchases.failed(tx, p, 'manual_transfer_required', { reason, message: detail ?? message, definite }, new Date());
        return true;
      }
      await this.end(tx, p, 'manual_transfer_required', reason, message);
      await this.listener?.onOutcome(tx, p, 'manual_transfer_required', { line: null, reason, ownLine: false });
      this.log.error(`provisioning ${p.id} (redemption ${p.redemptionId}) needs a manual transfer: ${reason}`);
      return true;
    });
  }

  /**
   * Records, before a new line is ordered, that the order may be at the provider from now on.
   * Only the attempt that holds the claim can: false for one whose lease ran out and that was
   * claimed again (it must send nothing).
   */
  async ordering(id: string, attempt: number): Promise<boolean> {
    const [, changed]: [unknown, number] = await this.uow.run((tx) =>
      tx.manager.query(`UPDATE provisionings SET order_sent_at = now() WHERE id = $1 AND status = 'in_progress' AND attempts = $2`, [id, attempt]),
    );
    return changed === 1;
  }

  /** The order was turned away before the provider did anything: the next attempt may order again. */
  async notOrdered(id: string, attempt: number): Promise<void> {
    await this.uow.run((tx) =>
      tx.manager.query(`UPDATE provisionings SET order_sent_at = NULL WHERE id = $1 AND status = 'in_progress' AND attempts = $2`, [id, attempt]),
    );
  }

  /** Hands a transient failure back to the sweeper, which tries again after `delayMs`. */
  async retryLater(id: string, attempt: number, delayMs: number): Promise<void> {
    await this.uow.run((tx) =>
      tx.manager.query(
        `UPDATE provisionings SET lease_until = now() + make_interval(secs => $3::double precision / 1000)
          WHERE id = $1 AND status = 'in_progress' AND attempts = $2`,
        [id, attempt, delayMs],
      ),
    );
  }

  /**
   * Like retryLater, for an attempt that sent nothing (the provider's breaker refused it): the
   * attempt is given back, so the next claim has the number this one had.
   */
  async retryUnspent(id: string, attempt: number, delayMs: number): Promise<void> {
    await this.uow.run((tx) =>
      tx.manager.query(
        `UPDATE provisionings SET lease_until = now() + make_interval(secs => $3::double precision / 1000), attempts = attempts - 1
          WHERE id = $1 AND status = 'in_progress' AND attempts = $2`,
        [id, attempt, delayMs],
      ),
    );
  }

  private async end(tx: Tx, p: Provisioning, status: 'refused' | 'manual_transfer_required', reason: string, message: string) {
    const now = new Date();
    await tx.manager.update(Provisioning, { id: p.id }, { status, failureReason: reason, failureMessage: message, completedAt: now });
    tx.publish(ProvisioningFailed, {
      ...facts(p),
      outcome: status === 'refused' ? 'refused' : 'manual_transfer_required',
      reason,
      message,
      failedAt: now.toISOString(),
    });
  }

  private async inProgress(m: EntityManager, id: string): Promise<Provisioning | null> {
    const p = await m.findOne(Provisioning, { where: { id }, lock: { mode: 'pessimistic_write' } });
    if (p?.status === 'in_progress') return p;
    this.log.warn(`provisioning ${id} already ended (${p?.status ?? 'missing'}): this outcome is dropped`);
    return null;
  }
}

/** The saga's facts of a redemption's or gift claim's provisioning (purchases never get here). */
function facts(p: Provisioning) {
  return {
    provisioningId: p.id,
    redemptionId: p.redemptionId,
    source: p.source as RedemptionSource,
    userId: p.userId,
    kind: p.kind,
    planTier: p.planTier as RedeemablePlanTier,
    amountGB: p.amountGB,
  };
}
