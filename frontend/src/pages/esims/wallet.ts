import type { EsimLinesResponse, EsimPurchase, LineUsage, RefundEligibility } from '@esim/contracts';

/** The wallet's two reads (also what the service worker keeps for offline reading). */
export const PURCHASES_QUERY_KEY = ['/api/esim-purchases'] as const;
export const LINES_QUERY_KEY = ['/api/esim-lines'] as const;

export type WalletLine = EsimLinesResponse['lines'][number];
export type WalletSource = WalletLine['source'];

/** One eSIM of My eSIMs, however the user got it (docs/wallet.md). */
export interface WalletEntry {
  key: string;
  source: WalletSource;
  /** '3GB': the plan bought, or the plan last delivered onto a redeemed or gifted line. */
  planType: string;
  amountGB: number;
  /** USD cents, for a card purchase. */
  priceCents: number | null;
  /** The currency of `priceCents` (ISO 4217), null with it. */
  currency: string | null;
  /** How a bought eSIM was paid ('card', 'pix'); null for a line without its purchase. */
  paymentMethod: EsimPurchase['paymentMethod'] | null;
  country: string | null;
  iccid: string | null;
  lpaCode: string | null;
  /** PNG data URL of the LPA code. */
  qrCode: string | null;
  /** A purchase's status ('activated', 'processing', 'manual_delivery_required', 'refunded', …); a line is 'activated', or 'refunded' once cancelled. */
  status: string;
  /** The line cancelled at the provider (for a refund): no usage, top-ups or setup any more. */
  cancelled: boolean;
  /** Installable: the spec's 'Ready' badge and setup guide. */
  ready: boolean;
  /** When the user got it (ISO). */
  date: string;
  /** The purchase, for a bought eSIM (its refund); null for a redeemed or gifted line. */
  purchaseId: string | null;
  /** Until when a refund may be asked for (ISO), for an activated purchase. */
  refundableUntil: string | null;
  /** When a self-serve refund went through (ISO). */
  refundedAt: string | null;
  /** Whether "Request a refund" is offered, else why not (computed by the server from the provider's report); null for a line. */
  refund: RefundEligibility | null;
}

const byDateDesc = (a: WalletEntry, b: WalletEntry) => Date.parse(b.date) - Date.parse(a.date) || a.key.localeCompare(b.key);

/**
 * The wallet: every card purchase (with its price and status) and every eSIM line redemptions and
 * gifts delivered, newest first. A bought line is the same eSIM as its purchase and is shown once,
 * as the purchase (completed with what the line knows); a bought line whose purchase is not in the
 * list (the list could not be read) still shows.
 */
export function walletEntries(purchases: readonly EsimPurchase[] | undefined, lines: readonly WalletLine[] | undefined): WalletEntry[] {
  const lineByIccid = new Map((lines ?? []).map((l) => [l.iccid, l]));
  const shown = new Set<string>();
  const entries: WalletEntry[] = [];
  for (const p of purchases ?? []) {
    const line = p.iccid ? lineByIccid.get(p.iccid) : undefined;
    if (line) shown.add(line.iccid);
    entries.push({
      key: `purchase:${p.id}`,
      source: 'bought',
      planType: p.planType,
      amountGB: p.amountGB,
      priceCents: p.priceCents,
      currency: p.currency,
      paymentMethod: p.paymentMethod,
      country: p.country,
      iccid: p.iccid,
      lpaCode: p.lpaCode ?? line?.lpaCode ?? null,
      qrCode: p.qrCode ?? (p.lpaCode ? null : (line?.qrCode ?? null)),
      status: p.status,
      cancelled: line?.status === 'cancelled',
      ready: p.status === 'activated' && line?.status !== 'cancelled',
      date: p.createdAt,
      purchaseId: p.id,
      refundableUntil: p.refundableUntil,
      refundedAt: p.refundedAt,
      refund: p.refund,
    });
  }
  for (const l of lines ?? []) {
    if (shown.has(l.iccid)) continue;
    entries.push({
      key: `line:${l.iccid}`,
      source: l.source,
      planType: l.planTier,
      amountGB: l.totalGB,
      priceCents: null,
      currency: null,
      paymentMethod: null,
      country: null,
      iccid: l.iccid,
      lpaCode: l.lpaCode,
      qrCode: l.qrCode,
      status: l.status === 'cancelled' ? 'refunded' : 'activated',
      cancelled: l.status === 'cancelled',
      ready: l.status !== 'cancelled',
      date: l.createdAt,
      purchaseId: null,
      refundableUntil: null,
      refundedAt: null,
      refund: null,
    });
  }
  return entries.sort(byDateDesc);
}

/** The wallet's Top up: /iccid, which opens on the existing-eSIM option with `?iccid=` filled in. */
export function topUpPath(iccid: string): string {
  return `/iccid?iccid=${encodeURIComponent(iccid)}`;
}

/** The file name a saved QR code gets: `esim-qr-<last 4 of the ICCID>.png`. */
export function qrFileName(iccid: string | null): string {
  const tail = (iccid ?? '').replace(/\D/g, '').slice(-4);
  return tail ? `esim-qr-${tail}.png` : 'esim-qr.png';
}

/** An amount of data for people: MB below 1 GB, else GB with one decimal (1 GB = 1024 MB, as the provider counts). */
export function dataAmount(mb: number): { value: number; unit: 'MB' | 'GB' } {
  if (mb < 1024) return { value: Math.max(0, Math.round(mb)), unit: 'MB' };
  return { value: Math.round((mb / 1024) * 10) / 10, unit: 'GB' };
}

/** Share of the data left, 0–100, when the provider says both numbers. */
export function remainingPercent(usage: Pick<LineUsage, 'remainingMb' | 'allowedMb'>): number | null {
  if (usage.remainingMb === null || !usage.allowedMb) return null;
  return Math.min(100, Math.max(0, Math.round((usage.remainingMb / usage.allowedMb) * 100)));
}
