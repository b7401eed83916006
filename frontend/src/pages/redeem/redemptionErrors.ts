import { NetworkError } from '../../lib/api';
import { errorMessage } from '../../lib/errorMessages';
import { hasReason, serverError, type ServerError } from '../../lib/serverError';
import type { RedeemCall } from './redemptionFlow';

export type RedemptionErrorKind = 'iccidFormat' | 'iccidNotFound' | 'noPlans' | 'provider' | 'insufficient' | 'network' | 'generic';

/** An ICCID that fails its schema: `invalid_request` naming the `iccid` field. */
const isIccidFormat = (server: ServerError | null) =>
  hasReason(server, 'invalid_request') && Array.isArray(server.details) && server.details.some((issue) => issue.path === 'iccid');

/**
 * Which of spec section 8's "Gifting and redemption" messages a failure means, by its declared
 * reason (and, for a provider refusal, the provider's reason in `details`).
 */
export function classifyRedemptionError(error: unknown): RedemptionErrorKind {
  if (error instanceof NetworkError) return 'network';
  const server = serverError(error);
  if (isIccidFormat(server)) return 'iccidFormat';
  if (hasReason(server, 'line_not_found')) return 'iccidNotFound';
  if (hasReason(server, 'insufficient_points')) return 'insufficient';
  if (hasReason(server, 'provider_refused')) {
    const providerReason = server.details?.providerReason;
    if (providerReason === 'line_not_found') return 'iccidNotFound';
    if (providerReason === 'no_refills_available' || providerReason === 'no_suitable_offer') return 'noPlans';
    return 'provider';
  }
  if (hasReason(server, 'provider_unavailable')) return 'provider';
  return 'generic';
}

/**
 * The needed and current points of an 'Insufficient points' refusal: the refusal's typed details
 * (`requested` / `available`), else what the page knows (the plan's cost and the balance it shows).
 */
export function insufficientPoints(error: unknown, fallback: { needed: number; current: number }): { needed: number; current: number } {
  const server = serverError(error);
  if (hasReason(server, 'insufficient_points') && server.details) return { needed: server.details.requested, current: server.details.available };
  return fallback;
}

type Translate = (key: string, options?: Record<string, unknown>) => string;

/**
 * The toast of a failed redemption (spec section 8): titled 'Data gifting failed' or 'Redemption
 * failed' by the call that failed ('Insufficient points' for that refusal), described in the
 * user's language. The redeem path appends the server's details to "ICCID not found", and a
 * provider error names what the provider said, as the spec asks.
 */
export function redemptionErrorToast(
  error: unknown,
  ctx: { call: RedeemCall; t: Translate; formatNumber: (n: number) => string; needed: number; current: number },
): { title: string; description: string } {
  const { call, t } = ctx;
  const kind = classifyRedemptionError(error);
  const details = serverError(error)?.message ?? '';
  const title =
    kind === 'insufficient'
      ? t('redeem.errors.insufficientTitle')
      : call === 'gift-data'
        ? t('redeem.errors.giftTitle')
        : t('redeem.errors.redeemTitle');
  switch (kind) {
    case 'network':
      return { title, description: t('errors.network') };
    case 'iccidFormat':
      return { title, description: t('redeem.errors.iccidFormat') };
    case 'iccidNotFound':
      return {
        title,
        description: call === 'redeem-points' && details ? t('redeem.errors.iccidNotFoundDetails', { details }) : t('redeem.errors.iccidNotFound'),
      };
    case 'noPlans':
      return { title, description: t('redeem.errors.noPlans') };
    case 'provider':
      return { title, description: details ? t('redeem.errors.provider', { details }) : t('errors.reasons.provider_unavailable') };
    case 'insufficient': {
      const { needed, current } = insufficientPoints(error, { needed: ctx.needed, current: ctx.current });
      return {
        title,
        description: t('redeem.errors.insufficient', { needed: ctx.formatNumber(needed), current: ctx.formatNumber(current) }),
      };
    }
    default: {
      const message = errorMessage(error, ctx.formatNumber);
      return { title, description: 'text' in message ? t('redeem.errors.generic', { details: message.text }) : t(message.key, message.values) };
    }
  }
}
