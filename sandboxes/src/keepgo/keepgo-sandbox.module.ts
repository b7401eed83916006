import { Module } from '@nestjs/common';
import { SandboxDataSourceCloser, sandboxDataSource } from '../persistence/sandbox-data-source';
import { KeepGoSandbox1732060950000 } from './1732060950000-keepgo-sandbox';
import { KeepGoEmulatorControlController } from './keepgo-emulator-control.controller';
import { KeepGoEmulatorFaults } from './keepgo-emulator-faults';
import { KeepGoEmulatorController } from './keepgo-emulator.controller';
import { KeepGoEmulator } from './keepgo-emulator.service';
import { KeepGoSandboxAccount } from './sandbox-account.entity';
import { KeepGoSandboxDataBundle } from './sandbox-data-bundle.entity';
import { KeepGoSandboxLine } from './sandbox-line.entity';
import { KeepGoSandboxTransaction } from './sandbox-transaction.entity';

/** The KeepGo reseller API v2, emulated, with its test controls; state in the schema sandbox_keepgo. */
@Module({
  controllers: [KeepGoEmulatorController, KeepGoEmulatorControlController],
  providers: [
    sandboxDataSource({
      name: 'keepgo',
      entities: [KeepGoSandboxAccount, KeepGoSandboxLine, KeepGoSandboxDataBundle, KeepGoSandboxTransaction],
      migrations: [KeepGoSandbox1732060950000],
    }),
    SandboxDataSourceCloser,
    KeepGoEmulator,
    KeepGoEmulatorFaults,
  ],
})
export class KeepGoSandboxModule {}
