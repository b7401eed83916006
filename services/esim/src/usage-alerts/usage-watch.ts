import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { AutoTopups } from '../auto-topup/auto-topups';
import { EsimProviderException } from '../keepgo/esim-provider.exception';
import { LineUsageService } from '../wallet/line-usage.service';
import { DataAlerts } from './data-alerts';
import { USAGE_ALERT_SETTINGS, UsageAlertSettings } from './usage-alert-settings';

/**
 * Reads every wallet line's usage from KeepGo in the background, once per ESIM_USAGE_CHECK_SECONDS
 * across all replicas: a replica claims the lines due by moving their next check forward in one
 * statement (`line_usage_checks`; a line another replica just claimed is not due any more), reads
 * them (the answer is also what My eSIMs shows next), and hands each reading to DataAlerts and
 * AutoTopups.
 */
@Injectable()
export class UsageWatch implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly log = new Logger('UsageWatch');
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = true;

  constructor(
    private readonly db: DataSource,
    private readonly usage: LineUsageService,
    private readonly alerts: DataAlerts,
    private readonly topups: AutoTopups,
    @Inject(USAGE_ALERT_SETTINGS) private readonly settings: UsageAlertSettings,
    private readonly http: HttpAdapterHost,
  ) {}

  onApplicationBootstrap(): void {
    this.stopped = false;
    this.timer = setInterval(() => this.wake(), this.settings.pollMs);
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  private wake(): void {
    if (this.stopped || this.running || !this.serving()) return;
    this.running = this.pass()
      .catch((err: unknown) => this.log.warn(`usage check failed, will retry: ${(err as Error).message}`))
      .finally(() => (this.running = undefined));
  }

  /** Work starts once the service serves HTTP, as the provisioning sweeper's does. */
  private serving(): boolean {
    const server = this.http.httpAdapter?.getHttpServer() as { listening?: boolean } | undefined;
    return server?.listening === true;
  }

  private async pass(): Promise<void> {
    // INSERT … ON CONFLICT DO UPDATE … WHERE answers through TypeORM as plain rows. A line seen for
    // the first time (inserted: xmax = 0) is only scheduled: it was just delivered, full.
    const claimed: Array<{ iccid: string; user_id: string }> = await this.db.query(
      `WITH due AS (
         SELECT DISTINCT l.iccid FROM esim_lines l
           LEFT JOIN line_usage_checks c ON c.iccid = l.iccid
          WHERE (c.next_check_at IS NULL OR c.next_check_at <= now())
            -- A line cancelled for a refund is never read again: no alerts, no automatic top-ups.
            AND l.status = 'active'
          LIMIT $2),
       claimed AS (
         INSERT INTO line_usage_checks (iccid, next_check_at, checked_at)
         SELECT iccid, now() + make_interval(secs => $1::double precision / 1000), NULL FROM due
         ON CONFLICT (iccid) DO UPDATE SET next_check_at = EXCLUDED.next_check_at, checked_at = now()
          WHERE line_usage_checks.next_check_at <= now()
         RETURNING iccid, (xmax = 0) AS first_seen)
       SELECT c.iccid, (SELECT l.user_id FROM esim_lines l WHERE l.iccid = c.iccid ORDER BY l.last_delivered_at DESC LIMIT 1) AS user_id
         FROM claimed c WHERE NOT c.first_seen`,
      [this.settings.checkEveryMs, this.settings.batch],
    );
    for (const { iccid, user_id: userId } of claimed) {
      if (this.stopped) return;
      try {
        const line = await this.usage.readInBackground(iccid);
        await this.alerts.check(userId, line);
        await this.topups.check(userId, line);
      } catch (err) {
        // The line is read again at its next check; a line KeepGo does not know is only logged.
        const gone = err instanceof EsimProviderException && err.code === 'line_not_found';
        this.log.warn(`line ${iccid}: ${gone ? 'KeepGo does not know it' : `usage not read (${(err as Error).message})`}`);
      }
    }
  }
}
