import { maskIccid, type PurchaseType, type RedemptionResponse, type UserView } from '@esim/contracts';
import type { EsimActivationData } from './activationData';

/** What /iccid hands to /success in the router state. */
export interface SuccessLocationState {
  redemption?: RedemptionResponse;
  /** The ICCID the person topped up (a top-up's answer may not repeat it). */
  iccid?: string;
  /** 'existing': a top-up, shown as data added to a line (docs/decisions.md, "Topping up someone else's eSIM"). */
  purchaseType?: PurchaseType;
}

export interface GiftedSummary {
  amountGB: number;
  iccid: string | null;
  /** 'pending' while the delivery waits for the provider or an operator. */
  status: 'active' | 'pending';
  /** The server's words about this redemption, when it came from one. */
  message: string | null;
  /**
   * A top-up just made: data added to a line that may be someone else's, so the page shows the
   * amount and the ICCID's last 4 digits (`iccid` is masked already), and nothing to install.
   */
  topup: boolean;
  /** The redemption just made spent the person's points: 'Data redeemed!', not 'Data Gifted!'. */
  paidWithPoints: boolean;
}

const gbOfTier = (tier: string | null): number => {
  const gb = Number.parseInt(tier ?? '', 10);
  return Number.isFinite(gb) && gb > 0 ? gb : 0;
};

/**
 * The 'Data Gifted!' view shows the amount actually gifted (docs/redemption-screens.md): the redemption
 * the person just made, else the user's last gift as the server knows it, else the eSIM stored for
 * the setup page. Null when none of them names an amount.
 */
export function giftedSummary(input: {
  state: SuccessLocationState | null | undefined;
  user: Pick<UserView, 'planTierLastChosen' | 'iccid' | 'lastGiftedAt'> | null;
  stored: EsimActivationData | null;
}): GiftedSummary | null {
  const { state, user, stored } = input;
  const r = state?.redemption;
  if (r && r.amountGB > 0) {
    const pending = r.status === 'manual_transfer_required' || r.status === 'processing';
    const iccid = r.iccid ?? state?.iccid ?? null;
    if (state?.purchaseType === 'existing') {
      return { amountGB: r.amountGB, iccid: iccid && maskIccid(iccid), status: pending ? 'pending' : 'active', message: null, topup: true, paidWithPoints: r.pointsUsed > 0 };
    }
    return { amountGB: r.amountGB, iccid, status: pending ? 'pending' : 'active', message: r.message || null, topup: false, paidWithPoints: r.pointsUsed > 0 };
  }
  if (user?.lastGiftedAt && gbOfTier(user.planTierLastChosen) > 0) {
    // Whether points paid is known only from the eSIM stored for the setup page, when it is the same line.
    const paidWithPoints = !!stored && stored.iccid === user.iccid && stored.pointsUsed > 0;
    return { amountGB: gbOfTier(user.planTierLastChosen), iccid: user.iccid, status: 'active', message: null, topup: false, paidWithPoints };
  }
  if (stored && stored.amountGB > 0) return { amountGB: stored.amountGB, iccid: stored.iccid, status: 'active', message: null, topup: false, paidWithPoints: (stored.pointsUsed ?? 0) > 0 };
  return null;
}

/** Loose check of router state (it survives reloads in history.state, so it is not trusted blindly). */
export function asSuccessState(value: unknown): SuccessLocationState | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  const r = v.redemption as Record<string, unknown> | undefined;
  const redemption =
    r && typeof r === 'object' && typeof r.amountGB === 'number' && typeof r.status === 'string' && typeof r.message === 'string'
      ? (r as unknown as RedemptionResponse)
      : undefined;
  const purchaseType = v.purchaseType === 'new' || v.purchaseType === 'existing' ? v.purchaseType : undefined;
  return { redemption, iccid: typeof v.iccid === 'string' ? v.iccid : undefined, ...(purchaseType ? { purchaseType } : {}) };
}
