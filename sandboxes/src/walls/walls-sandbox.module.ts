import { Module } from '@nestjs/common';
import { SandboxDataSourceCloser, sandboxDataSource } from '../persistence/sandbox-data-source';
import { WallsSandbox1737000000003 } from './1737000000003-walls-sandbox';
import { OfferwallEmulator } from './offerwall-emulator';
import { SandboxWallsController } from './sandbox-walls.controller';

/** The five offer walls, emulated (/sandbox/offerwalls/<wall>); what they paid in sandbox_walls. */
@Module({
  controllers: [SandboxWallsController],
  providers: [sandboxDataSource({ name: 'walls', entities: [], migrations: [WallsSandbox1737000000003] }), SandboxDataSourceCloser, OfferwallEmulator],
})
export class WallsSandboxModule {}
