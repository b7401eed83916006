import { DynamicModule, Module } from '@nestjs/common';
import type { EsimConfig } from '../config';
import { ESIM_PROVIDER } from './esim-provider';
import { KeepGoEsimProvider } from './keepgo-esim-provider.service';
import { KeepGoModeLog } from './keepgo-mode-log';
import { KEEPGO_SETTINGS, keepGoSettings } from './keepgo-settings';
import { KeepGoEmulatorControlController } from './sandbox/keepgo-emulator-control.controller';
import { KeepGoEmulatorFaults } from './sandbox/keepgo-emulator-faults';
import { KeepGoEmulatorController } from './sandbox/keepgo-emulator.controller';
import { KeepGoEmulator } from './sandbox/keepgo-emulator.service';
import { KeepGoSandboxAccount } from './sandbox/sandbox-account.entity';
import { KeepGoSandboxDataBundle } from './sandbox/sandbox-data-bundle.entity';
import { KeepGoSandboxLine } from './sandbox/sandbox-line.entity';
import { KeepGoSandboxTransaction } from './sandbox/sandbox-transaction.entity';

/**
 * The eSIM provider port (ESIM_PROVIDER) backed by the KeepGo adapter, and, without KeepGo
 * credentials, the KeepGo emulator it then talks to over loopback.
 */
@Module({})
export class KeepGoModule {
  /** The emulator's tables, for the service's DataSource. */
  static readonly entities = [KeepGoSandboxAccount, KeepGoSandboxLine, KeepGoSandboxDataBundle, KeepGoSandboxTransaction];

  static register(config: EsimConfig): DynamicModule {
    const settings = keepGoSettings(config);
    return {
      module: KeepGoModule,
      controllers: settings.sandbox ? [KeepGoEmulatorController, KeepGoEmulatorControlController] : [],
      providers: [
        { provide: KEEPGO_SETTINGS, useValue: settings },
        KeepGoEsimProvider,
        { provide: ESIM_PROVIDER, useExisting: KeepGoEsimProvider },
        KeepGoModeLog,
        ...(settings.sandbox ? [KeepGoEmulator, KeepGoEmulatorFaults] : []),
      ],
      exports: [ESIM_PROVIDER],
    };
  }
}
