import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { type LineRefundState, PurchaseLineRpc, type RefundEligibility, type RefundIneligibleReason } from '@esim/contracts';
import { CONFIG, RpcClient } from '@esim/platform';
import type { PaymentsConfig } from '../config';
import type { EsimPurchaseEntity } from '../purchases/esim-purchase.entity';

/**
 * The share of RPC_TIMEOUT_MS (how long the gateway waits for the whole list) the provider's part
 * may take: past it the lines are `unchecked` and the list still answers in time.
 */
const LINE_STATES_SHARE = 0.5;

/**
 * Whether My eSIMs offers "Request a refund" on each purchase (docs/payments.md, "Refunds"),
 * computed when the purchases are read: activated, inside REFUND_WINDOW_DAYS, no refund asked for
 * yet, and the provider's latest report of the line (esim's `line-refund-states`) neither
 * installed nor used. Only the lines that pass the first checks are asked about, in one call.
 * Requesting the refund checks all of it again (request-refund.rpc-handler.ts).
 */
@Injectable()
export class RefundEligibilityService {
  private readonly log = new Logger('PurchaseRefunds');

  constructor(
    private readonly db: DataSource,
    private readonly rpc: RpcClient,
    @Inject(CONFIG) private readonly config: PaymentsConfig,
  ) {}

  /** The end of the purchase's refund window, for an activated (or refunded) purchase. */
  refundableUntil(p: EsimPurchaseEntity): Date | null {
    if (p.status !== 'activated' && p.status !== 'refunded') return null;
    return new Date((p.paidAt ?? p.createdAt).getTime() + this.config.REFUND_WINDOW_DAYS * 86_400_000);
  }

  /** Each purchase's eligibility and the refund already recorded for it (`refundedAt`), by purchase id. */
  async of(purchases: readonly EsimPurchaseEntity[]): Promise<Map<string, { refund: RefundEligibility; refundedAt: Date | null }>> {
    const claims: Array<{ purchase_id: string; status: 'pending' | 'succeeded'; completed_at: Date | null }> =
      purchases.length === 0
        ? []
        : await this.db.query(`SELECT purchase_id, status, completed_at FROM purchase_refunds WHERE purchase_id = ANY($1::uuid[])`, [purchases.map((p) => p.id)]);
    const claimOf = new Map(claims.map((c) => [c.purchase_id, c]));
    const now = Date.now();
    const before = new Map<string, RefundIneligibleReason | null>();
    for (const p of purchases) {
      const claim = claimOf.get(p.id);
      const until = this.refundableUntil(p);
      before.set(
        p.id,
        claim?.status === 'succeeded' || p.status === 'refunded'
          ? 'already_refunded'
          : claim
            ? 'refund_pending'
            : p.status !== 'activated' || !p.iccid
              ? 'not_activated'
              : until && now > until.getTime()
                ? 'window_passed'
                : null,
      );
    }
    const toAsk = purchases.filter((p) => before.get(p.id) === null).map((p) => p.iccid!);
    const states = await this.lineStates(toAsk);
    const out = new Map<string, { refund: RefundEligibility; refundedAt: Date | null }>();
    for (const p of purchases) {
      const claim = claimOf.get(p.id);
      const reason = before.get(p.id) ?? providerReason(states.get(p.iccid!) ?? 'unchecked');
      const until = this.refundableUntil(p);
      out.set(p.id, {
        refund: { eligible: reason === null, reason, until: until ? until.toISOString() : null },
        refundedAt: claim?.status === 'succeeded' && claim.completed_at ? new Date(claim.completed_at) : null,
      });
    }
    return out;
  }

  private async lineStates(iccids: string[]): Promise<Map<string, LineRefundState>> {
    if (iccids.length === 0) return new Map();
    try {
      const { lines } = await this.rpc.call(PurchaseLineRpc.lineRefundStates, { iccids }, { timeoutMs: this.config.RPC_TIMEOUT_MS * LINE_STATES_SHARE });
      return new Map(lines.map((l) => [l.iccid, l.state]));
    } catch (err) {
      // The purchases still list; no refund is offered until the provider's report is known.
      this.log.warn(`refund eligibility: the lines' reports could not be read (${(err as Error).message})`);
      return new Map();
    }
  }
}

/** The provider's report as a reason not to offer a refund (null: refundable; a cancelled line lets a stopped refund finish). */
function providerReason(state: LineRefundState): RefundIneligibleReason | null {
  return state === 'untouched' || state === 'cancelled' ? null : state;
}
