import type { RedemptionResponse } from '@esim/contracts';

/** Spec section 3: the browser storage key of the last eSIM ready to install. */
export const ACTIVATION_STORAGE_KEY = 'esim_activation_data';

/** Spec section 3, "Activation data kept in browser storage". */
export interface EsimActivationData {
  giftId: string | null;
  amountGB: number;
  pointsUsed: number;
  lpaCode: string | null;
  msisdn: string | null;
  iccid: string | null;
  message: string;
  /** PNG data URL of the LPA code. */
  qrCode: string | null;
}

type KeyValueStore = Pick<Storage, 'getItem' | 'setItem'>;

function browserStorage(): KeyValueStore | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

export function activationDataOf(response: RedemptionResponse): EsimActivationData {
  return {
    giftId: response.giftId ?? null,
    amountGB: response.amountGB,
    pointsUsed: response.pointsUsed,
    lpaCode: response.lpaCode ?? null,
    msisdn: response.msisdn ?? null,
    iccid: response.iccid ?? null,
    message: response.message,
    qrCode: response.qrCode ?? null,
  };
}

/** Saves it for /esim-activation; private browsing without storage simply keeps nothing. */
export function saveActivationData(data: EsimActivationData, storage: KeyValueStore | null = browserStorage()): void {
  try {
    storage?.setItem(ACTIVATION_STORAGE_KEY, JSON.stringify(data));
  } catch {
    // quota or private mode: the setup page then shows its empty state
  }
}

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);
const int = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? Math.trunc(v) : 0);

/** The stored data, or null when absent or unreadable (another version, hand-edited, corrupted). */
export function readActivationData(storage: KeyValueStore | null = browserStorage()): EsimActivationData | null {
  let raw: string | null = null;
  try {
    raw = storage?.getItem(ACTIVATION_STORAGE_KEY) ?? null;
  } catch {
    return null;
  }
  if (!raw) return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!value || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  const data: EsimActivationData = {
    giftId: str(v.giftId),
    amountGB: int(v.amountGB),
    pointsUsed: int(v.pointsUsed),
    lpaCode: str(v.lpaCode),
    msisdn: str(v.msisdn),
    iccid: str(v.iccid),
    message: str(v.message) ?? '',
    qrCode: str(v.qrCode),
  };
  return data.lpaCode || data.iccid ? data : null;
}
