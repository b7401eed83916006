import type { EsimActivationData } from '../redeem/activationData';

/** What /esim-activation shows: the LPA code is required; the rest is shown when known. */
export interface ActivationView {
  lpaCode: string;
  iccid: string | null;
  msisdn: string | null;
  qrCode: string | null;
  amountGB: number | null;
  pointsUsed: number | null;
}

/**
 * The eSIM to set up (spec, /esim-activation): `?iccid=&lpa=` from a link (a purchase, My eSIMs),
 * completed with the stored activation data when it is the same eSIM; else the stored data alone.
 */
export function resolveActivation(
  query: { iccid: string | null; lpa: string | null },
  stored: EsimActivationData | null,
): ActivationView | null {
  const lpa = query.lpa?.trim();
  if (lpa) {
    const same = stored && ((query.iccid && stored.iccid === query.iccid) || stored.lpaCode === lpa) ? stored : null;
    return {
      lpaCode: lpa,
      iccid: query.iccid?.trim() || same?.iccid || null,
      msisdn: same?.msisdn ?? null,
      qrCode: same && same.lpaCode === lpa ? same.qrCode : null,
      amountGB: same?.amountGB || null,
      pointsUsed: same ? same.pointsUsed : null,
    };
  }
  if (stored?.lpaCode && (!query.iccid || query.iccid === stored.iccid)) {
    return {
      lpaCode: stored.lpaCode,
      iccid: stored.iccid,
      msisdn: stored.msisdn,
      qrCode: stored.qrCode,
      amountGB: stored.amountGB || null,
      pointsUsed: stored.pointsUsed,
    };
  }
  return null;
}

/** Only a PNG/JPEG/GIF/WebP data URL is used as an image source (the stored value is not trusted). */
export function isImageDataUrl(value: string | null | undefined): value is string {
  return typeof value === 'string' && /^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=\s]+$/.test(value);
}
