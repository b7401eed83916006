import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { OfferwallId, PostbackDelivery, PostbackOutcome } from '@esim/contracts';

export interface DeliveryRecord {
  provider: OfferwallId;
  transactionId: string | null;
  userId: string | null;
  status: PostbackOutcome;
  /** Points credited or taken back; for a refused delivery, the amount it claimed if readable. */
  amount: number | null;
  delivery: PostbackDelivery;
  ledgerTransferId?: string;
}

const INT_MAX = 2_147_483_647;

/** Postgres text and jsonb cannot hold U+0000: a delivery carrying it is stored with U+FFFD instead. */
function storable<T>(value: T): T {
  if (typeof value === 'string') return value.replaceAll('\u0000', '\uFFFD') as T;
  if (Array.isArray(value)) return value.map(storable) as T;
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [storable(k), storable(v)])) as T;
  return value;
}

/** The webhook_transactions audit log: every delivery, whatever came of it. */
@Injectable()
export class WebhookTransactions {
  async record(m: EntityManager, r: DeliveryRecord): Promise<void> {
    const { method, fullUrl, query, body, headers, sourceIp } = r.delivery;
    const amount = r.amount !== null && Number.isSafeInteger(r.amount) && Math.abs(r.amount) <= INT_MAX ? r.amount : null;
    await m.query(
      `INSERT INTO webhook_transactions (provider, transaction_id, user_id, status, amount_mb, raw_payload, source_ip, ledger_transfer_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        r.provider,
        storable(r.transactionId),
        r.userId,
        r.status,
        amount,
        JSON.stringify(storable({ method, url: fullUrl, query, body, headers })),
        sourceIp,
        r.ledgerTransferId ?? null,
      ],
    );
  }

  /** A deleted user's raw payloads carry their IP address: only the outcome and amounts remain. */
  async erasePayloadsOf(m: EntityManager, userId: string): Promise<void> {
    await m.query(`UPDATE webhook_transactions SET raw_payload = '{"erased": "account deleted"}'::jsonb WHERE user_id = $1`, [userId]);
  }
}
