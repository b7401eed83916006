import type { RedeemRequest, RedemptionResponse } from '@esim/contracts';
import { HttpError, NetworkError } from '../../lib/api';
import type { RedeemCall } from './redemptionFlow';

/**
 * `POST /api/redeem-points` or `POST /api/gift-data` with the submit's Idempotency-Key header
 * (lib/api's apiRequest sends no custom headers); failures throw lib/api's HttpError/NetworkError,
 * so the usual error helpers read them.
 */
export async function postRedemption(call: RedeemCall, body: RedeemRequest, idempotencyKey: string): Promise<RedemptionResponse> {
  let res: Response;
  try {
    res = await fetch(`/api/${call}`, {
      method: 'POST',
      credentials: 'include',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'Idempotency-Key': idempotencyKey },
      body: JSON.stringify(body),
    });
  } catch (error) {
    throw new NetworkError(error);
  }
  if (!res.ok) throw new HttpError(res.status, res.statusText, await res.text().catch(() => ''));
  return (await res.json()) as RedemptionResponse;
}
