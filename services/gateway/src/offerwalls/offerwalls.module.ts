import { Module } from '@nestjs/common';
import { PostbacksController } from './postbacks.controller';
import { SandboxWallsController } from './sandbox-walls.controller';

/** Offer-wall postbacks from providers, and the sandbox walls that emulate them. */
@Module({ controllers: [PostbacksController, SandboxWallsController] })
export class OfferwallsModule {}
