import { DynamicModule, Module } from '@nestjs/common';
import { EsimProviderException } from './esim-provider.exception';
import { Metrics, ProviderCalls } from '@esim/platform';
import type { EsimConfig } from '../config';
import { ESIM_PROVIDER } from './esim-provider';
import { KeepGoEsimProvider } from './keepgo-esim-provider.service';
import { KeepGoLineLocks } from './keepgo-line-locks.service';
import { KeepGoModeLog } from './keepgo-mode-log';
import { KEEPGO_CALLS, KEEPGO_SETTINGS, keepGoSettings } from './keepgo-settings';

/**
 * The eSIM provider port (ESIM_PROVIDER) backed by the KeepGo adapter: live KeepGo, or without
 * credentials the KeepGo emulator of the sandboxes process (KEEPGO_BASE_URL, SANDBOXES_URL).
 */
@Module({})
export class KeepGoModule {
  static register(config: EsimConfig): DynamicModule {
    const settings = keepGoSettings(config);
    return {
      module: KeepGoModule,
      providers: [
        { provide: KEEPGO_SETTINGS, useValue: settings },
        {
          provide: KEEPGO_CALLS,
          inject: [Metrics],
          // A refusal KeepGo answered (unknown line, no refill) says it is up; only `unavailable` counts.
          useFactory: (metrics: Metrics) => new ProviderCalls(metrics, 'keepgo', settings.breaker, EsimProviderException.isTransient),
        },
        KeepGoLineLocks,
        KeepGoEsimProvider,
        { provide: ESIM_PROVIDER, useExisting: KeepGoEsimProvider },
        KeepGoModeLog,
      ],
      exports: [ESIM_PROVIDER],
    };
  }
}
