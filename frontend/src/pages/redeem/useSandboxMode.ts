import { useQuery } from '@tanstack/react-query';
import type { CaptchaConfig } from '@esim/contracts';
import { CAPTCHA_CONFIG_KEY } from '../../components/captcha/CaptchaWidget';

/**
 * Whether this deployment runs the local sandboxes (no third-party credentials), so the claim page
 * may advertise the sandbox eSIM provider's demo ICCID. The gateway exposes no eSIM-specific flag
 * yet; the captcha configuration's `sandbox` is the flag the SPA has (it is already read for the
 * captcha dialog, so this costs no extra request). False until known and on any error.
 */
export function useSandboxMode(): boolean {
  const config = useQuery<CaptchaConfig>({ queryKey: CAPTCHA_CONFIG_KEY });
  return config.data?.sandbox === true;
}
