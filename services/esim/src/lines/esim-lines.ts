import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { EsimLine } from '@esim/contracts';
import { EsimLineRecord, EsimLineSource } from './esim-line.entity';

export interface Delivery {
  userId: string;
  iccid: string;
  lpaCode: string | null;
  msisdn: string | null;
  planTier: string;
  amountGB: number;
  source: EsimLineSource;
  at: Date;
}

const toLine = (r: EsimLineRecord): EsimLine => ({
  iccid: r.iccid,
  lpaCode: r.lpaCode,
  msisdn: r.msisdn,
  planTier: r.planTier,
  source: r.source,
  totalGB: r.totalGB,
  createdAt: r.createdAt.toISOString(),
  lastDeliveredAt: r.lastDeliveredAt.toISOString(),
  status: r.status,
  cancelledAt: r.cancelledAt ? r.cancelledAt.toISOString() : null,
});

/** The user's wallet of eSIM lines (My eSIMs). */
@Injectable()
export class EsimLines {
  /**
   * Adds a delivery to the user's line: the first one creates it (and says how it came), later
   * top-ups add their GB. An activation code or phone number learnt later fills the gap.
   */
  async delivered(m: EntityManager, d: Delivery): Promise<EsimLineRecord> {
    const [row] = await m.query(
      `INSERT INTO esim_lines (user_id, iccid, lpa_code, msisdn, plan_tier, source, total_gb, last_delivered_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (user_id, iccid) DO UPDATE SET
         lpa_code = COALESCE(esim_lines.lpa_code, EXCLUDED.lpa_code),
         msisdn = COALESCE(EXCLUDED.msisdn, esim_lines.msisdn),
         plan_tier = EXCLUDED.plan_tier,
         total_gb = esim_lines.total_gb + EXCLUDED.total_gb,
         last_delivered_at = EXCLUDED.last_delivered_at
       RETURNING id`,
      [d.userId, d.iccid, d.lpaCode, d.msisdn, d.planTier, d.source, d.amountGB, d.at],
    );
    return m.findOneByOrFail(EsimLineRecord, { id: row.id });
  }

  /**
   * Whether the line is in the user's wallet: only its holder (the wallet that received it) ever
   * sees its activation material (docs/decisions.md, "Topping up someone else's eSIM").
   */
  async holds(m: EntityManager, userId: string, iccid: string): Promise<boolean> {
    return m.exists(EsimLineRecord, { where: { userId, iccid } });
  }

  /**
   * The line was deactivated at the provider for a refund: cancelled in every wallet holding it
   * (the eSIM no longer works for anyone), once; a retried refund leaves the first time.
   */
  async cancelled(m: EntityManager, iccid: string): Promise<void> {
    await m.query(`UPDATE esim_lines SET status = 'cancelled', cancelled_at = now() WHERE iccid = $1 AND status = 'active'`, [iccid]);
  }

  async listFor(m: EntityManager, userId: string): Promise<EsimLine[]> {
    const rows = await m.find(EsimLineRecord, { where: { userId }, order: { lastDeliveredAt: 'DESC' }, take: 200 });
    return rows.map(toLine);
  }
}
