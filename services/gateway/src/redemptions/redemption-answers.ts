import { Inject, Injectable, Logger } from '@nestjs/common';
import { maskIccid, passesLuhn, RedemptionResponse, RedemptionView } from '@esim/contracts';
import { AppError, CONFIG } from '@esim/platform';
import type { GatewayConfig } from '../config';
import { QrCodes } from './qr-codes';

/** How often the outcome is asked for while the request waits (internal; the SPA never polls). */
const POLL_MS = 150;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Turns a redemption into the answer of POST /api/redeem-points and /api/gift-data
 * (product-decisions.md, "Redeeming: two calls, one saga"): waits up to REDEEM_WAIT_MS for the
 * outcome, then answers it, or `processing` when it has not landed yet.
 */
@Injectable()
export class RedemptionAnswers {
  private readonly log = new Logger('Redemptions');

  constructor(
    @Inject(CONFIG) private readonly config: GatewayConfig,
    private readonly qr: QrCodes,
  ) {}

  /** The ICCID rule is checked by the contracts; a failed check digit is only worth a log line. */
  noteIccid(iccid: string | undefined): void {
    if (iccid && !passesLuhn(iccid)) this.log.log(`ICCID ${iccid.slice(0, 6)}… fails the Luhn check; the provider lookup decides`);
  }

  /** Asks `reread` until the redemption leaves `processing` or the wait is over. */
  async awaitOutcome(view: RedemptionView, reread: (redemptionId: string) => Promise<RedemptionView>): Promise<RedemptionView> {
    const deadline = Date.now() + this.config.REDEEM_WAIT_MS;
    let current = view;
    while (current.status === 'processing' && Date.now() < deadline) {
      await sleep(Math.min(POLL_MS, deadline - Date.now()));
      try {
        current = await reread(view.redemptionId);
      } catch (err) {
        // The redemption is accepted; a hiccup while waiting only means the answer is "processing".
        this.log.warn(`reading redemption ${view.redemptionId} failed: ${(err as Error).message}`);
        break;
      }
    }
    return current;
  }

  /** The HTTP answer; a provider refusal is a 422 whose message carries the provider's reason. */
  async answer(view: RedemptionView): Promise<RedemptionResponse> {
    if (view.status === 'failed') {
      throw new AppError('provider_refused', view.failure?.message ?? 'The eSIM provider refused this redemption.', {
        details: { redemptionId: view.redemptionId, providerReason: view.failure?.reason ?? null, pointsUsed: 0 },
      });
    }
    return this.describe(view);
  }

  /**
   * The redemption as JSON, whatever its status (GET /api/redemptions/:id). A top-up of a line
   * outside the redeemer's wallet shows the data added and the masked ICCID, nothing else: no
   * activation code, QR code or phone number, whatever the view carries (docs/decisions.md,
   * "Topping up someone else's eSIM").
   */
  async describe(view: RedemptionView): Promise<RedemptionResponse> {
    const shown = view.kind === 'topup' && !view.ownLine ? { ...view, iccid: view.iccid && maskIccid(view.iccid), lpaCode: null, msisdn: null } : view;
    return {
      redemptionId: shown.redemptionId,
      amountGB: shown.amountGB,
      pointsUsed: shown.status === 'failed' || shown.status === 'rejected' ? 0 : shown.pointsUsed,
      status: shown.status,
      message: messageOf(shown),
      iccid: shown.iccid,
      lpaCode: shown.lpaCode,
      qrCode: shown.lpaCode ? await this.qr.dataUrl(shown.lpaCode) : null,
      msisdn: shown.msisdn,
      giftId: shown.giftId,
    };
  }
}

function messageOf(v: RedemptionView): string {
  switch (v.status) {
    case 'esim_activation_ready':
      return `Your ${v.amountGB}GB eSIM is ready. Scan the QR code or enter the activation code to install it.`;
    case 'completed':
      return `${v.amountGB}GB was added to ${v.ownLine ? 'your' : 'the'} eSIM ${v.iccid ?? ''}`.trim() + '.';
    case 'manual_transfer_required':
    case 'failed':
      return v.failure?.message ?? 'Our support team will complete this redemption.';
    case 'pending_review':
      return 'An admin checks this redemption before it goes ahead; its points are set aside meanwhile. You will find the answer on your dashboard.';
    case 'rejected':
      return v.failure?.message ?? 'An admin did not approve this redemption; its points are back in your balance.';
    case 'processing':
      return 'Your redemption is being processed. The result will appear on your dashboard, in your history and in My eSIMs.';
  }
}
