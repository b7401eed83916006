import { detectPlatform, type DevicePlatform } from '../../pages/activation/lpa';

/** Chromium's User-Agent Client Hints (not in TypeScript's DOM types yet). */
interface UserAgentData {
  getHighEntropyValues(hints: string[]): Promise<{ model?: string }>;
}

export interface ReportedDevice {
  platform: DevicePlatform;
  /** The model the browser reports (Android Chromium: UA-CH `model`, e.g. "SM-A145M"); null when it tells none. */
  model: string | null;
}

/**
 * What this browser says about the phone. Android Chromium reports the model through User-Agent
 * Client Hints; Safari and Chrome on iPhone never expose it (the page asks which iPhone), and
 * other browsers may not either.
 */
export async function readDevice(): Promise<ReportedDevice> {
  const platform = detectPlatform(navigator.userAgent, navigator.maxTouchPoints);
  const uaData = (navigator as Navigator & { userAgentData?: UserAgentData }).userAgentData;
  if (platform !== 'android' || !uaData?.getHighEntropyValues) return { platform, model: null };
  try {
    const { model } = await uaData.getHighEntropyValues(['model']);
    return { platform, model: model?.trim() || null };
  } catch {
    return { platform, model: null };
  }
}
