import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { LineDataLow } from '@esim/contracts';
import { UnitOfWork } from '@esim/platform';
import type { LineDetails } from '../keepgo/esim-provider';
import { crossedThresholds, usedPercent } from './crossed-thresholds';
import { USAGE_ALERT_SETTINGS, UsageAlertSettings } from './usage-alert-settings';

/**
 * Turns a reading of a line into low-data alerts: each threshold reached is recorded in
 * `line_data_alerts` and announced (`LineDataLow`) in the same transaction, only if the row is
 * new. The row's key (line, threshold, cycle) is what makes an alert once only: two replicas
 * reading the line at once, a restart, a reading seen again all meet the same key.
 */
@Injectable()
export class DataAlerts {
  private readonly log = new Logger('DataAlerts');

  constructor(
    private readonly uow: UnitOfWork,
    @Inject(USAGE_ALERT_SETTINGS) private readonly settings: UsageAlertSettings,
  ) {}

  /** Answers the thresholds announced now (none when each was already announced this cycle). */
  async check(userId: string, line: LineDetails): Promise<string[]> {
    const crossed = crossedThresholds(line, this.settings);
    if (crossed.length === 0) return [];
    const remainingMb = Math.max(0, line.remainingMb ?? 0);
    const allowedMb = line.allowedMb ?? 0;
    return this.uow.run(async (tx) => {
      const announced: string[] = [];
      for (const { threshold, value } of crossed) {
        const id = randomUUID();
        const rows: Array<{ id: string; created_at: Date }> = await tx.manager.query(
          `INSERT INTO line_data_alerts (id, iccid, threshold, cycle_allowed_mb, user_id, remaining_mb)
           VALUES ($1, $2, $3, $4, $5, $6)
           ON CONFLICT ON CONSTRAINT line_data_alerts_once DO NOTHING
           RETURNING id, created_at`,
          [id, line.iccid, threshold, allowedMb, userId, remainingMb],
        );
        if (rows.length === 0) continue;
        tx.publish(LineDataLow, {
          alertId: id,
          userId,
          iccid: line.iccid,
          threshold,
          thresholdValue: value,
          remainingMb,
          allowedMb,
          usedPercent: usedPercent(line),
          remainingDays: line.remainingDays,
          detectedAt: new Date(rows[0].created_at).toISOString(),
        });
        announced.push(threshold);
        this.log.log(`line ${line.iccid} of user ${userId}: ${threshold} reached (${remainingMb} of ${allowedMb} MB left)`);
      }
      return announced;
    });
  }
}
