import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { LINE_CANCELLED_MESSAGE, LINE_USAGE_NOT_FOUND_MESSAGE, LINE_USAGE_UNAVAILABLE_MESSAGE, type LineUsage } from '@esim/contracts';
import { AppError } from '@esim/platform';
import { ESIM_PROVIDER, type EsimProvider, type LineDetails } from '../keepgo/esim-provider';
import { EsimProviderException } from '../keepgo/esim-provider.exception';
import { EsimLineRecord } from '../lines/esim-line.entity';
import { LINE_USAGE_SETTINGS, type LineUsageSettings } from './line-usage-settings';
import { TimedCache } from './timed-cache';

/**
 * What is left on a user's eSIM line (My eSIMs): only a line in the user's wallet (`esim_lines`)
 * is looked up, and KeepGo's line details are reused for a short while (docs/wallet.md), so a
 * wallet of several lines opened often costs few provider calls.
 */
@Injectable()
export class LineUsageService {
  private readonly log = new Logger('LineUsage');
  private readonly cache: TimedCache<LineDetails>;

  constructor(
    private readonly db: DataSource,
    @Inject(ESIM_PROVIDER) private readonly provider: EsimProvider,
    @Inject(LINE_USAGE_SETTINGS) settings: LineUsageSettings,
  ) {
    this.cache = new TimedCache<LineDetails>(settings, (err) => EsimProviderException.isTransient(err));
  }

  /**
   * The background read of a line (services/esim/src/usage-alerts/usage-watch.ts), and the refund
   * eligibility My eSIMs shows (purchase-refunds/line-refund-states.rpc-handler.ts): asks KeepGo
   * again, as a refresh does, and keeps the answer, so My eSIMs opens on a recent reading.
   */
  async readInBackground(iccid: string): Promise<LineDetails> {
    return (await this.cache.get(iccid, () => this.provider.lineDetails(iccid), { refresh: true })).value;
  }

  async usage(userId: string, iccid: string, refresh: boolean): Promise<LineUsage> {
    const line = await this.db.getRepository(EsimLineRecord).findOne({ where: { userId, iccid }, select: { status: true } });
    if (!line) throw new AppError('line_not_found', LINE_USAGE_NOT_FOUND_MESSAGE);
    // Deactivated for a refund: KeepGo is not asked about it any more.
    if (line.status === 'cancelled') throw new AppError('line_cancelled', LINE_CANCELLED_MESSAGE);
    try {
      const { value, at } = await this.cache.get(iccid, () => this.provider.lineDetails(iccid), { refresh });
      return {
        iccid,
        status: value.status,
        remainingMb: value.remainingMb,
        allowedMb: value.allowedMb,
        remainingDays: value.remainingDays,
        checkedAt: new Date(at).toISOString(),
      };
    } catch (err) {
      if (err instanceof EsimProviderException && err.code === 'line_not_found') {
        this.log.warn(`line ${iccid} of user ${userId} is in the wallet but KeepGo does not know it`);
        throw new AppError('line_not_found', LINE_USAGE_NOT_FOUND_MESSAGE);
      }
      this.log.warn(`could not read the usage of line ${iccid}: ${err instanceof Error ? err.message : String(err)}`);
      throw new AppError('provider_unavailable', LINE_USAGE_UNAVAILABLE_MESSAGE);
    }
  }
}
