import { apiErrorMessage, HttpError, NetworkError } from '../../lib/api';
import type { RedeemCall } from './redemptionFlow';

export type RedemptionErrorKind = 'iccidFormat' | 'iccidNotFound' | 'noPlans' | 'provider' | 'insufficient' | 'network' | 'generic';

/** The server's error body: `{ message, code }`, sometimes with a `reason` and the numbers of a refusal. */
function errorBody(error: unknown): Record<string, unknown> {
  if (!(error instanceof HttpError)) return {};
  try {
    const parsed: unknown = JSON.parse(error.body);
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * Which of spec section 8's "Gifting and redemption" messages a failure means, from the server
 * message fragments the spec lists (also looked for in `code`/`reason`, where `line_not_found`
 * reads as "line not found"). The most specific fragment wins: "Invalid ICCID format" before
 * "Invalid ICCID".
 */
export function classifyRedemptionError(error: unknown): RedemptionErrorKind {
  if (error instanceof NetworkError) return 'network';
  const body = errorBody(error);
  const text = [apiErrorMessage(error), body.code, body.reason]
    .filter((part): part is string => typeof part === 'string')
    .join(' ')
    .replace(/_/g, ' ');
  if (/invalid iccid format|iccid must be/i.test(text)) return 'iccidFormat';
  if (/invalid iccid|line not found/i.test(text)) return 'iccidNotFound';
  if (/no refills available|no suitable/i.test(text)) return 'noPlans';
  if (/insufficient points/i.test(text)) return 'insufficient';
  if (/keepgo|provider api/i.test(text)) return 'provider';
  return 'generic';
}

/**
 * The needed and current points of an 'Insufficient points' refusal: the body's numbers when the
 * server sends them (`details.requested` / `details.available`), else the first two numbers of its
 * message ("you need 3000 points but only have 2999"), else what the page knows (the plan's cost
 * and the balance it shows).
 */
export function insufficientPoints(error: unknown, fallback: { needed: number; current: number }): { needed: number; current: number } {
  const body = errorBody(error);
  const details = body.details && typeof body.details === 'object' ? (body.details as Record<string, unknown>) : {};
  const num = (...keys: string[]) =>
    keys.flatMap((k) => [details[k], body[k]]).find((v): v is number => typeof v === 'number' && Number.isFinite(v));
  const needed = num('requested', 'needed', 'required');
  const current = num('available', 'current', 'balance');
  if (needed !== undefined && current !== undefined) return { needed, current };
  const numbers = [...apiErrorMessage(error).matchAll(/\d[\d.,\s]*\d|\d/g)].map((m) => Number(m[0].replace(/[^\d]/g, '')));
  if (numbers.length >= 2) return { needed: numbers[0], current: numbers[1] };
  return fallback;
}

type Translate = (key: string, options?: Record<string, unknown>) => string;

/**
 * The toast of a failed redemption (spec section 8): titled 'Data gifting failed' or 'Redemption
 * failed' by the call that failed ('Insufficient points' for that refusal), described in the
 * user's language. The redeem path appends the server's details to "ICCID not found".
 */
export function redemptionErrorToast(
  error: unknown,
  ctx: { call: RedeemCall; t: Translate; formatNumber: (n: number) => string; needed: number; current: number },
): { title: string; description: string } {
  const { call, t } = ctx;
  const kind = classifyRedemptionError(error);
  const details = apiErrorMessage(error);
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
        description: call === 'redeem-points' ? t('redeem.errors.iccidNotFoundDetails', { details }) : t('redeem.errors.iccidNotFound'),
      };
    case 'noPlans':
      return { title, description: t('redeem.errors.noPlans') };
    case 'provider':
      return { title, description: t('redeem.errors.provider', { details }) };
    case 'insufficient': {
      const { needed, current } = insufficientPoints(error, { needed: ctx.needed, current: ctx.current });
      return {
        title,
        description: t('redeem.errors.insufficient', { needed: ctx.formatNumber(needed), current: ctx.formatNumber(current) }),
      };
    }
    default:
      return { title, description: details ? t('redeem.errors.generic', { details }) : t('errors.generic') };
  }
}
