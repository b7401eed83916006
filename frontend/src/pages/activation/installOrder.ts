import type { DevicePlatform } from './lpa';

/** The ways /esim-activation offers to install an eSIM. */
export type InstallMethod = 'appleOneTap' | 'androidLink' | 'qr' | 'manual';

/**
 * Which ways to offer on this device, the one to try first at the head (docs/wallet.md, "Installing
 * on any phone"): an iPhone on iOS 17.4+ installs with Apple's one-tap link; an Android phone tries
 * the direct link, then the QR code shown on another screen (a phone cannot scan its own screen);
 * elsewhere (a computer) the QR code is scanned by the phone. Manual entry always works.
 */
export function installOrder(platform: DevicePlatform, appleOneTap: boolean): InstallMethod[] {
  if (platform === 'iphone') return appleOneTap ? ['appleOneTap', 'qr', 'manual'] : ['qr', 'manual'];
  if (platform === 'android') return ['androidLink', 'qr', 'manual'];
  return ['qr', 'manual'];
}
